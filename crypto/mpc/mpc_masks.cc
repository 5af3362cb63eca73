#include "crypto/mpc/mpc_masks.h"

namespace pplda::crypto {

MaskBatch MaskBatch::Slice(size_t begin, size_t count) const {
  MaskBatch out;
  out.spec = spec;
  out.spec.count = count;
  if (spec.keep_bits && spec.low_bits > 0) {
    out.bits = bits.Slice(begin * spec.low_bits, count * spec.low_bits);
  }
  out.low = low.Slice(begin, count);
  if (spec.high_bits > 0) out.high = high.Slice(begin, count);
  return out;
}

}  // namespace pplda::crypto

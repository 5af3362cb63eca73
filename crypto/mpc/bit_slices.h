// Bit-sliced layout shared by the replicated rings (replicated_ring.h,
// cnf_ring.h): element e of a boolean vector is bit e % 64 of word e / 64,
// and plane k of a value matrix holds bit k of every element.
#ifndef PPLDA_CRYPTO_MPC_BIT_SLICES_H_
#define PPLDA_CRYPTO_MPC_BIT_SLICES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "crypto/arith/field.h"

namespace pplda::crypto {

inline size_t WordsFor(size_t bits) { return (bits + 63) / 64; }

// The low `planes` bits of every value, plane-major, `words` words a plane.
inline std::vector<uint64_t> TransposeToPlanes(const std::vector<uint128>& values, int planes,
                                               size_t words) {
  std::vector<uint64_t> out(static_cast<size_t>(planes) * words, 0);
  for (size_t e = 0; e < values.size(); ++e) {
    const uint128 v = values[e];
    const uint64_t bit = uint64_t{1} << (e % 64);
    for (int k = 0; k < planes; ++k) {
      if ((v >> k) & 1) out[static_cast<size_t>(k) * words + e / 64] |= bit;
    }
  }
  return out;
}

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_BIT_SLICES_H_

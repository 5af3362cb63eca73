// Random masks for statistically masked openings (comparison.h,
// mpc_truncation.h) and shared random integers, produced in one batch by
// MpcEngine::GenerateMasks (2 rounds for any number of specs).
//
// For each of `count` elements a MaskBatch holds
//   bits[e * low_bits + i]  shares of uniform random bits r_i (if kept),
//   low[e]  = sum_i 2^i r_i, uniform in [0, 2^low_bits),
//   high[e] = sum over the t+1 dealers of a value uniform in
//             [0, 2^high_bits) (absent when high_bits = 0).
// Random bits are the XOR of two dealers' bits when t = 1 and come from
// squaring otherwise (Damgard et al., TCC 2006): see mpc_engine.h.
// No coalition of t parties learns any r_i or any part of low or high: the
// high part contains at least one honest dealer's uniform value.
#ifndef PPLDA_CRYPTO_MPC_MASKS_H_
#define PPLDA_CRYPTO_MPC_MASKS_H_

#include <cstddef>

#include "crypto/mpc_shares.h"

namespace pplda::crypto {

struct MaskSpec {
  size_t count = 0;
  // Random bits per element, 0..127 (127 bits: low is taken mod p).
  int low_bits = 0;
  // Bits of each dealer's contribution to the high part, 0..126 (0: none).
  int high_bits = 0;
  // Keep the individual bit shares (comparisons need them; random integers
  // and probabilistic truncation need only their sum).
  bool keep_bits = true;
};

struct MaskBatch {
  MaskSpec spec;
  Shares bits;
  Shares low;
  Shares high;

  // Shares of bit i of element e (requires spec.keep_bits).
  FieldElement bit(size_t e, int i) const { return bits[e * spec.low_bits + i]; }
  // Elements [begin, begin + count) of this batch as a batch of their own.
  MaskBatch Slice(size_t begin, size_t count) const;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_MASKS_H_

// Random masks for statistically masked openings (comparison.h,
// mpc_truncation.h) and shared random integers, produced in one batch by
// MpcEngine::GenerateMasks (1 round with pseudo-random sharing, 2 with
// dealt randomness, for any number of specs; mpc_engine.h).
//
// For each of `count` elements a MaskBatch holds
//   bits[e * low_bits + i]  shares of uniform random bits r_i (if kept),
//   low[e]  = sum_i 2^i r_i, uniform in [0, 2^low_bits),
//   high[e] = sum of MpcConfig::mask_summands() values uniform in
//             [0, 2^high_bits), one per pseudo-random key or per dealer
//             (absent when high_bits = 0).
// No coalition of t parties learns any r_i or any part of low or high: the
// high part contains at least one value from a key (or dealer) outside it.
#ifndef PPLDA_CRYPTO_MPC_MPC_MASKS_H_
#define PPLDA_CRYPTO_MPC_MPC_MASKS_H_

#include <cstddef>

#include "crypto/mpc/mpc_shares.h"

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

#endif  // PPLDA_CRYPTO_MPC_MPC_MASKS_H_

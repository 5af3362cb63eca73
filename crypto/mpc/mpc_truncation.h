// Truncation of shared integers by a public power of two: the fixed-point
// rescaling step (Catrina and Saxena, "Secure computation with fixed-point
// numbers", FC 2010, Protocols 3.1 and 3.2).
//
//   Trunc(x, k, m)   = floor(x / 2^m) exactly, for 0 <= x < 2^k:
//                      (x - Mod2m(x, k, m)) * 2^-m (comparison.h).
//                      Cost: masks + 1 + ceil(log2 m) rounds.
//   TruncPr(x, k, m) = floor(x / 2^m) + u, u in {0, 1} with
//                      Pr[u = 1] = (x mod 2^m) / 2^m (unbiased stochastic
//                      rounding), for 0 <= x < 2^k. Opens
//                      c = x + r_low + 2^m r_high and returns
//                      (x - (c mod 2^m) + r_low) * 2^-m.
//                      Cost: masks + 1 round; m random bits (only their sum
//                      is kept).
// Signed variants take -2^(k-1) <= x < 2^(k-1) and 1 <= m < k, shift by
// 2^(k-1) first and return floor(x / 2^m) (+ u for TruncPr).
//
// Security: the opened c is within 2^-sigma statistical distance of a value
// independent of x (see comparison.h). Ranges: 1 <= m <= k <=
// max_masked_bits() (84 for n = 3, t = 1, sigma = 40); errors InvalidArgument.
#ifndef PPLDA_CRYPTO_MPC_MPC_TRUNCATION_H_
#define PPLDA_CRYPTO_MPC_MPC_TRUNCATION_H_

#include "absl/status/statusor.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/mpc_masks.h"
#include "crypto/mpc/mpc_shares.h"

namespace pplda::crypto {

absl::StatusOr<Shares> Trunc(MpcEngine& engine, const Shares& x, int k, int m);
absl::StatusOr<Shares> TruncSigned(MpcEngine& engine, const Shares& x, int k, int m);

MaskSpec TruncPrMaskSpec(const MpcConfig& config, size_t count, int k, int m);
absl::StatusOr<Shares> TruncPr(MpcEngine& engine, const Shares& x, int k, int m,
                               const MaskBatch& masks);
absl::StatusOr<Shares> TruncPr(MpcEngine& engine, const Shares& x, int k, int m);
absl::StatusOr<Shares> TruncPrSigned(MpcEngine& engine, const Shares& x, int k, int m);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_MPC_TRUNCATION_H_

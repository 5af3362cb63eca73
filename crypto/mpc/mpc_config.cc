#include "crypto/mpc/mpc_config.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/field.h"

namespace pplda::crypto {
namespace {

// n choose t, or kMaxPseudoRandomSets + 1 once it exceeds that.
int CappedBinomial(int n, int t) {
  int64_t c = 1;
  for (int i = 1; i <= t; ++i) {
    c = c * (n - t + i) / i;
    if (c > MpcConfig::kMaxPseudoRandomSets) return MpcConfig::kMaxPseudoRandomSets + 1;
  }
  return static_cast<int>(c);
}

}  // namespace

absl::StatusOr<MpcConfig> MpcConfig::Create(int num_parties, int threshold, int sigma,
                                            SharedRandomness randomness) {
  ASSIGN_OR_RETURN(ShamirScheme shamir, ShamirScheme::Create(num_parties, threshold));
  if (sigma < kMinSigma || sigma > kMaxSigma) {
    return absl::InvalidArgumentError(absl::StrCat(
        "statistical security parameter sigma = ", sigma, " is outside [", kMinSigma,
        ", ", kMaxSigma, "] bits"));
  }
  const bool possible = CappedBinomial(num_parties, threshold) <= kMaxPseudoRandomSets;
  if (randomness == SharedRandomness::kPseudoRandom && !possible) {
    return absl::InvalidArgumentError(absl::StrCat(
        "pseudo-random secret sharing for n = ", num_parties, ", t = ", threshold,
        " needs more than ", kMaxPseudoRandomSets, " keys (n choose t); use dealt randomness"));
  }
  const bool pseudo_random = randomness != SharedRandomness::kDealt && possible;
  const bool xor_bits =
      threshold == 1 && !(pseudo_random && randomness == SharedRandomness::kPseudoRandom);
  return MpcConfig(shamir, sigma, pseudo_random, xor_bits);
}

int MpcConfig::mask_summands() const {
  return pseudo_random_sharing_ ? CappedBinomial(num_parties(), threshold()) : threshold() + 1;
}

int MpcConfig::max_masked_bits() const {
  // Largest k with 2^(k+1) + S 2^(k+sigma+1) <= 2^127 - 1, i.e. (dividing
  // by 2^k, the left side an integer) 2 + S 2^(sigma+1) < 2^(127-k).
  const uint128 need = 2 + static_cast<uint128>(mask_summands()) * (uint128{1} << (sigma_ + 1));
  int k = 0;
  while (k + 1 < 127 && need < (uint128{1} << (127 - (k + 1)))) ++k;
  return k;
}

}  // namespace pplda::crypto

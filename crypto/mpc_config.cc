#include "crypto/mpc_config.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace pplda::crypto {

absl::StatusOr<MpcConfig> MpcConfig::Create(int num_parties, int threshold, int sigma) {
  ASSIGN_OR_RETURN(ShamirScheme shamir, ShamirScheme::Create(num_parties, threshold));
  if (sigma < kMinSigma || sigma > kMaxSigma) {
    return absl::InvalidArgumentError(absl::StrCat(
        "statistical security parameter sigma = ", sigma, " is outside [", kMinSigma,
        ", ", kMaxSigma, "] bits"));
  }
  return MpcConfig(shamir, sigma);
}

int MpcConfig::dealer_sum_bits() const {
  int bits = 0;
  while ((1 << bits) < threshold() + 1) ++bits;
  return bits;
}

int MpcConfig::max_masked_bits() const { return 124 - sigma_ - dealer_sum_bits(); }

}  // namespace pplda::crypto

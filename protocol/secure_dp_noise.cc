#include "protocol/secure_dp_noise.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "privacy/discrete_gaussian.h"

namespace pplda::protocol {

bool SecureDpNoise::IsNoisy(int iteration) const {
  return std::binary_search(noisy_iterations.begin(), noisy_iterations.end(), iteration);
}

absl::Status SecureDpNoise::Validate() const {
  if (iterations < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("DP training needs at least one iteration, got ", iterations));
  }
  if (noisy_iterations.empty()) {
    return absl::InvalidArgumentError("DP training needs at least one noisy iteration");
  }
  for (size_t i = 0; i < noisy_iterations.size(); ++i) {
    const int it = noisy_iterations[i];
    if (it < 1 || it > iterations || (i > 0 && it <= noisy_iterations[i - 1])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "DP noisy iteration ", it, " (entry ", i, ") is not increasing within [1, ",
          iterations, "]"));
    }
  }
  if (share_variance < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DP noise share variance must be at least 1, got ", share_variance.get_str()));
  }
  if (share_bound < 1 || share_bound > (int64_t{1} << 50)) {
    return absl::InvalidArgumentError(
        absl::StrCat("DP noise share bound must be in [1, 2^50], got ", share_bound));
  }
  return absl::OkStatus();
}

SecureDpNoise MakeSecureDpNoise(const privacy::DistributedNoise& noise,
                                const std::vector<int>& schedule, int iterations) {
  SecureDpNoise dp;
  dp.iterations = iterations;
  for (int s : schedule) dp.noisy_iterations.push_back(s + 1);
  dp.share_variance = noise.share_variance;
  dp.share_bound = noise.share_bound;
  return dp;
}

absl::StatusOr<SecureDpSetup> SetUpSecureDp(const privacy::DpCountOptions& options,
                                            int iterations, int parties, int coalition,
                                            int32_t num_terms, int num_topics) {
  privacy::DpCountOptions dp = options;
  dp.noise_parties = parties;
  dp.noise_coalition = coalition;
  RETURN_IF_ERROR(privacy::ValidateDpCountOptions(dp, iterations));
  ASSIGN_OR_RETURN(privacy::PrivacyAccountant accountant,
                   privacy::PrivacyAccountant::WithBudget(dp.epsilon, dp.delta));
  ASSIGN_OR_RETURN(privacy::DistributedNoise noise,
                   privacy::CalibrateDistributedCountNoise(dp, iterations, num_terms, num_topics,
                                                           accountant));
  const std::vector<int> schedule = privacy::ReleaseSchedule(iterations, noise.composition.releases);
  RETURN_IF_ERROR(accountant.Record(privacy::ShareTruncationRelease(noise)));
  for (size_t r = 0; r < schedule.size(); ++r) {
    RETURN_IF_ERROR(accountant.Record(privacy::DistributedIterationRelease(dp, noise)));
  }
  SecureDpSetup out{MakeSecureDpNoise(noise, schedule, iterations), std::move(accountant),
                    privacy::DescribeDpCountTraining(dp, iterations, noise.composition, &noise)};
  return out;
}

absl::StatusOr<NoiseShares> NoiseForRelease(const SecureDpNoise& dp, int32_t num_terms,
                                            int num_topics, crypto::SecureRng& rng) {
  RETURN_IF_ERROR(dp.Validate());
  ASSIGN_OR_RETURN(privacy::DiscreteGaussian share,
                   privacy::DiscreteGaussian::Create(dp.share_variance));
  NoiseShares out;
  out.term_major.resize(static_cast<size_t>(num_terms) * num_topics);
  out.totals.assign(static_cast<size_t>(num_topics), 0);
  for (size_t i = 0; i < out.term_major.size(); ++i) {
    out.term_major[i] = privacy::SampleNoiseShare(share, dp.share_bound, rng);
    out.totals[i % num_topics] += out.term_major[i];
  }
  return out;
}

}  // namespace pplda::protocol

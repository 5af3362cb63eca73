#include "privacy/final_count_noise.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "privacy/discrete_gaussian.h"
#include "privacy/zcdp_calibration.h"

namespace pplda::privacy {

absl::Status ValidateFinalCountNoiseOptions(const FinalCountNoiseOptions& options) {
  if (!(options.sigma > 0 && options.sigma <= 0x1p40)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "final-count noise sigma must be in (0, 2^40] (--final-noise-sigma), got %g",
        options.sigma));
  }
  return absl::OkStatus();
}

absl::StatusOr<FinalCountNoise> AddFinalCountNoise(const FinalCountNoiseOptions& options,
                                                   crypto::SecureRng& rng, lda::LdaModel* model) {
  RETURN_IF_ERROR(ValidateFinalCountNoiseOptions(options));
  FinalCountNoise out;
  out.options = options;
  out.sigma_squared = RoundUpSigmaSquared(options.sigma * options.sigma);
  ASSIGN_OR_RETURN(DiscreteGaussian noise, DiscreteGaussian::Create(out.sigma_squared));
  for (int64_t& count : model->topic_term_counts) {
    count += noise.Sample(rng);
    if (count < 0) {
      count = 0;
      ++out.clamped_cells;
    }
  }
  return out;
}

nlohmann::json FinalCountNoise::Describe() const {
  return {{"mechanism",
           "exact discrete Gaussian noise N_Z(0, sigma^2) added once to every topic-term count "
           "after training, negative counts clamped to 0"},
          {"guarantee", std::string("none: ") + kFinalCountNoiseDisclaimer},
          {"sigma", std::sqrt(sigma_squared.get_d())},
          {"sigma_squared", sigma_squared.get_str()}};
}

absl::StatusOr<double> NominalSigmaForEpsilon(int32_t max_tokens_per_document, double epsilon,
                                              double delta) {
  ASSIGN_OR_RETURN(mpq_class variance,
                   DiscreteGaussianVariance(max_tokens_per_document, epsilon, delta));
  return std::sqrt(variance.get_d());
}

}  // namespace pplda::privacy

#include "privacy/gibbs_shadow_trainer.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "lda/lda_sampler.h"

namespace pplda::privacy {

absl::StatusOr<std::unique_ptr<GibbsShadowTrainer>> GibbsShadowTrainer::Create(
    const GibbsTrainingOptions& options) {
  if (options.sampler != "standard" && options.sampler != "batched") {
    return absl::InvalidArgumentError(absl::StrFormat(
        "shadow sampler must be \"standard\" or \"batched\", got \"%s\"", options.sampler));
  }
  if (options.iterations < 1 || options.iterations > 10'000'000) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "shadow iterations must be in [1, 10000000], got %d", options.iterations));
  }
  GibbsTrainingOptions fixed = options;
  fixed.sampler_options.threads = 1;
  RETURN_IF_ERROR(lda::ValidateSamplerOptions(fixed.sampler_options));
  return std::unique_ptr<GibbsShadowTrainer>(new GibbsShadowTrainer(fixed));
}

absl::StatusOr<lda::LdaModel> GibbsShadowTrainer::Train(const lda::Corpus& members,
                                                        uint64_t seed) const {
  lda::SamplerOptions sampler_options = options_.sampler_options;
  sampler_options.seed = seed;
  ASSIGN_OR_RETURN(std::unique_ptr<lda::LdaSampler> sampler,
                   lda::CreateSampler(options_.sampler, members, sampler_options));
  for (int it = 0; it < options_.iterations; ++it) sampler->RunIteration();
  return sampler->Model();
}

nlohmann::json GibbsShadowTrainer::Describe() const {
  const lda::SamplerOptions& s = options_.sampler_options;
  return {{"trainer", "plaintext collapsed Gibbs"},
          {"sampler", options_.sampler},
          {"topics", s.num_topics},
          {"alpha", s.alpha},
          {"beta", s.beta},
          {"iterations", options_.iterations},
          {"threads_per_model", 1},
          {"privacy_mechanisms", nullptr}};
}

}  // namespace pplda::privacy

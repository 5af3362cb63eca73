#include "privacy/dp_shadow_trainer.h"

#include <utility>

#include "base/status_macros.h"
#include "crypto/random/secure_rng_testing.h"

namespace pplda::privacy {
namespace {

// Keeps the noise stream apart from any other use of the model's seed.
constexpr uint64_t kNoiseStream = 0x6470'6e6f'6973'6531;  // "dpnoise1"

}  // namespace

absl::StatusOr<std::unique_ptr<DpShadowTrainer>> DpShadowTrainer::Create(
    std::unique_ptr<ShadowTrainer> inner, const DpTrainingOptions& options,
    std::optional<GibbsTrainingOptions> training) {
  RETURN_IF_ERROR(ValidateDpTrainingOptions(options));
  if (!options.enabled()) {
    return absl::InvalidArgumentError(
        "DpShadowTrainer needs DP vocabulary, DP training or final-count noise options");
  }
  if (inner == nullptr) return absl::InvalidArgumentError("DpShadowTrainer needs a trainer");
  if (options.counts) {
    if (!training) {
      return absl::InvalidArgumentError("DpShadowTrainer with DP training needs its options");
    }
    RETURN_IF_ERROR(ValidateDpCountOptions(*options.counts, training->iterations));
    RETURN_IF_ERROR(lda::ValidateSamplerOptions(training->sampler_options));
  }
  return std::unique_ptr<DpShadowTrainer>(
      new DpShadowTrainer(std::move(inner), options, std::move(training)));
}

absl::StatusOr<lda::LdaModel> DpShadowTrainer::Train(const lda::Corpus& members,
                                                     uint64_t seed) const {
  crypto::SeededRng rng(seed ^ kNoiseStream);
  ASSIGN_OR_RETURN(PrivacyAccountant accountant, MakeDpAccountant(options_));
  ASSIGN_OR_RETURN(DpTrainingCorpus prepared,
                   PrepareDpTrainingCorpus(members, options_, rng, &accountant));
  if (options_.counts) {
    lda::SamplerOptions sampler = training_->sampler_options;
    sampler.threads = 1;  // the audit runs one model per thread
    ASSIGN_OR_RETURN(DpCountTraining trained,
                     TrainWithNoisyCounts(prepared.corpus, sampler, training_->iterations,
                                          *options_.counts, rng, &accountant));
    return std::move(trained.model);
  }
  ASSIGN_OR_RETURN(lda::LdaModel model, inner_->Train(prepared.corpus, seed));
  RETURN_IF_ERROR(ApplyFinalCountNoise(options_, rng, &model).status());
  return model;
}

nlohmann::json DpShadowTrainer::Describe() const {
  nlohmann::json out = inner_->Describe();
  if (options_.counts) out["sampler"] = "batched (DP training)";
  out["privacy_mechanisms"] = DescribeDpOptions(options_);
  return out;
}

}  // namespace pplda::privacy

// The plaintext ShadowTrainer: the collapsed Gibbs samplers of lda/
// ("standard" or "batched", lda/lda_sampler.h) run for a fixed number of
// iterations from random topics, exactly as `pplda train` runs them, except
// that each model uses one thread (the audit runs one model per core) and
// the seed is the one the audit gives for that model.
//
// Ranges: iterations in [1, 10^7]; sampler options as ValidateSamplerOptions
// (threads is ignored and set to 1).
// Thread-safety: Train() is const and may run concurrently.
#ifndef PPLDA_PRIVACY_GIBBS_SHADOW_TRAINER_H_
#define PPLDA_PRIVACY_GIBBS_SHADOW_TRAINER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "lda/sampler_options.h"
#include "privacy/shadow_trainer.h"

namespace pplda::privacy {

struct GibbsTrainingOptions {
  std::string sampler = "standard";  // or "batched"
  lda::SamplerOptions sampler_options;  // num_topics, alpha, beta (seed, threads overridden)
  int iterations = 500;
};

class GibbsShadowTrainer : public ShadowTrainer {
 public:
  // InvalidArgument naming the option for an unknown sampler, iterations out
  // of range or invalid sampler options.
  static absl::StatusOr<std::unique_ptr<GibbsShadowTrainer>> Create(
      const GibbsTrainingOptions& options);

  absl::StatusOr<lda::LdaModel> Train(const lda::Corpus& members, uint64_t seed) const override;
  nlohmann::json Describe() const override;

 private:
  explicit GibbsShadowTrainer(const GibbsTrainingOptions& options) : options_(options) {}

  GibbsTrainingOptions options_;
};

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_GIBBS_SHADOW_TRAINER_H_

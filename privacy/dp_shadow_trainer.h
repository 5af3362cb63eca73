// DpShadowTrainer: the audit's ShadowTrainer for a training run with
// privacy options. It wraps the plaintext trainer in the pipeline of
// privacy/dp_training.h, so every shadow and target model goes through the
// same DP vocabulary selection, document caps, DP training (noisy counts at
// every noisy iteration, privacy/dp_count_training.h, with the same budget
// and accountant) and final-count noise the real run would publish: the
// same pipeline and parameters as the real run, DP and DP vocabulary
// included. With DP training the inner trainer is not used: the
// model is trained by TrainWithNoisyCounts from the GibbsTrainingOptions'
// topics, priors and iterations (the batched sampler, as `pplda train
// --dp-epsilon` uses). The returned model's vocabulary is the DP-selected
// one when vocabulary selection is on; the zeta scorer matches terms by
// string. The audit measures the effect of these mechanisms empirically;
// the final-count noise has no DP guarantee whatever the audit shows
// (privacy/final_count_noise.h), and Describe() says so.
//
// Noise randomness: a deterministic ChaCha20 stream keyed from the model's
// seed (crypto::SeededRng), so an audit is reproducible under its seed. The
// audit simulates what an attacker would see; it publishes nothing, so
// reproducible noise costs no privacy. `pplda train` uses the OS CSPRNG.
// Thread-safety: Train() is const and may run concurrently (each call owns
// its rng).
#ifndef PPLDA_PRIVACY_DP_SHADOW_TRAINER_H_
#define PPLDA_PRIVACY_DP_SHADOW_TRAINER_H_

#include <memory>
#include <optional>

#include "absl/status/statusor.h"
#include "privacy/dp_training.h"
#include "privacy/gibbs_shadow_trainer.h"
#include "privacy/shadow_trainer.h"

namespace pplda::privacy {

class DpShadowTrainer : public ShadowTrainer {
 public:
  // InvalidArgument from ValidateDpTrainingOptions (and
  // ValidateDpCountOptions with training's iterations), when no privacy
  // option is set (use the inner trainer directly then), or when
  // options.counts is set without `training`.
  static absl::StatusOr<std::unique_ptr<DpShadowTrainer>> Create(
      std::unique_ptr<ShadowTrainer> inner, const DpTrainingOptions& options,
      std::optional<GibbsTrainingOptions> training = std::nullopt);

  absl::StatusOr<lda::LdaModel> Train(const lda::Corpus& members, uint64_t seed) const override;
  nlohmann::json Describe() const override;

 private:
  DpShadowTrainer(std::unique_ptr<ShadowTrainer> inner, const DpTrainingOptions& options,
                  std::optional<GibbsTrainingOptions> training)
      : inner_(std::move(inner)), options_(options), training_(std::move(training)) {}

  std::unique_ptr<ShadowTrainer> inner_;
  DpTrainingOptions options_;
  std::optional<GibbsTrainingOptions> training_;
};

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DP_SHADOW_TRAINER_H_

// DpShadowTrainer: the audit's ShadowTrainer for a training run with
// privacy options. It wraps the plaintext trainer in the pipeline of
// privacy/dp_training.h, so every shadow and target model goes through the
// same DP vocabulary selection and final-count noise the real run would
// publish (the issue's "the same pipeline and parameters as the real run,
// including DP and DP vocabulary"). The returned model's vocabulary is the
// DP-selected one when vocabulary selection is on; the zeta scorer matches
// terms by string. The audit measures the effect of these mechanisms
// empirically; the final-count noise has no DP guarantee whatever the audit
// shows (privacy/final_count_noise.h), and Describe() says so.
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

#include "absl/status/statusor.h"
#include "privacy/dp_training.h"
#include "privacy/shadow_trainer.h"

namespace pplda::privacy {

class DpShadowTrainer : public ShadowTrainer {
 public:
  // InvalidArgument from ValidateDpTrainingOptions, or when no privacy
  // option is set (use the inner trainer directly then).
  static absl::StatusOr<std::unique_ptr<DpShadowTrainer>> Create(
      std::unique_ptr<ShadowTrainer> inner, const DpTrainingOptions& options);

  absl::StatusOr<lda::LdaModel> Train(const lda::Corpus& members, uint64_t seed) const override;
  nlohmann::json Describe() const override;

 private:
  DpShadowTrainer(std::unique_ptr<ShadowTrainer> inner, const DpTrainingOptions& options)
      : inner_(std::move(inner)), options_(options) {}

  std::unique_ptr<ShadowTrainer> inner_;
  DpTrainingOptions options_;
};

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DP_SHADOW_TRAINER_H_

// The DP training pipeline around a plaintext trainer, shared by
// `pplda train` and the audit's DP shadow models (so the audit attacks
// exactly what would be published), following the fully DP topic model of
// Manzonelli et al. (Algorithm 1): DP vocabulary selection on the corpus,
// training on the corpus restricted to that vocabulary, DP noise on the
// published counts; the accountant composes both.
//
//   PrepareDpTrainingCorpus: vocabulary selection (when options.vocabulary)
//     and the cap check (when options.model).
//   (the caller trains on the returned corpus)
//   ReleaseDpModel: noise on the counts (when options.model).
//
// The corpus given to PrepareDpTrainingCorpus must not have been filtered by
// data-dependent rules when the vocabulary is DP (document-frequency bounds
// would leak rare terms' presence): the CLI builds it with min_df = 1 and
// max_df = 1 then.
// Errors: the option validators'; FailedPrecondition when the DP vocabulary
// keeps no term (naming the threshold and the options to change) or a
// document exceeds the cap.
// Thread-safety: pure functions of their inputs and the rng's stream.
#ifndef PPLDA_PRIVACY_DP_TRAINING_H_
#define PPLDA_PRIVACY_DP_TRAINING_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "crypto/secure_rng.h"
#include "lda/corpus.h"
#include "lda/lda_model.h"
#include "nlohmann/json.hpp"
#include "privacy/dp_model_release.h"
#include "privacy/dp_vocabulary.h"
#include "privacy/privacy_accountant.h"

namespace pplda::privacy {

struct DpTrainingOptions {
  std::optional<DpVocabularyOptions> vocabulary;
  std::optional<DpModelOptions> model;

  bool enabled() const { return vocabulary.has_value() || model.has_value(); }
};

absl::Status ValidateDpTrainingOptions(const DpTrainingOptions& options);

struct DpTrainingCorpus {
  lda::Corpus corpus;
  int64_t dropped_documents = 0;  // left without tokens by the DP vocabulary
};

absl::StatusOr<DpTrainingCorpus> PrepareDpTrainingCorpus(const lda::Corpus& corpus,
                                                         const DpTrainingOptions& options,
                                                         crypto::SecureRng& rng,
                                                         PrivacyAccountant* accountant);

absl::Status ReleaseDpModel(const DpTrainingOptions& options, crypto::SecureRng& rng,
                            lda::LdaModel* model, PrivacyAccountant* accountant);

// The options as recorded in reports: {"vocabulary": ..., "model": ...}.
nlohmann::json DescribeDpOptions(const DpTrainingOptions& options);

// The model file's "privacy" object for a plaintext model trained with
// `options` (setting, leakage statement, budget).
nlohmann::json DpPrivacyStatement(const DpTrainingOptions& options,
                                  const PrivacyAccountant& accountant);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DP_TRAINING_H_

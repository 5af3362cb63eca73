// The privacy options of a plaintext training run and the pipeline around
// the trainer, shared by `pplda train` and the audit's shadow models (so the
// audit attacks exactly what would be published), after the fully DP topic
// model of Manzonelli et al. (Algorithm 1) in its first step only:
//
//   PrepareDpTrainingCorpus: DP vocabulary selection (when
//     options.vocabulary), a sound (epsilon, delta)-DP release of the list
//     of terms (privacy/dp_vocabulary.h), recorded in the accountant, and
//     the corpus restricted to the selected terms.
//   (the caller trains on the returned corpus: NOT a DP mechanism)
//   ApplyFinalCountNoise: heuristic noise on the final counts (when
//     options.final_noise), privacy/final_count_noise.h. It gives NO
//     differential-privacy guarantee and is never recorded in the
//     accountant.
//
// So the accountant's (epsilon, delta) covers the vocabulary only, and no
// mode of this pipeline makes the model's counts differentially private:
// DpPrivacyStatement says so, sets the model's own "epsilon" and "delta" to
// null, and states the privacy unit. DP training for the whole run (noise at
// every iteration, DESIGN section 6) is not built yet.
//
// The corpus given to PrepareDpTrainingCorpus must not have been filtered by
// data-dependent rules when the vocabulary is DP (document-frequency bounds
// would leak rare terms' presence): the CLI builds it with min_df = 1 and
// max_df = 1 then.
// Errors: the option validators'; FailedPrecondition when the DP vocabulary
// keeps no term (naming the threshold and the options to change).
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
#include "privacy/dp_vocabulary.h"
#include "privacy/final_count_noise.h"
#include "privacy/privacy_accountant.h"
#include "privacy/privacy_unit.h"

namespace pplda::privacy {

struct DpTrainingOptions {
  std::optional<DpVocabularyOptions> vocabulary;      // DP: the list of terms
  std::optional<FinalCountNoiseOptions> final_noise;  // heuristic: no guarantee

  // Any privacy option at all (the model file then carries no exact
  // statistic of the documents).
  bool enabled() const { return vocabulary.has_value() || final_noise.has_value(); }
};

absl::Status ValidateDpTrainingOptions(const DpTrainingOptions& options);

struct DpTrainingCorpus {
  lda::Corpus corpus;
  // Exact figures for the operator's log (never written to a model file):
  int64_t dropped_documents = 0;  // left without tokens by the DP vocabulary
  int64_t candidate_terms = 0;    // terms some document contributed
};

// With options.vocabulary: selects the DP vocabulary, records its release in
// *accountant and returns the corpus restricted to it (vocabulary sorted by
// string). Without: returns the corpus unchanged and records nothing.
absl::StatusOr<DpTrainingCorpus> PrepareDpTrainingCorpus(const lda::Corpus& corpus,
                                                         const DpTrainingOptions& options,
                                                         crypto::SecureRng& rng,
                                                         PrivacyAccountant* accountant);

// With options.final_noise: adds it to *model and describes it; without:
// nullopt, model untouched.
absl::StatusOr<std::optional<FinalCountNoise>> ApplyFinalCountNoise(
    const DpTrainingOptions& options, crypto::SecureRng& rng, lda::LdaModel* model);

// The options as recorded in reports (audit.json's trainer):
// {"dp_vocabulary": {epsilon, delta, max_terms_per_document, covers} or null,
//  "final_count_noise": {sigma, guarantee} or null}.
nlohmann::json DescribeDpOptions(const DpTrainingOptions& options);

// The model file's "privacy" object for a plaintext model trained with
// `options` (any of them set): setting, leakage statement, "epsilon" and
// "delta" of the model (null: no mode makes the counts DP), the DP releases
// with what they cover and their privacy unit ("differential_privacy", null
// when nothing DP was released), whether the vocabulary is private, the
// final-count noise (its parameters, no epsilon), and the note that exact
// statistics are left out. `noise` is what ApplyFinalCountNoise returned.
nlohmann::json DpPrivacyStatement(const DpTrainingOptions& options,
                                  const PrivacyAccountant& accountant, const PrivacyUnit& unit,
                                  const std::optional<FinalCountNoise>& noise);

// What the accountant's (epsilon, delta) covers in this pipeline.
inline constexpr char kVocabularyOnlyCoverage[] =
    "the vocabulary (the list of terms) only; NOT the topic-term counts, which no mode of "
    "`pplda train` makes differentially private";

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DP_TRAINING_H_

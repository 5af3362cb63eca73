// The privacy options of a plaintext training run and the pipeline around
// the trainer, shared by `pplda train` and the audit's shadow models (so the
// audit attacks exactly what would be published), after the fully DP topic
// model of Manzonelli et al. (Algorithm 1):
//
//   MakeDpAccountant: with options.counts, an accountant with the run's
//     budget (--dp-epsilon, --dp-delta), which every release debits.
//   PrepareDpTrainingCorpus: DP vocabulary selection (when
//     options.vocabulary), a sound (epsilon, delta)-DP release of the list
//     of terms (privacy/dp_vocabulary.h), recorded in the accountant, and
//     the corpus restricted to the selected terms; with options.counts the
//     documents are then capped (privacy/document_caps.h).
//   training: with options.counts, DP training for the whole run
//     (privacy/dp_count_training.h), every noisy iteration recorded in the
//     accountant; without, the plain samplers (NOT a DP mechanism).
//   ApplyFinalCountNoise: heuristic noise on the final counts (when
//     options.final_noise; refused with options.counts),
//     privacy/final_count_noise.h. It gives NO differential-privacy
//     guarantee and is never recorded in the accountant.
//
// The model as a whole is DP only with both options.counts and
// options.vocabulary (without a DP vocabulary its list of terms is chosen by
// preprocessing from the documents): DpPrivacyStatement then gives the
// model's "epsilon" and "delta"; otherwise they are null and the statement
// says what the accountant's budget covers (the counts given the
// vocabulary, or the vocabulary only), with the privacy unit.
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
#include "crypto/random/secure_rng.h"
#include "lda/corpus.h"
#include "lda/lda_model.h"
#include "nlohmann/json.hpp"
#include "privacy/document_caps.h"
#include "privacy/dp_count_training.h"
#include "privacy/dp_vocabulary.h"
#include "privacy/final_count_noise.h"
#include "privacy/privacy_accountant.h"
#include "privacy/privacy_unit.h"

namespace pplda::privacy {

struct DpTrainingOptions {
  std::optional<DpVocabularyOptions> vocabulary;      // DP: the list of terms
  std::optional<FinalCountNoiseOptions> final_noise;  // heuristic: no guarantee
  std::optional<DpCountOptions> counts;               // DP training for the whole run

  // Any privacy option at all (the model file then carries no exact
  // statistic of the documents).
  bool enabled() const {
    return vocabulary.has_value() || final_noise.has_value() || counts.has_value();
  }
  // The published model as a whole is DP.
  bool model_private() const { return vocabulary.has_value() && counts.has_value(); }
};

// The validators of each option, and InvalidArgument naming the flags when
// counts is combined with final_noise, or the vocabulary's epsilon or delta
// is not below the run's budget.
absl::Status ValidateDpTrainingOptions(const DpTrainingOptions& options);

// With options.counts: an accountant with budget (counts->epsilon,
// counts->delta); else one without a budget.
absl::StatusOr<PrivacyAccountant> MakeDpAccountant(const DpTrainingOptions& options);

struct DpTrainingCorpus {
  lda::Corpus corpus;
  // Exact figures for the operator's log (never written to a model file):
  int64_t dropped_documents = 0;  // left without tokens by the DP vocabulary
  int64_t candidate_terms = 0;    // terms some document contributed
  int64_t capped_documents = 0;   // shortened by the DP caps
};

// With options.vocabulary: selects the DP vocabulary, records its release in
// *accountant and returns the corpus restricted to it (vocabulary sorted by
// string). Without: the corpus unchanged, nothing recorded. Then, with
// options.counts, every document capped by options.counts->caps.
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
//  "final_count_noise": {sigma, guarantee} or null,
//  "dp_training": {epsilon, delta, max_tokens_per_document,
//                  max_tokens_per_term, noisy_iterations} or null}.
nlohmann::json DescribeDpOptions(const DpTrainingOptions& options);

// The model file's "privacy" object for a plaintext model trained with
// `options` (any of them set): setting, leakage statement, "epsilon" and
// "delta" of the model (null unless options.model_private()), the DP
// releases with what they cover and their privacy unit
// ("differential_privacy", null when nothing DP was released), whether the
// vocabulary and the counts are private, the DP training mechanism
// ("dp_training": `training`, DescribeDpCountTraining's record, or null),
// the final-count noise (its parameters, no epsilon), and the note that
// exact statistics are left out. `noise` is what ApplyFinalCountNoise
// returned.
nlohmann::json DpPrivacyStatement(const DpTrainingOptions& options,
                                  const PrivacyAccountant& accountant, const PrivacyUnit& unit,
                                  const std::optional<FinalCountNoise>& noise,
                                  const nlohmann::json& training = nullptr);

// The leakage statement of a SECURE run with DP training (`pplda simulate
// --dp-epsilon`, party/lda_party.h DP mode): what the budget covers (the
// published model and each party's view, its own draws included, against a
// coalition of up to t of the n compute parties knowing their own noise
// shares) and what it does not (each party's token count, the vocabulary,
// deviating parties, a larger coalition).
// With `vocabulary_private` the vocabulary was chosen by the secure DP
// vocabulary and is covered too. With `holders_outside_committee` > 0 the
// compute parties are a committee serving that many data holders, which
// add no noise: the coalition may then include any number of them.
std::string SecureDpLeakage(const PrivacyAccountant& accountant, const DpCountOptions& counts,
                            const PrivacyUnit& unit, int compute_parties, int coalition,
                            bool vocabulary_private = false, int holders_outside_committee = 0);

// What the accountant's (epsilon, delta) covers in this pipeline.
inline constexpr char kVocabularyOnlyCoverage[] =
    "the vocabulary (the list of terms) only; NOT the topic-term counts, which are not "
    "differentially private in this run (--dp-epsilon trains them with DP)";
inline constexpr char kCountsOnlyCoverage[] =
    "the topic-term counts given the vocabulary (the noisy iterations of DP training; the "
    "published counts are the last release); NOT the vocabulary, which lists terms of the "
    "documents as chosen by the preprocessing options (--dp-vocab-epsilon makes it DP)";
inline constexpr char kWholeModelCoverage[] =
    "the whole published model: the vocabulary (DP set union) and the topic-term counts (the "
    "noisy iterations of DP training; the published counts are the last release)";

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DP_TRAINING_H_

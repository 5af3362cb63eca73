#include "privacy/dp_training.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"

namespace pplda::privacy {

absl::Status ValidateDpTrainingOptions(const DpTrainingOptions& options) {
  if (options.vocabulary) RETURN_IF_ERROR(ValidateDpVocabularyOptions(*options.vocabulary));
  if (options.final_noise) RETURN_IF_ERROR(ValidateFinalCountNoiseOptions(*options.final_noise));
  return absl::OkStatus();
}

absl::StatusOr<DpTrainingCorpus> PrepareDpTrainingCorpus(const lda::Corpus& corpus,
                                                         const DpTrainingOptions& options,
                                                         crypto::SecureRng& rng,
                                                         PrivacyAccountant* accountant) {
  RETURN_IF_ERROR(ValidateDpTrainingOptions(options));
  DpTrainingCorpus out;
  if (!options.vocabulary) {
    out.corpus = corpus;
    return out;
  }
  ASSIGN_OR_RETURN(DpVocabularySelection selection,
                   SelectDpVocabulary(corpus, *options.vocabulary, rng));
  if (selection.selected.empty()) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "DP vocabulary selection at epsilon %g kept none of the %d candidate terms (a term "
        "needs about %d documents): raise --dp-vocab-epsilon, lower --dp-vocab-max-terms or "
        "use more documents",
        options.vocabulary->epsilon, selection.candidate_terms, selection.threshold));
  }
  // The released order must carry nothing but the set: sort by string.
  std::vector<lda::TermId> terms = selection.selected;
  std::sort(terms.begin(), terms.end(), [&](lda::TermId a, lda::TermId b) {
    return corpus.vocabulary.term(a) < corpus.vocabulary.term(b);
  });
  out.corpus = RestrictToTerms(corpus, terms, &out.dropped_documents);
  out.candidate_terms = selection.candidate_terms;
  accountant->Record(selection.Release());
  return out;
}

absl::StatusOr<std::optional<FinalCountNoise>> ApplyFinalCountNoise(
    const DpTrainingOptions& options, crypto::SecureRng& rng, lda::LdaModel* model) {
  if (!options.final_noise) return std::optional<FinalCountNoise>();
  ASSIGN_OR_RETURN(FinalCountNoise noise, AddFinalCountNoise(*options.final_noise, rng, model));
  return std::optional<FinalCountNoise>(std::move(noise));
}

nlohmann::json DescribeDpOptions(const DpTrainingOptions& options) {
  nlohmann::json out = {{"dp_vocabulary", nullptr}, {"final_count_noise", nullptr}};
  if (options.vocabulary) {
    const DpVocabularyOptions& v = *options.vocabulary;
    out["dp_vocabulary"] = {{"epsilon", v.epsilon},
                            {"delta", v.delta},
                            {"max_terms_per_document", v.max_terms_per_document},
                            {"covers", kVocabularyOnlyCoverage}};
  }
  if (options.final_noise) {
    out["final_count_noise"] = {{"sigma", options.final_noise->sigma},
                                {"guarantee", std::string("none: ") + kFinalCountNoiseDisclaimer}};
  }
  return out;
}

namespace {

std::string LeakageStatement(const DpTrainingOptions& options, const PrivacyAccountant& accountant,
                             const PrivacyUnit& unit) {
  std::string s =
      "Trained in plaintext by one party on its own documents. The model as a whole has NO "
      "differential-privacy guarantee: ";
  if (options.final_noise) {
    s += absl::StrFormat(
        "its topic-term counts are the final Gibbs counts with discrete Gaussian noise of sigma "
        "%g added once, a %s. ",
        options.final_noise->sigma, kFinalCountNoiseDisclaimer);
  } else {
    s += "its topic-term counts are exact (no noise). ";
  }
  if (options.vocabulary) {
    s += absl::StrFormat(
        "The vocabulary was chosen by DP set union: the list of terms, and only it, is "
        "(%g, %g)-DP with one %s as the unit (%s), so a term enters it only when many %ss "
        "use it. ",
        accountant.epsilon(), accountant.delta(), unit.name, unit.description, unit.name);
  } else {
    s += "The vocabulary is NOT private: it lists terms of the training documents as chosen by "
         "the preprocessing options. ";
  }
  s += "Exact statistics of the documents (document and token counts, corpus statistics, the "
       "likelihood trace, evaluation figures) are left out of this file.";
  return s;
}

}  // namespace

nlohmann::json DpPrivacyStatement(const DpTrainingOptions& options,
                                  const PrivacyAccountant& accountant, const PrivacyUnit& unit,
                                  const std::optional<FinalCountNoise>& noise) {
  nlohmann::json dp = nullptr;
  if (!accountant.empty()) {
    dp = accountant.ToJson();
    dp["covers"] = kVocabularyOnlyCoverage;
    dp["privacy_unit"] = PrivacyUnitJson(unit, accountant.epsilon(), accountant.delta());
  }
  return {{"setting", "plaintext"},
          {"leakage", LeakageStatement(options, accountant, unit)},
          {"model_differentially_private", false},
          {"epsilon", nullptr},
          {"delta", nullptr},
          {"differential_privacy", dp},
          {"vocabulary_private", options.vocabulary.has_value()},
          {"final_count_noise", noise ? noise->Describe() : nlohmann::json(nullptr)},
          {"exact_statistics",
           "left out: a DP run's model file holds no document or token count, corpus "
           "statistic, likelihood trace or evaluation figure"}};
}

}  // namespace pplda::privacy

#include "privacy/dp_training.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"

namespace pplda::privacy {

absl::Status ValidateDpTrainingOptions(const DpTrainingOptions& options) {
  if (options.vocabulary) RETURN_IF_ERROR(ValidateDpVocabularyOptions(*options.vocabulary));
  if (options.model) RETURN_IF_ERROR(ValidateDpModelOptions(*options.model));
  return absl::OkStatus();
}

absl::StatusOr<DpTrainingCorpus> PrepareDpTrainingCorpus(const lda::Corpus& corpus,
                                                         const DpTrainingOptions& options,
                                                         crypto::SecureRng& rng,
                                                         PrivacyAccountant* accountant) {
  RETURN_IF_ERROR(ValidateDpTrainingOptions(options));
  DpTrainingCorpus out;
  if (options.model) {
    RETURN_IF_ERROR(CheckDocumentCap(corpus, options.model->max_tokens_per_document));
  }
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
  out.corpus = RestrictToTerms(corpus, selection.selected, &out.dropped_documents);
  accountant->Record(selection.Release());
  return out;
}

absl::Status ReleaseDpModel(const DpTrainingOptions& options, crypto::SecureRng& rng,
                            lda::LdaModel* model, PrivacyAccountant* accountant) {
  if (!options.model) return absl::OkStatus();
  ASSIGN_OR_RETURN(DpModelNoise noise, AddDpNoiseToCounts(*options.model, rng, model));
  accountant->Record(noise.Release());
  return absl::OkStatus();
}

nlohmann::json DescribeDpOptions(const DpTrainingOptions& options) {
  nlohmann::json out = {{"vocabulary", nullptr}, {"model", nullptr}};
  if (options.vocabulary) {
    const DpVocabularyOptions& v = *options.vocabulary;
    out["vocabulary"] = {{"epsilon", v.epsilon},
                         {"delta", v.delta},
                         {"max_terms_per_document", v.max_terms_per_document}};
  }
  if (options.model) {
    const DpModelOptions& m = *options.model;
    out["model"] = {{"epsilon", m.epsilon},
                    {"delta", m.delta},
                    {"max_tokens_per_document", m.max_tokens_per_document}};
  }
  return out;
}

namespace {

std::string LeakageStatement(const DpTrainingOptions& options) {
  std::string s =
      "Trained in plaintext by one party on its own documents. Differential privacy, "
      "document-level adjacency: ";
  if (options.model) {
    s += "the published topic-term counts carry exact discrete Gaussian noise calibrated to "
         "documents capped at L tokens; the bound covers each document's own contribution to "
         "the counts, not the Gibbs chain's dependence on other documents (docs/privacy.md). ";
  } else {
    s += "the topic-term counts are exact (no noise). ";
  }
  if (options.vocabulary) {
    s += "The vocabulary was chosen by DP set union, so a term enters it only when many "
         "documents use it.";
  } else {
    s += "The vocabulary is NOT private: it lists terms of the training documents as chosen "
         "by the preprocessing options.";
  }
  return s;
}

}  // namespace

nlohmann::json DpPrivacyStatement(const DpTrainingOptions& options,
                                  const PrivacyAccountant& accountant) {
  return {{"setting", "plaintext"},
          {"leakage", LeakageStatement(options)},
          {"differential_privacy", accountant.ToJson()},
          {"adjacency", "document (add or remove one document)"},
          {"vocabulary_private", options.vocabulary.has_value()},
          {"epsilon", accountant.epsilon()},
          {"delta", accountant.delta()}};
}

}  // namespace pplda::privacy

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
  if (options.counts) {
    RETURN_IF_ERROR(ValidateDpCountBudget(*options.counts));
    if (options.final_noise) {
      return absl::InvalidArgumentError(
          "--final-noise-sigma cannot be combined with --dp-epsilon: DP training already "
          "noises the counts at every noisy iteration");
    }
    if (options.vocabulary && (options.vocabulary->epsilon >= options.counts->epsilon ||
                               options.vocabulary->delta >= options.counts->delta)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--dp-epsilon %g and --dp-delta %g are the whole run's budget, vocabulary included: "
          "--dp-vocab-epsilon (%g) and --dp-vocab-delta (%g) must be below them",
          options.counts->epsilon, options.counts->delta, options.vocabulary->epsilon,
          options.vocabulary->delta));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<PrivacyAccountant> MakeDpAccountant(const DpTrainingOptions& options) {
  if (!options.counts) return PrivacyAccountant();
  return PrivacyAccountant::WithBudget(options.counts->epsilon, options.counts->delta);
}

absl::StatusOr<DpTrainingCorpus> PrepareDpTrainingCorpus(const lda::Corpus& corpus,
                                                         const DpTrainingOptions& options,
                                                         crypto::SecureRng& rng,
                                                         PrivacyAccountant* accountant) {
  RETURN_IF_ERROR(ValidateDpTrainingOptions(options));
  DpTrainingCorpus out;
  if (!options.vocabulary) {
    out.corpus = options.counts
                     ? CapDocuments(corpus, options.counts->caps, &out.capped_documents)
                     : corpus;
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
  RETURN_IF_ERROR(accountant->Record(selection.Release()));
  out.corpus = RestrictToTerms(corpus, terms, &out.dropped_documents);
  out.candidate_terms = selection.candidate_terms;
  if (options.counts) {
    out.corpus = CapDocuments(out.corpus, options.counts->caps, &out.capped_documents);
  }
  return out;
}

absl::StatusOr<std::optional<FinalCountNoise>> ApplyFinalCountNoise(
    const DpTrainingOptions& options, crypto::SecureRng& rng, lda::LdaModel* model) {
  if (!options.final_noise) return std::optional<FinalCountNoise>();
  ASSIGN_OR_RETURN(FinalCountNoise noise, AddFinalCountNoise(*options.final_noise, rng, model));
  return std::optional<FinalCountNoise>(std::move(noise));
}

nlohmann::json DescribeDpOptions(const DpTrainingOptions& options) {
  nlohmann::json out = {
      {"dp_vocabulary", nullptr}, {"final_count_noise", nullptr}, {"dp_training", nullptr}};
  if (options.counts) {
    const DpCountOptions& c = *options.counts;
    out["dp_training"] = {{"epsilon", c.epsilon},
                          {"delta", c.delta},
                          {"max_tokens_per_document", c.caps.max_tokens},
                          {"max_tokens_per_term", c.caps.max_per_term},
                          {"noisy_iterations", c.noisy_iterations},
                          {"mechanism", kDpCountMechanism}};
    if (c.sample_rate != 1) {  // q = 1 records exactly what it did before sampling existed
      out["dp_training"]["sample_rate"] = c.sample_rate;
      out["dp_training"]["mechanism"] = kSampledDpCountMechanism;
    }
  }
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
  std::string s = "Trained in plaintext by one party on its own documents. ";
  if (options.counts) {
    const std::string budget =
        absl::StrFormat("(%g, %g)-DP", accountant.epsilon(), accountant.delta());
    if (options.counts->sample_rate != 1) {
      s += absl::StrFormat(
          "Its topic-term counts were trained with DP for the whole run: the last of %d noisy "
          "releases of the counts of a Poisson sample of the documents (rate %g, fresh at each "
          "noisy iteration, discrete Gaussian noise, divided by the rate, documents capped at "
          "%d tokens and %d per term, negative noisy counts clamped to 0). ",
          accountant.rdp_releases(), options.counts->sample_rate, options.counts->caps.max_tokens,
          options.counts->caps.max_per_term);
    } else {
      s += absl::StrFormat(
          "Its topic-term counts were trained with DP for the whole run: the last of %d noisy "
          "releases of the counts (discrete Gaussian noise at each noisy iteration, documents "
          "capped at %d tokens and %d per term, negative noisy counts clamped to 0). ",
          accountant.zcdp_releases(), options.counts->caps.max_tokens,
          options.counts->caps.max_per_term);
    }
    if (options.vocabulary) {
      s += absl::StrFormat(
          "With the DP vocabulary (DP set union) the model as a whole is %s with one %s as the "
          "unit (%s); ",
          budget, unit.name, unit.description);
    } else {
      s += absl::StrFormat(
          "The counts are %s given the vocabulary, with one %s as the unit (%s), but the "
          "vocabulary is NOT private: it lists terms of the training documents as chosen by "
          "the preprocessing options, so the model as a whole has NO differential-privacy "
          "guarantee. ",
          budget, unit.name, unit.description);
    }
    s += "Exact statistics of the documents (document and token counts, corpus statistics, "
         "the likelihood trace, evaluation figures) are left out of this file.";
    return s;
  }
  s += "The model as a whole has NO differential-privacy guarantee: ";
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
                                  const std::optional<FinalCountNoise>& noise,
                                  const nlohmann::json& training) {
  nlohmann::json dp = nullptr;
  if (!accountant.empty()) {
    dp = accountant.ToJson();
    dp["covers"] = options.counts ? (options.vocabulary ? kWholeModelCoverage
                                                        : kCountsOnlyCoverage)
                                  : kVocabularyOnlyCoverage;
    dp["privacy_unit"] = PrivacyUnitJson(unit, accountant.epsilon(), accountant.delta());
  }
  const bool model_private =
      options.model_private() && (accountant.zcdp_releases() > 0 || accountant.rdp_releases() > 0);
  return {{"setting", "plaintext"},
          {"leakage", LeakageStatement(options, accountant, unit)},
          {"model_differentially_private", model_private},
          {"epsilon", model_private ? nlohmann::json(accountant.epsilon()) : nlohmann::json()},
          {"delta", model_private ? nlohmann::json(accountant.delta()) : nlohmann::json()},
          {"differential_privacy", dp},
          {"vocabulary_private", options.vocabulary.has_value()},
          {"counts_private", options.counts.has_value()},
          {"dp_training", training},
          {"final_count_noise", noise ? noise->Describe() : nlohmann::json(nullptr)},
          {"exact_statistics",
           "left out: a DP run's model file holds no document or token count, corpus "
           "statistic, likelihood trace or evaluation figure"}};
}

std::string SecureDpLeakage(const PrivacyAccountant& accountant, const DpCountOptions& counts,
                            const PrivacyUnit& unit, int compute_parties, int coalition,
                            bool vocabulary_private, int holders_outside_committee) {
  const std::string adders =
      holders_outside_committee > 0
          ? absl::StrFormat(
                "%d compute parties (the committee; the %d data holders outside it "
                "add no noise)",
                compute_parties, holders_outside_committee)
          : absl::StrFormat("%d compute parties", compute_parties);
  const std::string coalition_text =
      holders_outside_committee > 0
          ? absl::StrFormat("%d compute parties, together with any number of data holders,",
                            coalition)
          : absl::StrFormat("%d compute parties", coalition);
  return absl::StrFormat(
      "Trained by the secure protocol (threshold Paillier and MPC) with DP training: at each of "
      "%d noisy iterations every one of the %s added its own discrete Gaussian "
      "noise share to every topic-term count under encryption (documents capped at %d tokens "
      "and %d per term); the draws use the noisy counts, clamped to 0 on secret shares, and the "
      "published counts are the last noisy release, negative cells set to 0. Covered, (%g, %g)-DP "
      "with one %s as the unit (%s)%s: the published model, and everything "
      "each party sees during the run, the topics of its own tokens included, also for a "
      "coalition of up to %s that pool their views and know their own noise "
      "shares (only the other parties' shares are counted, Kairouz, Liu & Steinke 2021). NOT "
      "covered: each party's total token count (revealed to all by design, exact), %s"
      "parties that deviate from the protocol (e.g. omit their noise), and a coalition of more "
      "than %d compute parties (it can also break the MPC's secrecy). Exact statistics of the "
      "documents (document and token counts, timings, likelihood traces) are left out of this "
      "file.",
      accountant.zcdp_releases(), adders, counts.caps.max_tokens, counts.caps.max_per_term,
      accountant.epsilon(), accountant.delta(), unit.name, unit.description,
      vocabulary_private
          ? ", the vocabulary included (chosen from public candidates by the secure DP set "
            "union, each party's noise shares added under encryption)"
          : ", given the vocabulary",
      coalition_text,
      vocabulary_private ? ""
                         : "the vocabulary (a file or the union of the parties' documents, not "
                           "chosen with DP), ",
      coalition);
}

}  // namespace pplda::privacy

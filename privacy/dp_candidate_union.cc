#include "privacy/dp_candidate_union.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "privacy/discrete_gaussian.h"
#include "privacy/dp_count_training.h"
#include "privacy/dp_vocabulary.h"
#include "privacy/zcdp_calibration.h"

namespace pplda::privacy {
namespace {

// ceil(sqrt(2 n s^2 ln U)), at least 1; the relative 1e-9 keeps
// floating-point error from lowering it.
int64_t DefaultThreshold(const DistributedNoise& noise, int32_t candidates) {
  const double variance = noise.parties * noise.share_variance.get_d();
  const double t = std::sqrt(2 * variance * std::log(std::max<double>(candidates, 2)));
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(t * (1 + 1e-9))));
}

}  // namespace

absl::Status ValidateCandidateUnionOptions(const CandidateUnionOptions& o) {
  RETURN_IF_ERROR(ValidateDpVocabularyOptions(o));
  if (o.parties < 1 || o.parties > 64) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the DP vocabulary needs 1 to 64 compute parties adding noise, got %d", o.parties));
  }
  if (o.coalition < 0 || o.coalition >= o.parties) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the coalition the DP vocabulary's noise must withstand must be in [0, %d], got %d",
        o.parties - 1, o.coalition));
  }
  if (o.holders < 0 || o.holders > 100000) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the DP vocabulary's data holders outside the committee must be in [0, 100000], got %d",
        o.holders));
  }
  if (o.threshold < 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the DP vocabulary threshold must be >= 1 (or 0 for the default), got %d", o.threshold));
  }
  return absl::OkStatus();
}

absl::StatusOr<CandidateUnionPlan> PlanCandidateUnion(const CandidateUnionOptions& options,
                                                      int32_t candidates) {
  RETURN_IF_ERROR(ValidateCandidateUnionOptions(options));
  if (candidates < 1) {
    return absl::InvalidArgumentError("the DP vocabulary's candidate list is empty");
  }
  CandidateUnionPlan plan;
  plan.options = options;
  plan.candidates = candidates;
  // The truncation's delta (at most 1e-10 of delta) comes off first.
  const double truncation = std::min(0x1p-70, 1e-10 * options.delta);
  ASSIGN_OR_RETURN(plan.noise, CalibrateDistributedNoise(
                                   options.max_terms_per_document, options.epsilon,
                                   options.delta - truncation, /*releases=*/1, options.parties,
                                   options.coalition, candidates, options.epsilon, options.delta));
  plan.threshold =
      options.threshold > 0 ? options.threshold : DefaultThreshold(plan.noise, candidates);
  return plan;
}

DpRelease CandidateUnionPlan::TruncationRelease() const {
  DpRelease r = ShareTruncationRelease(noise);
  r.what = "vocabulary noise share truncation";
  return r;
}

DpRelease CandidateUnionPlan::Release() const {
  return DpRelease{
      .what = "vocabulary",
      .mechanism = absl::StrFormat(
          "DP set union over a public list of %d candidate terms: each document contributes "
          "its %d most frequent candidates, every compute party adds an N_Z(0, s^2) share to "
          "every candidate's document count under encryption, candidates with noisy count >= "
          "%d are selected (distributed discrete Gaussian, Kairouz, Liu & Steinke 2021, Prop. "
          "14)",
          candidates, options.max_terms_per_document, threshold),
      .parameters = Describe(),
      .rho = noise.composition.rho_per_release,
      .rdp = std::nullopt};
}

nlohmann::json CandidateUnionPlan::Describe() const {
  nlohmann::json out = {
      {"candidates", candidates},
      {"max_terms_per_document", options.max_terms_per_document},
      {"sensitivity",
       "sqrt(max_terms_per_document): one document changes at most that many "
       "candidate counts by 1"},
      {"threshold", threshold},
      {"threshold_rule", options.threshold > 0
                             ? "given"
                             : "ceil(sqrt(2 n s^2 ln U)): an absent candidate is selected "
                               "with probability at most 1/U"},
      {"rho", noise.composition.rho_per_release},
      {"distributed_noise", DescribeDistributedNoise(noise)}};
  if (options.holders > 0) {
    out["data_holders_outside_committee"] = options.holders;
    out["noise_added_by"] = "the committee's members only (data holders add none)";
  }
  return out;
}

std::vector<int64_t> CandidateHistogram(const lda::Corpus& corpus,
                                        const lda::Vocabulary& candidates,
                                        int max_terms_per_document) {
  std::vector<lda::TermId> to_candidate(corpus.vocabulary.size(), -1);
  for (lda::TermId t = 0; t < corpus.vocabulary.size(); ++t) {
    if (std::optional<lda::TermId> c = candidates.Find(corpus.vocabulary.term(t))) {
      to_candidate[t] = *c;
    }
  }
  std::vector<int64_t> histogram(candidates.size(), 0);
  for (const lda::Document& doc : corpus.documents) {
    lda::Document mapped{doc.name, {}};
    for (lda::TermId t : doc.tokens) {
      if (t >= 0 && t < corpus.vocabulary.size() && to_candidate[t] >= 0) {
        mapped.tokens.push_back(to_candidate[t]);
      }
    }
    for (lda::TermId c : ContributedTerms(mapped, max_terms_per_document)) ++histogram[c];
  }
  return histogram;
}

absl::StatusOr<std::vector<int64_t>> CandidateNoiseShares(const CandidateUnionPlan& plan,
                                                          crypto::SecureRng& rng) {
  ASSIGN_OR_RETURN(DiscreteGaussian share, DiscreteGaussian::Create(plan.noise.share_variance));
  std::vector<int64_t> out(plan.candidates);
  for (int64_t& z : out) z = SampleNoiseShare(share, plan.noise.share_bound, rng);
  return out;
}

absl::StatusOr<std::vector<lda::TermId>> SelectCandidates(const CandidateUnionPlan& plan,
                                                          absl::Span<const int64_t> noisy) {
  if (noisy.size() != static_cast<size_t>(plan.candidates)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "noisy candidate counts: %d values for %d candidates", noisy.size(), plan.candidates));
  }
  std::vector<lda::TermId> selected;
  for (lda::TermId u = 0; u < plan.candidates; ++u) {
    if (noisy[u] >= plan.threshold) selected.push_back(u);
  }
  return selected;
}

}  // namespace pplda::privacy

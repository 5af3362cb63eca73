#include "privacy/dp_vocabulary.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "privacy/discrete_gaussian.h"
#include "privacy/zcdp_calibration.h"

namespace pplda::privacy {
namespace {

// T = 1 + ceil(sigma sqrt(2 ln(2 Delta0 / delta))); the relative 1e-9 keeps
// floating-point error from lowering it.
int64_t SelectionThreshold(double sigma, double delta, int max_terms) {
  const double tail = std::sqrt(2 * std::log(2.0 * max_terms / delta));
  return 1 + static_cast<int64_t>(std::ceil(sigma * tail * (1 + 1e-9)));
}

}  // namespace

absl::Status ValidateDpVocabularyOptions(const DpVocabularyOptions& options) {
  RETURN_IF_ERROR(ValidateEpsilonDelta(options.epsilon, options.delta, "DP vocabulary"));
  if (options.max_terms_per_document < 1 || options.max_terms_per_document > 1'000'000) {
    return absl::InvalidArgumentError(
        absl::StrFormat("DP vocabulary max terms per document must be in [1, 1000000], got %d",
                        options.max_terms_per_document));
  }
  return absl::OkStatus();
}

absl::StatusOr<DpVocabularySelection> SelectDpVocabulary(const lda::Corpus& corpus,
                                                         const DpVocabularyOptions& options,
                                                         crypto::SecureRng& rng) {
  RETURN_IF_ERROR(ValidateDpVocabularyOptions(options));
  RETURN_IF_ERROR(corpus.Validate());
  DpVocabularySelection out;
  out.options = options;
  // delta1 = delta (1 - delta) / 2 for the terms counted in both neighbours
  // (the header's proof: delta1 + delta / (2 - delta) <= delta).
  ASSIGN_OR_RETURN(out.sigma_squared,
                   DiscreteGaussianVariance(std::sqrt(options.max_terms_per_document),
                                            options.epsilon,
                                            options.delta * (1 - options.delta) / 2));
  ASSIGN_OR_RETURN(DiscreteGaussian noise, DiscreteGaussian::Create(out.sigma_squared));
  out.threshold = SelectionThreshold(std::sqrt(out.sigma_squared.get_d()), options.delta,
                                     options.max_terms_per_document);
  std::vector<int64_t> contributions(corpus.vocabulary.size(), 0);
  for (const lda::Document& doc : corpus.documents) {
    for (lda::TermId t : ContributedTerms(doc, options.max_terms_per_document)) {
      ++contributions[t];
    }
  }
  for (lda::TermId t = 0; t < corpus.vocabulary.size(); ++t) {
    if (contributions[t] == 0) continue;
    ++out.candidate_terms;
    if (contributions[t] + noise.Sample(rng) >= out.threshold) out.selected.push_back(t);
  }
  return out;
}

std::vector<lda::TermId> ContributedTerms(const lda::Document& doc, int limit) {
  absl::flat_hash_map<lda::TermId, std::pair<int64_t, int64_t>> seen;  // term -> (count, first)
  for (size_t i = 0; i < doc.tokens.size(); ++i) {
    auto [it, inserted] = seen.try_emplace(doc.tokens[i], 0, static_cast<int64_t>(i));
    ++it->second.first;
  }
  std::vector<std::pair<lda::TermId, std::pair<int64_t, int64_t>>> terms(seen.begin(), seen.end());
  std::sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) {
    if (a.second.first != b.second.first) return a.second.first > b.second.first;
    return a.second.second < b.second.second;
  });
  if (terms.size() > static_cast<size_t>(limit)) terms.resize(limit);
  std::vector<lda::TermId> out;
  out.reserve(terms.size());
  for (const auto& t : terms) out.push_back(t.first);
  return out;
}

DpRelease DpVocabularySelection::Release() const {
  return DpRelease{
      .what = "vocabulary",
      .mechanism = absl::StrFormat(
          "DP set union by Gaussian thresholding: each document contributes its %d most "
          "frequent terms, exact discrete Gaussian noise on document counts, threshold %d",
          options.max_terms_per_document, threshold),
      .epsilon = options.epsilon,
      .delta = options.delta,
      .parameters = {{"max_terms_per_document", options.max_terms_per_document},
                     {"sigma", std::sqrt(sigma_squared.get_d())},
                     {"sigma_squared", sigma_squared.get_str()},
                     {"threshold", threshold},
                     {"selected_terms", static_cast<int64_t>(selected.size())}},
      .rho = std::nullopt,
      .rdp = std::nullopt};
}

lda::Corpus RestrictToTerms(const lda::Corpus& corpus, absl::Span<const lda::TermId> terms,
                            int64_t* dropped_documents) {
  lda::Corpus out;
  std::vector<lda::TermId> new_id(corpus.vocabulary.size(), -1);
  for (lda::TermId t : terms) new_id[t] = out.vocabulary.Add(corpus.vocabulary.term(t));
  int64_t dropped = 0;
  for (const lda::Document& doc : corpus.documents) {
    lda::Document kept{doc.name, {}};
    for (lda::TermId t : doc.tokens) {
      if (new_id[t] >= 0) kept.tokens.push_back(new_id[t]);
    }
    if (kept.tokens.empty()) {
      ++dropped;
      continue;
    }
    out.documents.push_back(std::move(kept));
  }
  if (dropped_documents != nullptr) *dropped_documents = dropped;
  return out;
}

}  // namespace pplda::privacy

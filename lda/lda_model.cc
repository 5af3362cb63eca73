#include "lda/lda_model.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"

namespace pplda::lda {

std::vector<int64_t> LdaModel::topic_totals() const {
  const int32_t v = num_terms();
  std::vector<int64_t> totals(num_topics, 0);
  for (int k = 0; k < num_topics; ++k) {
    for (TermId t = 0; t < v; ++t) totals[k] += count(k, t);
  }
  return totals;
}

double LdaModel::phi(int k, TermId t) const {
  const int32_t v = num_terms();
  int64_t total = 0;
  for (TermId u = 0; u < v; ++u) total += count(k, u);
  return (static_cast<double>(count(k, t)) + beta) /
         (static_cast<double>(total) + v * beta);
}

std::vector<double> LdaModel::PhiMatrix() const {
  const int32_t v = num_terms();
  const std::vector<int64_t> totals = topic_totals();
  std::vector<double> phi_matrix(static_cast<size_t>(num_topics) * v);
  for (int k = 0; k < num_topics; ++k) {
    const double inv = 1.0 / (static_cast<double>(totals[k]) + v * beta);
    for (TermId t = 0; t < v; ++t) {
      phi_matrix[static_cast<size_t>(k) * v + t] =
          (static_cast<double>(count(k, t)) + beta) * inv;
    }
  }
  return phi_matrix;
}

absl::Status LdaModel::Validate() const {
  if (num_topics < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("model: num_topics is ", num_topics, "; it must be >= 1"));
  }
  if (vocabulary.empty()) {
    return absl::InvalidArgumentError("model: the vocabulary is empty");
  }
  for (const auto& [name, value] : {std::pair<const char*, double>{"alpha", alpha},
                                     std::pair<const char*, double>{"beta", beta}}) {
    if (!(value >= kMinPrior && value <= kMaxPrior)) {  // also refuses nan
      return absl::InvalidArgumentError(absl::StrCat("model: ", name, " is ", value,
                                                     "; it must be in [", kMinPrior, ", ",
                                                     kMaxPrior, "]"));
    }
  }
  const size_t expected = static_cast<size_t>(num_topics) * num_terms();
  if (topic_term_counts.size() != expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        "model: topic_term_counts has ", topic_term_counts.size(),
        " entries; expected num_topics x vocabulary size = ", num_topics,
        " x ", num_terms(), " = ", expected));
  }
  const int32_t v = num_terms();
  for (int k = 0; k < num_topics; ++k) {
    const int64_t* row = &topic_term_counts[static_cast<size_t>(k) * v];
    int64_t total = 0;  // <= 2^53 before each addition
    for (TermId t = 0; t < v; ++t) {
      const int64_t c = row[t];
      if (c < 0 || c > kMaxModelCount) {
        return absl::InvalidArgumentError(absl::StrCat(
            "model: topic_term_counts[", k, "][", t, "] (term '", vocabulary.term(t), "') is ", c,
            "; counts must be in [0, 2^53]"));
      }
      total += c;
      if (total > kMaxModelCount) {
        return absl::InvalidArgumentError(
            absl::StrCat("model: the counts of topic ", k, " add up to more than 2^53 (at term '",
                         vocabulary.term(t), "')"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace pplda::lda

#include "lda/lda_model.h"

#include <cmath>

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
  if (!std::isfinite(alpha) || alpha <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("model: alpha is ", alpha, "; it must be finite and > 0"));
  }
  if (!std::isfinite(beta) || beta <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("model: beta is ", beta, "; it must be finite and > 0"));
  }
  const size_t expected = static_cast<size_t>(num_topics) * num_terms();
  if (topic_term_counts.size() != expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        "model: topic_term_counts has ", topic_term_counts.size(),
        " entries; expected num_topics x vocabulary size = ", num_topics,
        " x ", num_terms(), " = ", expected));
  }
  for (size_t i = 0; i < expected; ++i) {
    if (topic_term_counts[i] < 0) {
      const int32_t v = num_terms();
      return absl::InvalidArgumentError(absl::StrCat(
          "model: topic_term_counts[", i / v, "][", i % v, "] (term '",
          vocabulary.term(static_cast<TermId>(i % v)), "') is ",
          topic_term_counts[i], "; counts must be >= 0"));
    }
  }
  return absl::OkStatus();
}

}  // namespace pplda::lda

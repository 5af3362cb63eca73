// Topic-term counts as a dense V x K table whose rows are padded to a
// multiple of kTopicLanes topics (the padding stays 0), so a sampler reads a
// row in whole vectors. For small K, where a term's row is one or two cache
// lines and a vector pass over it costs less than walking a sparse list.
//
// Invariant: row(t)[k] = n_k(t) for k < K, 0 for K <= k < stride().
// Thread-safety: none; the sampler gives each thread its own terms.
#ifndef PPLDA_LDA_PADDED_TOPIC_ROWS_H_
#define PPLDA_LDA_PADDED_TOPIC_ROWS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "lda/log_gamma_table.h"
#include "lda/term_topic_counts.h"

namespace pplda::lda {

inline constexpr int kTopicLanes = 4;  // one SSE2 vector of int32 or float

class PaddedTopicRows {
 public:
  PaddedTopicRows() = default;
  // The rows of `dense`; `frequency` is unused (the lists' constructor
  // signature, so the sampler builds either table the same way).
  PaddedTopicRows(const TermTopicCounts& dense, const std::vector<int32_t>& /*frequency*/)
      : num_topics_(dense.num_topics()),
        stride_((dense.num_topics() + kTopicLanes - 1) / kTopicLanes * kTopicLanes),
        counts_(static_cast<size_t>(dense.num_terms()) * stride_, 0) {
    for (TermId t = 0; t < dense.num_terms(); ++t) {
      const int32_t* from = dense.row(t);
      std::copy(from, from + num_topics_, row(t));
    }
  }

  int stride() const { return stride_; }
  int32_t* row(TermId t) { return &counts_[static_cast<size_t>(t) * stride_]; }
  const int32_t* row(TermId t) const { return &counts_[static_cast<size_t>(t) * stride_]; }

  // Writes the counts into `dense` (same V and K).
  void CopyTo(TermTopicCounts& dense) const {
    for (TermId t = 0; t < dense.num_terms(); ++t) {
      std::copy(row(t), row(t) + num_topics_, dense.mutable_row(t));
    }
    dense.RebuildNonzeroLists(0, dense.num_terms());
  }

  // Writes the counts into by_topic, K x V row-major (zeroed by the caller).
  void CopyByTopic(std::vector<int64_t>& by_topic) const {
    const auto num_terms = static_cast<TermId>(stride_ == 0 ? 0 : counts_.size() / stride_);
    for (TermId t = 0; t < num_terms; ++t) {
      for (int k = 0; k < num_topics_; ++k) {
        by_topic[static_cast<size_t>(k) * num_terms + t] = row(t)[k];
      }
    }
  }

  // sum over non-zero counts c of lgamma(c + beta) - lgamma(beta).
  double SumLogGammaOfCounts(const LogGammaTable& lgamma_beta) const {
    const double lg_beta = lgamma_beta(0);
    double sum = 0;
    for (const int32_t c : counts_) {
      if (c > 0) sum += lgamma_beta(c) - lg_beta;
    }
    return sum;
  }

  bool operator==(const PaddedTopicRows& other) const { return counts_ == other.counts_; }

 private:
  int num_topics_ = 0;
  int stride_ = 0;
  std::vector<int32_t> counts_;  // V x stride_, term-major
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_PADDED_TOPIC_ROWS_H_

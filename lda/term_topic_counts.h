// Topic-term counts n_k(t) for the samplers, stored term-major (row t holds
// n_0(t), ..., n_{K-1}(t) contiguously, the layout a token's sampling step
// reads), with for each term the list of topics whose count is non-zero so
// that sparse samplers (SparseLDA, Yao, Mimno & McCallum, KDD 2009, sec. 3)
// visit only those.
//
// Invariants (while has_nonzero_lists(); a sampler that does not read the
// lists drops them to save their upkeep): for every term t,
// nonzero_topics(t) holds each k with
// count(t, k) > 0 exactly once (in no particular order), and no other topic.
// Counts stay >= 0 and a term's row sums to at most its corpus frequency,
// which bounds the list's capacity: min(K, frequency(t)). (A table filled
// through mutable_row with other counts, such as the batched sampler's
// noisy draw counts, passes K as every term's frequency: capacity K.)
//
// Thread-safety: none; a sampler thread owns its copy (AD-LDA) or all
// threads only read it (batched sampler).
#ifndef PPLDA_LDA_TERM_TOPIC_COUNTS_H_
#define PPLDA_LDA_TERM_TOPIC_COUNTS_H_

#include <cstdint>
#include <span>
#include <vector>

#include "lda/vocabulary.h"

namespace pplda::lda {

class TermTopicCounts {
 public:
  TermTopicCounts() = default;
  // All counts zero. term_frequencies[t] = occurrences of t in the corpus.
  TermTopicCounts(int num_topics, const std::vector<int32_t>& term_frequencies);

  int num_topics() const { return num_topics_; }
  int32_t num_terms() const { return static_cast<int32_t>(list_size_.size()); }

  int32_t count(TermId t, int k) const { return counts_[Index(t, k)]; }
  const int32_t* row(TermId t) const { return &counts_[Index(t, 0)]; }
  bool has_nonzero_lists() const { return has_lists_; }
  // Empty when !has_nonzero_lists() (callers that need the lists must not
  // drop them).
  std::span<const int32_t> nonzero_topics(TermId t) const {
    if (!has_lists_) return {};
    return {&lists_[list_begin_[t]], static_cast<size_t>(list_size_[t])};
  }

  void Increment(TermId t, int k) {
    if (counts_[Index(t, k)]++ == 0 && has_lists_) lists_[list_begin_[t] + list_size_[t]++] = k;
  }
  // Requires count(t, k) > 0.
  void Decrement(TermId t, int k) {
    if (--counts_[Index(t, k)] == 0 && has_lists_) RemoveFromList(t, k);
  }
  // Frees the non-zero lists and stops keeping them (for good).
  void DropNonzeroLists();

  // Direct row access for bulk updates (AD-LDA merges); call
  // RebuildNonzeroLists over the touched terms afterwards.
  int32_t* mutable_row(TermId t) { return &counts_[Index(t, 0)]; }
  // A no-op when !has_nonzero_lists().
  void RebuildNonzeroLists(TermId begin, TermId end);

 private:
  size_t Index(TermId t, int k) const {
    return static_cast<size_t>(t) * static_cast<size_t>(num_topics_) + k;
  }
  void RemoveFromList(TermId t, int k);

  int num_topics_ = 0;
  bool has_lists_ = true;
  std::vector<int32_t> counts_;       // V x K, term-major
  std::vector<int32_t> lists_;        // non-zero topics, term t at list_begin_[t]
  std::vector<int64_t> list_begin_;   // V
  std::vector<int32_t> list_size_;    // V
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_TERM_TOPIC_COUNTS_H_

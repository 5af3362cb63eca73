#include "lda/term_topic_counts.h"

#include <algorithm>

namespace pplda::lda {

TermTopicCounts::TermTopicCounts(int num_topics,
                                 const std::vector<int32_t>& term_frequencies)
    : num_topics_(num_topics),
      counts_(term_frequencies.size() * static_cast<size_t>(num_topics), 0),
      list_begin_(term_frequencies.size(), 0),
      list_size_(term_frequencies.size(), 0) {
  int64_t total = 0;
  for (size_t t = 0; t < term_frequencies.size(); ++t) {
    list_begin_[t] = total;
    total += std::min<int64_t>(num_topics, term_frequencies[t]);
  }
  // One spare slot keeps &lists_[list_begin_[t]] valid for empty lists.
  lists_.assign(static_cast<size_t>(total) + 1, 0);
}

void TermTopicCounts::RemoveFromList(TermId t, int k) {
  int32_t* list = &lists_[list_begin_[t]];
  const int32_t last = --list_size_[t];
  for (int32_t i = 0; i <= last; ++i) {
    if (list[i] == k) {
      list[i] = list[last];
      return;
    }
  }
}

void TermTopicCounts::DropNonzeroLists() {
  has_lists_ = false;
  lists_ = std::vector<int32_t>{0};  // a new vector: the old storage is freed
  std::fill(list_size_.begin(), list_size_.end(), 0);
}

void TermTopicCounts::RebuildNonzeroLists(TermId begin, TermId end) {
  if (!has_lists_) return;
  for (TermId t = begin; t < end; ++t) {
    const int32_t* counts = row(t);
    int32_t* list = &lists_[list_begin_[t]];
    int32_t size = 0;
    for (int k = 0; k < num_topics_; ++k) {
      if (counts[k] > 0) list[size++] = k;
    }
    list_size_[t] = size;
  }
}

}  // namespace pplda::lda

// Each document's non-zero topic counts, kept between visits, so that the
// sparse sampler starts a document from its K_m topics instead of a pass
// over its tokens (a document is visited once per sub-sweep, P times an
// iteration). Internal to the sampler (sparse_gibbs_sampler.h).
//
// Invariant (between visits): document m's list holds exactly its topics k
// with n_m(k) > 0, each once with that count, in the order its last visit
// left them; capacity min(length of m, K).
#ifndef PPLDA_LDA_DOCUMENT_TOPIC_LISTS_H_
#define PPLDA_LDA_DOCUMENT_TOPIC_LISTS_H_

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace pplda::lda {

struct DocumentTopic {
  int32_t topic;
  int32_t count;
};

class DocumentTopicLists {
 public:
  DocumentTopicLists() = default;
  // From each document's assignments (z[m] holds topics in [0, num_topics)).
  DocumentTopicLists(const std::vector<std::span<const int32_t>>& z, int num_topics)
      : begin_(z.size() + 1, 0), size_(z.size(), 0) {
    for (size_t m = 0; m < z.size(); ++m) {
      begin_[m + 1] = begin_[m] + std::min<int64_t>(static_cast<int64_t>(z[m].size()), num_topics);
    }
    entries_.resize(static_cast<size_t>(begin_.back()));
    std::vector<int32_t> counts(num_topics, 0);
    for (size_t m = 0; m < z.size(); ++m) {
      DocumentTopic* list = entries_.data() + begin_[m];
      for (const int32_t k : z[m]) {
        if (counts[k]++ == 0) list[size_[m]++] = {k, 0};
      }
      for (int32_t j = 0; j < size_[m]; ++j) {
        list[j].count = counts[list[j].topic];
        counts[list[j].topic] = 0;
      }
    }
  }

  // Document m's current list.
  std::span<const DocumentTopic> topics(int32_t m) const {
    return {entries_.data() + begin_[m], static_cast<size_t>(size_[m])};
  }
  // Replaces document m's list by `size` entries written through the
  // returned pointer (size <= capacity(m)); set_size after writing.
  DocumentTopic* mutable_topics(int32_t m) { return entries_.data() + begin_[m]; }
  void set_size(int32_t m, int32_t size) { size_[m] = size; }
  int64_t capacity(int32_t m) const { return begin_[m + 1] - begin_[m]; }

 private:
  std::vector<int64_t> begin_;  // D + 1
  std::vector<int32_t> size_;   // D
  std::vector<DocumentTopic> entries_;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_DOCUMENT_TOPIC_LISTS_H_

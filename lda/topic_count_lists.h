// Topic-term counts held as one short list per term: its non-zero topics
// packed with their counts into one integer each, count in the high bits and
// topic in the low ones (MALLET's entries for SparseLDA). The lists are what
// the sparse sampler reads per token: a term's topics and counts sit in one
// or two cache lines, instead of scattered over a K-wide row. Unlike
// MALLET's, the lists are not kept sorted by count: the sampler sums and
// searches a whole list, so order buys nothing, and keeping it cost every
// moved token a run of swaps (about 10% of the sampler's time, measured).
//
// Invariant: term t's list holds exactly its topics k with n_k(t) > 0, each
// once, in an order that depends on the updates made (deterministically: an
// emptied entry takes the list's last one, a new topic is appended); ==
// compares the lists as sets. A list's capacity is min(K, frequency(t)) rounded up to kListLanes;
// the slots after its entries hold the sentinel (count 0, topic K), so a
// reader may take whole groups of kListLanes (padded_entries). Counts stay
// below 2^(bits of Entry - topic bits) (FitsIn checks that before use).
//
// Thread-safety: updates and reads of different terms may run at once (each
// term's head and entries are its own memory); calls on one term may not.
// Construction, CopyTo and == must not overlap with updates.
#ifndef PPLDA_LDA_TOPIC_COUNT_LISTS_H_
#define PPLDA_LDA_TOPIC_COUNT_LISTS_H_

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "lda/log_gamma_table.h"
#include "lda/term_topic_counts.h"

namespace pplda::lda {

inline constexpr int kListLanes = 4;

template <typename Entry>
class TopicCountLists {
 public:
  // Bits the topic field needs for topics 0..K (K is the sentinel's).
  static int TopicBits(int num_topics) {
    return std::max(1, static_cast<int>(std::bit_width(static_cast<uint32_t>(num_topics))));
  }
  // True when every count up to `max_frequency` fits beside the topic.
  static bool FitsIn(int num_topics, int64_t max_frequency) {
    const int count_bits = static_cast<int>(sizeof(Entry) * 8) - TopicBits(num_topics);
    return count_bits >= 63 || max_frequency < (int64_t{1} << count_bits);
  }

  TopicCountLists() = default;
  // The lists of `dense` (V x K); frequency[t] bounds term t's row sum.
  TopicCountLists(const TermTopicCounts& dense, const std::vector<int32_t>& frequency)
      : topic_bits_(TopicBits(dense.num_topics())),
        topic_mask_((Entry{1} << topic_bits_) - 1),
        sentinel_(static_cast<Entry>(dense.num_topics())),
        heads_(frequency.size()) {
    const int k = dense.num_topics();
    LayOutEmptyLists(k, frequency);
    for (size_t t = 0; t < frequency.size(); ++t) {
      const int32_t* row = dense.row(static_cast<TermId>(t));
      Entry* list = entries_.data() + heads_[t].begin;
      uint32_t size = 0;
      for (int topic = 0; topic < k; ++topic) {
        if (row[topic] > 0) list[size++] = Pack(row[topic], topic);
      }
      heads_[t].size = size;
    }
  }

  // The lists of assignments z (per document) of `tokens`, without a dense
  // table: the same lists as from the dense table of the same counts (each
  // in increasing topic order). frequency[t] is term t's occurrences.
  TopicCountLists(int num_topics, const std::vector<int32_t>& frequency,
                  const std::vector<std::vector<TermId>>& tokens,
                  const std::vector<std::vector<int>>& z)
      : topic_bits_(TopicBits(num_topics)),
        topic_mask_((Entry{1} << topic_bits_) - 1),
        sentinel_(static_cast<Entry>(num_topics)),
        heads_(frequency.size()) {
    LayOutEmptyLists(num_topics, frequency);
    std::vector<int64_t> first(frequency.size() + 1, 0);  // term t's occurrences' offset
    for (size_t t = 0; t < frequency.size(); ++t) first[t + 1] = first[t] + frequency[t];
    // Every occurrence's topic, grouped by term (a counting sort).
    std::vector<int32_t> topic_of(static_cast<size_t>(first.back()));
    std::vector<int64_t> cursor(first.begin(), first.end() - 1);
    for (size_t m = 0; m < tokens.size(); ++m) {
      for (size_t i = 0; i < tokens[m].size(); ++i) topic_of[cursor[tokens[m][i]]++] = z[m][i];
    }
    std::vector<int32_t> slot(num_topics, -1);  // topic -> index in the current list
    for (size_t t = 0; t < frequency.size(); ++t) {
      Entry* list = entries_.data() + heads_[t].begin;
      uint32_t size = 0;
      for (int64_t o = first[t]; o < first[t + 1]; ++o) {
        int32_t& s = slot[topic_of[o]];
        if (s < 0) {
          s = static_cast<int32_t>(size++);
          list[s] = Pack(0, topic_of[o]);
        }
        list[s] += Entry{1} << topic_bits_;
      }
      heads_[t].size = size;
      std::sort(list, list + size, [this](Entry a, Entry b) { return topic(a) < topic(b); });
      for (uint32_t j = 0; j < size; ++j) slot[topic(list[j])] = -1;
    }
  }

  std::span<const Entry> entries(TermId t) const {
    return {entries_.data() + heads_[t].begin, static_cast<size_t>(heads_[t].size)};
  }
  // How many topics term t has (its list's length before the padding).
  int32_t size(TermId t) const { return static_cast<int32_t>(heads_[t].size); }
  // Index of topic k in term t's list, or size(t) when n_k(t) = 0.
  int32_t IndexOf(TermId t, int k) const {
    return Find(entries_.data() + heads_[t].begin, size(t), k);
  }
  // The entries followed by sentinels up to a multiple of kListLanes.
  std::span<const Entry> padded_entries(TermId t) const {
    return {entries_.data() + heads_[t].begin, RoundUp(heads_[t].size)};
  }
  // For prefetching: where term t's list head and entries are.
  const void* head_address(TermId t) const { return &heads_[t]; }
  const Entry* list_address(TermId t) const { return entries_.data() + heads_[t].begin; }
  int topic_bits() const { return topic_bits_; }
  Entry topic_mask() const { return topic_mask_; }
  int topic(Entry e) const { return static_cast<int>(e & topic_mask_); }
  int64_t count(Entry e) const { return static_cast<int64_t>(e >> topic_bits_); }

  void Increment(TermId t, int k) {
    Entry* list = entries_.data() + heads_[t].begin;
    const int32_t n = static_cast<int32_t>(heads_[t].size);
    int32_t i = Find(list, n, k);
    if (i == n) {
      list[n] = Pack(0, k);
      ++heads_[t].size;
    }
    list[i] += Entry{1} << topic_bits_;
  }
  // Requires n_k(t) > 0.
  void Decrement(TermId t, int k) {
    Entry* list = entries_.data() + heads_[t].begin;
    const int32_t i = Find(list, static_cast<int32_t>(heads_[t].size), k);
    list[i] -= Entry{1} << topic_bits_;
    if ((list[i] >> topic_bits_) == 0) RemoveEmpty(t, list, i);
  }

  // Moves one token of term t from the topic at list index `from` (count >
  // 0) to topic `to` (another topic), found at list index `to_index`, or by
  // a scan when to_index is -1: Decrement and Increment without scanning
  // for what the caller already knows.
  void Transfer(TermId t, int32_t from, int to, int32_t to_index) {
    Entry* list = entries_.data() + heads_[t].begin;
    int32_t n = static_cast<int32_t>(heads_[t].size);
    list[from] -= Entry{1} << topic_bits_;
    if ((list[from] >> topic_bits_) == 0) {
      RemoveEmpty(t, list, from);
      if (to_index == --n) to_index = from;  // the last entry moved there
    }
    if (to_index < 0) to_index = Find(list, n, to);
    if (to_index == n) {
      list[n] = Pack(0, to);
      heads_[t].size = static_cast<uint32_t>(n + 1);
    }
    list[to_index] += Entry{1} << topic_bits_;
  }

  // sum over non-zero counts c of lgamma(c + beta) - lgamma(beta), beta =
  // lgamma_beta.offset().
  double SumLogGammaOfCounts(const LogGammaTable& lgamma_beta) const {
    const double lg_beta = lgamma_beta(0);
    double sum = 0;
    for (size_t t = 0; t < heads_.size(); ++t) {
      for (const Entry e : entries(static_cast<TermId>(t))) sum += lgamma_beta(count(e)) - lg_beta;
    }
    return sum;
  }

  // Writes the counts into `dense` (same V and K; other cells zeroed).
  void CopyTo(TermTopicCounts& dense) const {
    for (size_t t = 0; t < heads_.size(); ++t) {
      int32_t* row = dense.mutable_row(static_cast<TermId>(t));
      std::fill(row, row + dense.num_topics(), 0);
      for (const Entry e : entries(static_cast<TermId>(t))) {
        row[topic(e)] = static_cast<int32_t>(count(e));
      }
    }
    dense.RebuildNonzeroLists(0, static_cast<TermId>(heads_.size()));
  }

  // Writes the counts into by_topic, K x V row-major (zeroed by the caller):
  // only the non-zero entries are touched.
  void CopyByTopic(std::vector<int64_t>& by_topic) const {
    const size_t v = heads_.size();
    for (size_t t = 0; t < v; ++t) {
      for (const Entry e : entries(static_cast<TermId>(t))) {
        by_topic[static_cast<size_t>(topic(e)) * v + t] = count(e);
      }
    }
  }

  // Equal counts, whatever the order of each list.
  bool operator==(const TopicCountLists& other) const {
    if (heads_.size() != other.heads_.size()) return false;
    std::vector<Entry> a, b;
    for (size_t t = 0; t < heads_.size(); ++t) {
      const auto x = entries(static_cast<TermId>(t));
      const auto y = other.entries(static_cast<TermId>(t));
      a.assign(x.begin(), x.end());
      b.assign(y.begin(), y.end());
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      if (a != b) return false;
    }
    return true;
  }

 private:
  // Every list empty (all sentinels) at its place: term t's capacity is
  // min(K, frequency[t]) rounded up to kListLanes.
  void LayOutEmptyLists(int num_topics, const std::vector<int32_t>& frequency) {
    uint64_t next = 0;  // < tokens + 3 V < 2^40 (GibbsState: tokens < 2^31)
    for (size_t t = 0; t < frequency.size(); ++t) {
      heads_[t].begin = next;
      next += RoundUp(std::min<int64_t>(num_topics, frequency[t]));
    }
    entries_.assign(next, sentinel_);
  }

  static size_t RoundUp(int64_t n) {
    return static_cast<size_t>((n + kListLanes - 1) / kListLanes * kListLanes);
  }
  Entry Pack(int64_t count, int topic) const {
    return (static_cast<Entry>(count) << topic_bits_) | static_cast<Entry>(topic);
  }
  // Drops entry i of term t's list (its count reached 0): the last entry
  // takes its place and a sentinel the last's.
  void RemoveEmpty(TermId t, Entry* list, int32_t i) {
    const int32_t last = static_cast<int32_t>(--heads_[t].size);
    list[i] = list[last];
    list[last] = sentinel_;
  }
  // Index of topic k in the list, or n when absent.
  int32_t Find(const Entry* list, int32_t n, int k) const {
    int32_t i = 0;
    while (i < n && static_cast<int>(list[i] & topic_mask_) != k) ++i;
    return i;
  }

  // Where term t's list starts in entries_ and how many topics it holds;
  // one 8-byte head per term, so a token's lookup touches one line for it.
  struct Head {
    uint64_t begin : 40 = 0;
    uint64_t size : 24 = 0;  // <= K <= 65535
  };

  int topic_bits_ = 1;
  Entry topic_mask_ = 1;
  Entry sentinel_ = 0;
  std::vector<Entry> entries_;
  std::vector<Head> heads_;  // V
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_TOPIC_COUNT_LISTS_H_

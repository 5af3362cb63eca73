#include "lda/sparse_gibbs_sampler.h"

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "lda/document_blocks.h"
#include "lda/padded_topic_rows.h"
#include "lda/random.h"
#include "lda/sorted_topic_counts.h"

namespace pplda::lda {

// Runs the sweeps; EngineOf<Entry> below for 32- and 64-bit packed entries.
class SparseGibbsSampler::Engine {
 public:
  virtual ~Engine() = default;
  virtual void RunIteration(GibbsState& state, ThreadPool* pool) = 0;
  // state's assignments, topic-term table and totals from the engine's.
  virtual void WriteState(GibbsState& state) const = 0;
  // Internal error unless the lists and totals hold the counts of state's z.
  virtual absl::Status CheckLists(const GibbsState& state) const = 0;
};

namespace {

// Per-thread state of a sweep: random stream, a copy of the topic totals
// (merged after every sub-sweep) and scratch sized K.
struct Worker {
  int32_t doc_begin = 0, doc_end = 0;  // this thread's document block
  Rng rng{0};
  std::vector<int64_t> totals;        // n_k as this thread sees it
  std::vector<double> denom_inv;      // 1 / (n_k + V beta)
  std::vector<double> denom_inv_less; // 1 / (n_k - 1 + V beta), 0 when n_k = 0
  std::vector<double> coef;           // (n_m(k) + alpha) / (n_k + V beta)
  std::vector<double> q_weight;       // running sums of the term bucket
  std::vector<float> doc_weight;      // dense rows: (n_m(k) + alpha) / (n_k + V beta), padded
  std::vector<float> cumulative;      // dense rows: running sums of one token's weights
  std::vector<int32_t> doc_counts;    // n_m(k) of the current document (else 0)
  std::vector<int32_t> doc_topics;    // topics with n_m(k) > 0
  std::vector<int32_t> doc_pos;       // k -> index in doc_topics, or -1
};

// How many tokens ahead a sweep prefetches a term's list head and entries.
constexpr size_t kHeadPrefetch = 8;
constexpr size_t kListPrefetch = 3;

// One SparseLDA sweep (bucket notation of collapsed_gibbs_sampler.h) of some
// tokens of a worker's documents against the shared lists and the worker's
// totals.
template <typename Entry>
class SortedListSweep {
 public:
  SortedListSweep(SortedTopicCounts<Entry>& counts, Worker& w, int num_terms, double alpha,
                  double beta)
      : counts_(counts), w_(w), k_(static_cast<int>(w.totals.size())), alpha_(alpha),
        beta_(beta), v_beta_(num_terms * beta), alpha_beta_(alpha * beta) {
    for (int k = 0; k < k_; ++k) {
      w_.denom_inv[k] = 1.0 / (static_cast<double>(w_.totals[k]) + v_beta_);
      w_.denom_inv_less[k] = InverseLess(w_.totals[k]);
      w_.coef[k] = alpha_ * w_.denom_inv[k];
      s_ += alpha_beta_ * w_.denom_inv[k];
    }
  }

  // Resamples tokens [first, last) of a document whose assignments are
  // doc_z (all its tokens; [first, last) is a part of it), terms `terms`.
  void Document(std::span<const TermId> terms, std::span<int32_t> doc_z, size_t first,
                size_t last) {
    int32_t* ndk = w_.doc_counts.data();
    BeginDocument(doc_z, ndk);
    for (size_t i = first; i < last; ++i) {
      const TermId t = terms[i];
      // Heads far ahead, entries nearer (their head is in cache by then).
      if (i + kHeadPrefetch < last) __builtin_prefetch(counts_.head_address(terms[i + kHeadPrefetch]));
      if (i + kListPrefetch < last) __builtin_prefetch(counts_.list_address(terms[i + kListPrefetch]));
      const int old_k = doc_z[i];
      // The token leaves topic old_k in the document, the totals and the
      // buckets; in its term's list only if it moves (Sample discounts it).
      const Removal removal = Remove(old_k, ndk);
      const Draw draw = Sample(t, old_k, ndk);
      const int k = draw.topic;
      if (k == old_k) {
        Restore(old_k, removal, ndk);
        continue;
      }
      FinishRemoval(old_k, ndk);
      Add(k, ndk);
      counts_.Transfer(t, draw.own_index, k, draw.index);
      doc_z[i] = k;
    }
    EndDocument(ndk);
  }

 private:
  // The document's counts, in the worker's K-wide scratch (cache-resident,
  // unlike a row of the D x K table), and its topics in order of first
  // appearance (deterministic, O(document length)).
  void BeginDocument(std::span<const int32_t> doc_z, int32_t* ndk) {
    r_ = 0;
    num_doc_topics_ = 0;
    for (const int k : doc_z) {
      if (ndk[k]++ > 0) continue;
      w_.doc_pos[k] = num_doc_topics_;
      w_.doc_topics[num_doc_topics_++] = k;
    }
    for (int j = 0; j < num_doc_topics_; ++j) {
      const int k = w_.doc_topics[j];
      r_ += ndk[k] * beta_ * w_.denom_inv[k];
      w_.coef[k] = (ndk[k] + alpha_) * w_.denom_inv[k];
    }
  }

  void EndDocument(int32_t* ndk) {
    for (int j = 0; j < num_doc_topics_; ++j) {
      const int k = w_.doc_topics[j];
      ndk[k] = 0;
      w_.coef[k] = alpha_ * w_.denom_inv[k];
      w_.doc_pos[k] = -1;
    }
  }

  // What Remove changed, so that a token drawn back into its topic costs no
  // division and leaves the sums exactly as they were.
  struct Removal {
    double s, r, denom_inv, coef;
  };

  // 1 / (n - 1 + V beta) for a topic of n tokens (0 when n = 0: never read).
  double InverseLess(int64_t n) const {
    return n > 0 ? 1.0 / (static_cast<double>(n - 1) + v_beta_) : 0.0;
  }

  // Takes one token out of topic k of the document and the totals. The
  // topic stays on the document's list until FinishRemoval (with weight 0 in
  // the document bucket if its count reached 0).
  Removal Remove(int k, int32_t* ndk) {
    const Removal before{s_, r_, w_.denom_inv[k], w_.coef[k]};
    s_ -= alpha_beta_ * before.denom_inv;
    r_ -= ndk[k] * beta_ * before.denom_inv;
    --ndk[k];
    --w_.totals[k];
    const double inv = w_.denom_inv_less[k];
    w_.denom_inv[k] = inv;
    s_ += alpha_beta_ * inv;
    r_ += ndk[k] * beta_ * inv;
    w_.coef[k] = (ndk[k] + alpha_) * inv;
    return before;
  }

  // Undoes Remove(k) when the token is drawn back into topic k.
  void Restore(int k, const Removal& before, int32_t* ndk) {
    ++ndk[k];
    ++w_.totals[k];
    w_.denom_inv[k] = before.denom_inv;
    w_.coef[k] = before.coef;
    s_ = before.s;
    r_ = before.r;
  }

  // Completes Remove(k) when the token moves to another topic.
  void FinishRemoval(int k, const int32_t* ndk) {
    w_.denom_inv_less[k] = InverseLess(w_.totals[k]);
    if (ndk[k] > 0) return;
    const int32_t pos = w_.doc_pos[k];
    const int32_t last = w_.doc_topics[--num_doc_topics_];
    w_.doc_topics[pos] = last;
    w_.doc_pos[last] = pos;
    w_.doc_pos[k] = -1;
    if (num_doc_topics_ == 0) r_ = 0;
  }

  // Adds one token to topic k of the document and the totals.
  void Add(int k, int32_t* ndk) {
    const double old_inv = w_.denom_inv[k];
    s_ -= alpha_beta_ * old_inv;
    r_ -= ndk[k] * beta_ * old_inv;
    ++ndk[k];
    ++w_.totals[k];
    const double inv = 1.0 / (static_cast<double>(w_.totals[k]) + v_beta_);
    w_.denom_inv_less[k] = old_inv;
    w_.denom_inv[k] = inv;
    s_ += alpha_beta_ * inv;
    r_ += ndk[k] * beta_ * inv;
    w_.coef[k] = (ndk[k] + alpha_) * inv;
    if (ndk[k] == 1) {
      w_.doc_pos[k] = num_doc_topics_;
      w_.doc_topics[num_doc_topics_++] = k;
    }
  }

  // A topic drawn and where it came from: its index in the term's list when
  // drawn from the term bucket (else -1), and the index of the token's own
  // topic there (-1 when absent).
  struct Draw {
    int topic;
    int32_t index;
    int32_t own_index;
  };

  // The weight of list entry e, the token itself (under own_topic) not
  // counted.
  double EntryWeight(Entry e, int own_topic) const {
    const int k = counts_.topic(e);
    const int64_t count = counts_.count(e) - (k == own_topic ? 1 : 0);
    return static_cast<double>(count) * w_.coef[k];
  }

  // A draw from the conditional; the term's list still counts the token
  // under `own_topic`, which is discounted here. The term bucket is summed
  // and searched over whole groups of kListLanes entries (the padding
  // weighs 0: sentinel topic K, coef[K] = 0), and the search counts the
  // running sums at or below the draw instead of stopping at the first one
  // above it: loops whose trip counts change little between tokens, where
  // data-dependent exits would cost a mispredicted branch each.
  Draw Sample(TermId t, int own_topic, const int32_t* ndk) {
    const std::span<const Entry> list = counts_.padded_entries(t);
    const int32_t n = static_cast<int32_t>(list.size());
    double* running = w_.q_weight.data();
    double q = 0;
    int32_t own_index = -1;
    for (int32_t j = 0; j < n; ++j) {
      const int k = counts_.topic(list[j]);
      const int64_t count = counts_.count(list[j]) - (k == own_topic ? 1 : 0);
      q += static_cast<double>(count) * w_.coef[k];
      running[j] = q;
      own_index = k == own_topic ? j : own_index;
    }
    double u = w_.rng.Uniform() * (s_ + r_ + q);
    if (u < q) {
      int32_t index = 0;
      for (int32_t j = 0; j < n; ++j) index += running[j] <= u ? 1 : 0;
      return {counts_.topic(list[index]), index, own_index};
    }
    u -= q;
    if (u < r_ && num_doc_topics_ > 0) {
      for (int i = 0; i + 1 < num_doc_topics_; ++i) {
        const int k = w_.doc_topics[i];
        u -= ndk[k] * beta_ * w_.denom_inv[k];
        if (u < 0) return {k, -1, own_index};
      }
      return {w_.doc_topics[num_doc_topics_ - 1], -1, own_index};
    }
    u = std::max(0.0, u - r_);
    for (int k = 0; k + 1 < k_; ++k) {
      u -= alpha_beta_ * w_.denom_inv[k];
      if (u < 0) return {k, -1, own_index};
    }
    return {k_ - 1, -1, own_index};
  }

  SortedTopicCounts<Entry>& counts_;
  Worker& w_;
  const int k_;
  const double alpha_, beta_, v_beta_, alpha_beta_;
  double s_ = 0;  // sum_k s_k
  double r_ = 0;  // sum_k r_k for the current document
  int32_t num_doc_topics_ = 0;
};


// Up to this K the sampler reads dense padded rows in vectors
// (DenseRowSweep); above it, sorted sparse lists (SortedListSweep).
constexpr int kDenseRowsMaxTopics = 32;

using FloatLanes = float __attribute__((vector_size(4 * kTopicLanes)));
using IntLanes = int32_t __attribute__((vector_size(4 * kTopicLanes)));
static_assert(kTopicLanes == 4, "the prefix sums below are written for 4 lanes");

// The exact conditional drawn from a term's whole dense row: weights
// (n_k(t) + beta) (n_m(k) + alpha) / (n_k + V beta) for every k, four topics
// per vector, running sums in the vector, and the topic found by counting
// the running sums below the uniform draw (no data-dependent branch).
// Weights are single precision: a topic's probability is off by at most
// about K 2^-24 of itself.
class DenseRowSweep {
 public:
  DenseRowSweep(PaddedTopicRows& rows, Worker& w, int num_terms, double alpha, double beta)
      : rows_(rows), w_(w), k_(static_cast<int>(w.totals.size())), stride_(rows.stride()),
        alpha_(alpha), beta_(static_cast<float>(beta)), v_beta_(num_terms * beta) {
    for (int k = 0; k < k_; ++k) {
      w_.denom_inv[k] = 1.0 / (static_cast<double>(w_.totals[k]) + v_beta_);
      w_.denom_inv_less[k] = InverseLess(w_.totals[k]);
    }
  }

  void Document(std::span<const TermId> terms, std::span<int32_t> doc_z, size_t first,
                size_t last) {
    int32_t* ndk = w_.doc_counts.data();
    float* weight = w_.doc_weight.data();
    for (const int k : doc_z) ++ndk[k];
    for (int k = 0; k < k_; ++k) weight[k] = DocWeight(ndk[k], w_.denom_inv[k]);
    for (size_t i = first; i < last; ++i) {
      const TermId t = terms[i];
      if (i + kListPrefetch < last) __builtin_prefetch(rows_.row(terms[i + kListPrefetch]));
      int32_t* row = rows_.row(t);
      const int old_k = doc_z[i];
      // Take the token out; a draw back into old_k puts back what was saved.
      const float saved_weight = weight[old_k];
      const double saved_inv = w_.denom_inv[old_k];
      --row[old_k];
      --ndk[old_k];
      --w_.totals[old_k];
      w_.denom_inv[old_k] = w_.denom_inv_less[old_k];
      weight[old_k] = DocWeight(ndk[old_k], w_.denom_inv[old_k]);
      const int k = Draw(row, weight);
      if (k == old_k) {
        ++row[old_k];
        ++ndk[old_k];
        ++w_.totals[old_k];
        w_.denom_inv[old_k] = saved_inv;
        weight[old_k] = saved_weight;
        continue;
      }
      w_.denom_inv_less[old_k] = InverseLess(w_.totals[old_k]);
      ++row[k];
      ++ndk[k];
      ++w_.totals[k];
      w_.denom_inv_less[k] = w_.denom_inv[k];
      w_.denom_inv[k] = 1.0 / (static_cast<double>(w_.totals[k]) + v_beta_);
      weight[k] = DocWeight(ndk[k], w_.denom_inv[k]);
      doc_z[i] = k;
    }
    for (const int k : doc_z) ndk[k] = 0;
  }

 private:
  float DocWeight(int32_t n, double inv) const {
    return static_cast<float>((n + alpha_) * inv);
  }
  double InverseLess(int64_t n) const {
    return n > 0 ? 1.0 / (static_cast<double>(n - 1) + v_beta_) : 0.0;
  }

  int Draw(const int32_t* row, const float* weight) {
    const FloatLanes zero = {0, 0, 0, 0};
    FloatLanes carry = zero;
    float* cumulative = w_.cumulative.data();
    for (int v = 0; v < stride_; v += kTopicLanes) {
      IntLanes counts;
      FloatLanes doc;
      std::memcpy(&counts, row + v, sizeof counts);
      std::memcpy(&doc, weight + v, sizeof doc);
      FloatLanes x = (__builtin_convertvector(counts, FloatLanes) + beta_) * doc;
      x += __builtin_shufflevector(x, zero, 4, 0, 1, 2);
      x += __builtin_shufflevector(x, zero, 4, 4, 0, 1);
      x += carry;
      std::memcpy(cumulative + v, &x, sizeof x);
      carry = __builtin_shufflevector(x, x, 3, 3, 3, 3);
    }
    const float u = static_cast<float>(w_.rng.Uniform()) * carry[0];
    const FloatLanes threshold = {u, u, u, u};
    IntLanes below = {0, 0, 0, 0};
    for (int v = 0; v < stride_; v += kTopicLanes) {
      FloatLanes x;
      std::memcpy(&x, cumulative + v, sizeof x);
      below += (x <= threshold);  // -1 per lane below the draw
    }
    const int index = -(below[0] + below[1] + below[2] + below[3]);
    return std::min(index, k_ - 1);
  }

  PaddedTopicRows& rows_;
  Worker& w_;
  const int k_, stride_;
  const double alpha_;
  const float beta_;
  const double v_beta_;
};

// parts + 1 boundaries of contiguous term-id ranges with about equal
// occurrence counts.
std::vector<TermId> TermRangeBoundaries(const std::vector<int32_t>& frequency, int parts) {
  int64_t total = 0;
  for (const int32_t f : frequency) total += f;
  std::vector<TermId> bounds{0};
  int64_t seen = 0;
  int p = 1;
  for (size_t t = 0; t < frequency.size(); ++t) {
    seen += frequency[t];
    while (p < parts && seen * parts >= total * p) {
      bounds.push_back(static_cast<TermId>(t + 1));
      ++p;
    }
  }
  while (static_cast<int>(bounds.size()) <= parts) {
    bounds.push_back(static_cast<TermId>(frequency.size()));
  }
  return bounds;
}

template <typename Table, typename SweepOf>
class EngineOf : public SparseGibbsSampler::Engine {
 public:
  EngineOf(const GibbsState& state, const SamplerOptions& options, int parts)
      : alpha_(options.alpha), beta_(options.beta), parts_(parts),
        counts_(state.term_topic, state.TermFrequencies()), totals_(state.topic_totals) {
    const std::vector<int32_t> doc_bounds = DocumentBlockBoundaries(state, parts);
    const std::vector<TermId> term_bounds = TermRangeBoundaries(state.TermFrequencies(), parts);
    const int k = state.num_topics;
    const int padded = (k + kTopicLanes - 1) / kTopicLanes * kTopicLanes;
    for (int p = 0; p < parts; ++p) {
      auto w = std::make_unique<Worker>();
      w->doc_begin = doc_bounds[p];
      w->doc_end = doc_bounds[p + 1];
      w->rng = Rng::ForStream(options.seed, kSparseStreams, p);
      w->denom_inv.assign(k, 0);
      w->denom_inv_less.assign(k, 0);
      w->coef.assign(k + 1, 0);  // coef[K] = 0: the lists' sentinel topic
      w->q_weight.assign(k + kListLanes, 0);
      w->doc_weight.assign(padded, 0);
      w->cumulative.assign(padded, 0);
      w->doc_counts.assign(padded, 0);
      w->doc_topics.assign(k, 0);
      w->doc_pos.assign(k, -1);
      workers_.push_back(std::move(w));
    }
    // Every document's tokens regrouped by term range (stable within one).
    const int32_t d = state.num_documents();
    segment_.assign(static_cast<size_t>(d) * (parts + 1), 0);
    terms_.reserve(state.num_tokens);
    z_.reserve(state.num_tokens);
    position_.reserve(state.num_tokens);
    for (int32_t m = 0; m < d; ++m) {
      for (int g = 0; g < parts; ++g) {
        segment_[static_cast<size_t>(m) * (parts + 1) + g] = static_cast<int64_t>(terms_.size());
        for (size_t i = 0; i < state.tokens[m].size(); ++i) {
          const TermId t = state.tokens[m][i];
          if (t < term_bounds[g] || t >= term_bounds[g + 1]) continue;
          terms_.push_back(t);
          z_.push_back(state.z[m][i]);
          position_.push_back(static_cast<int32_t>(i));
        }
      }
      segment_[static_cast<size_t>(m) * (parts + 1) + parts] = static_cast<int64_t>(terms_.size());
    }
  }

  // parts sub-sweeps; in sub-sweep s worker p resamples its documents'
  // tokens of term range (p + s) mod parts, so no two workers touch one
  // term's list at once; the totals are merged after each sub-sweep.
  void RunIteration(GibbsState& state, ThreadPool* pool) override {
    for (int s = 0; s < parts_; ++s) {
      for (auto& w : workers_) w->totals = totals_;
      if (parts_ == 1) {
        Sweep(*workers_[0], 0, state);
      } else {
        pool->ParallelForChunks(parts_, parts_, [&](size_t begin, size_t end, int) {
          for (size_t p = begin; p < end; ++p) {
            Sweep(*workers_[p], static_cast<int>((p + s) % parts_), state);
          }
        });
      }
      const std::vector<int64_t> start = totals_;
      for (const auto& w : workers_) {
        for (size_t k = 0; k < totals_.size(); ++k) totals_[k] += w->totals[k] - start[k];
      }
    }
  }

  void WriteState(GibbsState& state) const override {
    counts_.CopyTo(state.term_topic);
    state.topic_totals = totals_;
    std::fill(state.doc_topic.begin(), state.doc_topic.end(), 0);
    for (int32_t m = 0; m < state.num_documents(); ++m) {
      const size_t row = static_cast<size_t>(m) * (parts_ + 1);
      int32_t* doc_row = state.doc_row(m);
      for (int64_t n = segment_[row]; n < segment_[row + parts_]; ++n) {
        state.z[m][position_[n]] = z_[n];
        ++doc_row[z_[n]];
      }
    }
  }

  absl::Status CheckLists(const GibbsState& state) const override {
    if (totals_ != state.topic_totals) {
      return absl::InternalError("topic totals differ from the counts of z");
    }
    const Table expected(state.term_topic, state.TermFrequencies());
    if (!(counts_ == expected)) {
      return absl::InternalError("topic-term lists differ from the counts of z");
    }
    return absl::OkStatus();
  }

 private:
  void Sweep(Worker& w, int group, GibbsState& state) {
    SweepOf sweep(counts_, w, state.num_terms, alpha_, beta_);
    const std::span<const TermId> terms(terms_);
    for (int32_t m = w.doc_begin; m < w.doc_end; ++m) {
      const size_t row = static_cast<size_t>(m) * (parts_ + 1);
      const int64_t begin = segment_[row];
      const std::span<int32_t> doc_z(&z_[begin], segment_[row + parts_] - begin);
      sweep.Document(terms.subspan(begin, doc_z.size()), doc_z, segment_[row + group] - begin,
                     segment_[row + group + 1] - begin);
    }
  }

  const double alpha_, beta_;
  const int parts_;
  Table counts_;  // shared: workers touch disjoint terms
  std::vector<int64_t> totals_;      // n_k between sub-sweeps
  std::vector<std::unique_ptr<Worker>> workers_;
  // Tokens regrouped: document m's tokens of term range g are entries
  // [segment_[m (P+1) + g], segment_[m (P+1) + g + 1]) of terms_ and z_;
  // position_ is each one's index in the document.
  std::vector<int64_t> segment_;
  std::vector<TermId> terms_;
  std::vector<int32_t> z_;
  std::vector<int32_t> position_;
};

}  // namespace

SparseGibbsSampler::SparseGibbsSampler(const Corpus& corpus, const SamplerOptions& options,
                                       GibbsState state)
    : LdaSampler(corpus, options, std::move(state)) {
  const int parts = std::max(1, std::min(num_threads_, state_.num_documents()));
  const std::vector<int32_t> frequency = state_.TermFrequencies();
  const int64_t max_frequency =
      frequency.empty() ? 0 : *std::max_element(frequency.begin(), frequency.end());
  if (state_.num_topics <= kDenseRowsMaxTopics) {
    engine_ = std::make_unique<EngineOf<PaddedTopicRows, DenseRowSweep>>(state_, options_, parts);
  } else if (SortedTopicCounts<uint32_t>::FitsIn(state_.num_topics, max_frequency)) {
    engine_ = std::make_unique<
        EngineOf<SortedTopicCounts<uint32_t>, SortedListSweep<uint32_t>>>(state_, options_, parts);
  } else {
    engine_ = std::make_unique<
        EngineOf<SortedTopicCounts<uint64_t>, SortedListSweep<uint64_t>>>(state_, options_, parts);
  }
}

SparseGibbsSampler::~SparseGibbsSampler() = default;

absl::StatusOr<std::unique_ptr<SparseGibbsSampler>> SparseGibbsSampler::Create(
    const Corpus& corpus, const SamplerOptions& options) {
  ASSIGN_OR_RETURN(GibbsState state, InitialState(corpus, options, nullptr));
  return std::unique_ptr<SparseGibbsSampler>(
      new SparseGibbsSampler(corpus, options, std::move(state)));
}

absl::StatusOr<std::unique_ptr<SparseGibbsSampler>> SparseGibbsSampler::Create(
    const Corpus& corpus, const SamplerOptions& options,
    std::vector<std::vector<int>> initial_topics) {
  ASSIGN_OR_RETURN(GibbsState state, InitialState(corpus, options, &initial_topics));
  return std::unique_ptr<SparseGibbsSampler>(
      new SparseGibbsSampler(corpus, options, std::move(state)));
}

std::string_view SparseGibbsSampler::parallel_scheme() const {
  return num_threads_ == 1 || state_.num_documents() == 1
             ? "sequential"
             : "rotating term ranges (P document blocks x P term ranges in P sub-sweeps, one "
               "shared topic-term table, topic totals merged after each sub-sweep)";
}

void SparseGibbsSampler::RunIteration() {
  engine_->RunIteration(state_, pool_.get());
  state_current_ = false;
  ++iterations_done_;
}

void SparseGibbsSampler::SyncState() const {
  if (state_current_) return;
  engine_->WriteState(state_);
  state_current_ = true;
}

absl::Status SparseGibbsSampler::CheckConsistency() const {
  SyncState();
  RETURN_IF_ERROR(state_.CheckConsistency());
  return engine_->CheckLists(state_);
}

}  // namespace pplda::lda

#include "lda/sparse_gibbs_sampler.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "lda/dense_row_sweep.h"
#include "lda/document_blocks.h"
#include "lda/document_topic_lists.h"
#include "lda/gibbs_state.h"
#include "lda/log_gamma_table.h"
#include "lda/random.h"
#include "lda/sampler_options.h"
#include "lda/sweep_worker.h"
#include "lda/token_layout.h"
#include "lda/topic_count_lists.h"
#include "lda/topic_list_sweep.h"

namespace pplda::lda {

// Runs the sub-sweeps; EngineOf<Table, Sweep> below, one per layout (and
// packed-entry width for the lists).
class SparseGibbsSampler::Engine {
 public:
  virtual ~Engine() = default;
  virtual void RunIteration(GibbsState& state, ThreadPool* pool) = 0;
  // state's assignments, topic-term table and totals from the engine's.
  virtual void WriteState(GibbsState& state) const = 0;
  // Internal error unless the lists and totals hold the counts of state's z.
  virtual absl::Status CheckLists(const GibbsState& state) const = 0;
  // log p(w, z) (GibbsState's formula) from the engine's own counts.
  virtual double LogLikelihood() const = 0;
  // The topic-term counts, K x V row-major, from the engine's table.
  virtual std::vector<int64_t> TopicTermCountsByTopic() const = 0;
};

namespace {

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

// The engine's table of the counts of state's z (state need not have its
// dense tables): the packed lists straight from the assignments, the
// padded rows through a dense table.
template <typename Table>
Table TableOf(const GibbsState& state) {
  const std::vector<int32_t> frequency = state.TermFrequencies();
  if constexpr (std::is_same_v<Table, PaddedTopicRows>) {
    TermTopicCounts dense(state.num_topics, frequency);
    for (int32_t m = 0; m < state.num_documents(); ++m) {
      for (size_t i = 0; i < state.tokens[m].size(); ++i) {
        dense.Increment(state.tokens[m][i], state.z[m][i]);
      }
    }
    return Table(dense, frequency);
  } else {
    return Table(state.num_topics, frequency, state.tokens, state.z);
  }
}

int64_t MaxOf(const std::vector<int32_t>& values) {
  return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

int64_t MaxDocumentLength(const GibbsState& state) {
  int64_t longest = 0;
  for (const auto& doc : state.tokens) longest = std::max<int64_t>(longest, doc.size());
  return longest;
}

template <typename Table, typename SweepOf>
class EngineOf : public SparseGibbsSampler::Engine {
 public:
  EngineOf(const GibbsState& state, const SamplerOptions& options, int parts)
      : alpha_(options.alpha), beta_(options.beta), num_terms_(state.num_terms),
        parts_(parts), counts_(TableOf<Table>(state)),
        totals_(state.topic_totals), reciprocal_(state.num_terms * options.beta, state.num_tokens),
        lgamma_beta_(options.beta, MaxOf(state.TermFrequencies())),
        lgamma_alpha_(options.alpha, MaxDocumentLength(state)),
        lgamma_k_alpha_(options.num_topics * options.alpha, MaxDocumentLength(state)) {
    const std::vector<std::vector<int32_t>> documents_of = InterleavedDocumentSets(state, parts);
    const std::vector<TermId> term_bounds = TermRangeBoundaries(state.TermFrequencies(), parts);
    const int k = state.num_topics;
    const int padded = (k + kTopicLanes - 1) / kTopicLanes * kTopicLanes;
    for (int p = 0; p < parts; ++p) {
      auto w = std::make_unique<SweepWorker>();
      w->reciprocal = &reciprocal_;
      w->documents = documents_of[p];
      w->rng = Rng::ForStream(options.seed, kSparseStreams, p);
      w->denom_inv.assign(k, 0);
      w->denom_inv_less.assign(k, 0);
      w->coef.assign(k + 1, 0);  // coef[K] = 0: the lists' sentinel topic
      w->q_weight.assign(k + kListLanes + 1, 0);  // [0] stays 0: running[-1]
      w->doc_weight.assign(padded, 0);
      w->cumulative.assign(padded, 0);
      w->doc_counts.assign(padded, 0);
      w->doc_topics.assign(k, 0);
      w->doc_pos.assign(k, -1);
      workers_.push_back(std::move(w));
    }
    // Every document's tokens regrouped by term range, and within one by
    // term, most frequent first (sparse_gibbs_sampler.h).
    TokenLayout layout = TokenLayout::Build(state, term_bounds);
    segment_ = std::move(layout.segment);
    terms_ = std::move(layout.terms);
    z_ = std::move(layout.z);
    position_ = std::move(layout.position);
    const int32_t d = state.num_documents();
    if (!SweepOf::kKeepsDocumentLists) return;
    std::vector<std::span<const int32_t>> doc_z(d);
    for (int32_t m = 0; m < d; ++m) {
      const size_t row = static_cast<size_t>(m) * (parts + 1);
      doc_z[m] = std::span<const int32_t>(z_).subspan(segment_[row], segment_[row + parts] - segment_[row]);
    }
    doc_topics_ = DocumentTopicLists(doc_z, k);
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
    if (!state.has_tables()) {  // allocated here, filled below
      state.doc_topic.assign(static_cast<size_t>(state.num_documents()) * state.num_topics, 0);
      state.term_topic = TermTopicCounts(state.num_topics, state.TermFrequencies());
    }
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

  std::vector<int64_t> TopicTermCountsByTopic() const override {
    std::vector<int64_t> by_topic(totals_.size() * static_cast<size_t>(num_terms_), 0);
    counts_.CopyByTopic(by_topic);
    return by_topic;
  }

  double LogLikelihood() const override {
    const int k = static_cast<int>(totals_.size());
    const double v_beta = num_terms_ * beta_;
    double ll = counts_.SumLogGammaOfCounts(lgamma_beta_);
    const double lg_v_beta = std::lgamma(v_beta);
    for (int topic = 0; topic < k; ++topic) {
      ll += lg_v_beta - std::lgamma(static_cast<double>(totals_[topic]) + v_beta);
    }
    const double lg_alpha = lgamma_alpha_(0), lg_k_alpha = lgamma_k_alpha_(0);
    const int32_t d = static_cast<int32_t>(segment_.size() / (parts_ + 1));
    if (SweepOf::kKeepsDocumentLists) {  // each document's K_m counts, not its tokens
      for (int32_t m = 0; m < d; ++m) {
        const size_t row = static_cast<size_t>(m) * (parts_ + 1);
        ll += lg_k_alpha - lgamma_k_alpha_(segment_[row + parts_] - segment_[row]);
        for (const DocumentTopic& e : doc_topics_.topics(m)) ll += lgamma_alpha_(e.count) - lg_alpha;
      }
      return ll;
    }
    std::vector<int32_t> doc_counts(k, 0);
    std::vector<int32_t> seen;
    for (int32_t m = 0; m < d; ++m) {
      const size_t row = static_cast<size_t>(m) * (parts_ + 1);
      seen.clear();
      for (int64_t n = segment_[row]; n < segment_[row + parts_]; ++n) {
        if (doc_counts[z_[n]]++ == 0) seen.push_back(z_[n]);
      }
      ll += lg_k_alpha - lgamma_k_alpha_(segment_[row + parts_] - segment_[row]);
      for (const int32_t topic : seen) {
        ll += lgamma_alpha_(doc_counts[topic]) - lg_alpha;
        doc_counts[topic] = 0;
      }
    }
    return ll;
  }

  absl::Status CheckLists(const GibbsState& state) const override {
    // Recounted from the assignments, not from what WriteState copied.
    TermTopicCounts recount(state.num_topics, state.TermFrequencies());
    std::vector<int64_t> totals(state.num_topics, 0);
    for (int32_t m = 0; m < state.num_documents(); ++m) {
      for (size_t i = 0; i < state.tokens[m].size(); ++i) {
        recount.Increment(state.tokens[m][i], state.z[m][i]);
        ++totals[state.z[m][i]];
      }
    }
    if (totals_ != totals) return absl::InternalError("topic totals differ from the counts of z");
    if (!(counts_ == Table(recount, state.TermFrequencies()))) {
      return absl::InternalError("topic-term table differs from the counts of z");
    }
    if (!SweepOf::kKeepsDocumentLists) return absl::OkStatus();
    std::vector<int32_t> counts(state.num_topics, 0);
    for (int32_t m = 0; m < state.num_documents(); ++m) {
      for (const int k : state.z[m]) ++counts[k];
      int32_t listed = 0;
      for (const DocumentTopic& e : doc_topics_.topics(m)) {
        if (e.count <= 0 || counts[e.topic] != e.count) {
          return absl::InternalError(absl::StrCat("document ", m, "'s topic list differs from z"));
        }
        counts[e.topic] = 0;
        ++listed;
      }
      if (std::any_of(counts.begin(), counts.end(), [](int32_t c) { return c != 0; }) ||
          static_cast<int64_t>(listed) > doc_topics_.capacity(m)) {
        return absl::InternalError(absl::StrCat("document ", m, "'s topic list misses a topic"));
      }
    }
    return absl::OkStatus();
  }

 private:
  void Sweep(SweepWorker& w, int group, GibbsState& state) {
    SweepOf sweep(counts_, doc_topics_, w, alpha_, beta_);
    const std::span<const TermId> terms(terms_);
    for (const int32_t m : w.documents) {
      const size_t row = static_cast<size_t>(m) * (parts_ + 1);
      if (segment_[row + group] == segment_[row + group + 1]) continue;  // none in this range
      const int64_t begin = segment_[row];
      const std::span<int32_t> doc_z(&z_[begin], segment_[row + parts_] - begin);
      sweep.Document(m, terms.subspan(begin, doc_z.size()), doc_z, segment_[row + group] - begin,
                     segment_[row + group + 1] - begin);
    }
  }

  const double alpha_, beta_;
  const int32_t num_terms_;
  const int parts_;
  Table counts_;  // shared: workers touch disjoint terms
  std::vector<int64_t> totals_;      // n_k between sub-sweeps
  const ReciprocalTable reciprocal_;
  // lgamma(n + beta), lgamma(n + alpha) and lgamma(n + K alpha) of the
  // counts and lengths LogLikelihood meets.
  const LogGammaTable lgamma_beta_, lgamma_alpha_, lgamma_k_alpha_;
  std::vector<std::unique_ptr<SweepWorker>> workers_;
  // Tokens regrouped: document m's tokens of term range g are entries
  // [segment_[m (P+1) + g], segment_[m (P+1) + g + 1]) of terms_ and z_
  // (D x (P + 1) offsets, P at most kMaxSparseThreads); position_ is each
  // one's index in the document.
  std::vector<int64_t> segment_;
  std::vector<TermId> terms_;
  std::vector<int32_t> z_;
  std::vector<int32_t> position_;
  DocumentTopicLists doc_topics_;  // each thread touches its block's
};

}  // namespace

SparseGibbsSampler::SparseGibbsSampler(const Corpus& corpus, const SamplerOptions& options,
                                       GibbsState state, CountLayout layout)
    : LdaSampler(corpus, options, std::move(state)),
      layout_(layout == CountLayout::kAuto ? CountLayout::kTopicLists : layout) {
  const int parts =
      std::max(1, std::min({num_threads_, state_.num_documents(), kMaxSparseThreads}));
  const std::vector<int32_t> frequency = state_.TermFrequencies();
  const int64_t max_frequency =
      frequency.empty() ? 0 : *std::max_element(frequency.begin(), frequency.end());
  if (layout_ == CountLayout::kTopicLists &&
      !TopicCountLists<uint32_t>::FitsIn(state_.num_topics, max_frequency)) {
    layout_ = CountLayout::kWideTopicLists;
  }
  if (layout_ == CountLayout::kDenseRows) {
    engine_ = std::make_unique<EngineOf<PaddedTopicRows, DenseRowSweep>>(state_, options_, parts);
  } else if (layout_ == CountLayout::kTopicLists) {
    engine_ = std::make_unique<
        EngineOf<TopicCountLists<uint32_t>, TopicListSweep<uint32_t>>>(state_, options_, parts);
  } else {
    engine_ = std::make_unique<
        EngineOf<TopicCountLists<uint64_t>, TopicListSweep<uint64_t>>>(state_, options_, parts);
  }
}

SparseGibbsSampler::~SparseGibbsSampler() = default;

SparseGibbsSampler::Start SparseGibbsSampler::StartFor(const Corpus& corpus, int num_topics) {
  if (num_topics >= kSpreadStartMinTopics &&
      static_cast<int64_t>(corpus.vocabulary.size()) >= num_topics) {
    return Start::kTopicsSpreadByTerm;
  }
  if (static_cast<int64_t>(corpus.documents.size()) >= num_topics) {
    return Start::kOneTopicPerDocument;
  }
  return Start::kRandomTopics;
}

absl::StatusOr<std::unique_ptr<SparseGibbsSampler>> SparseGibbsSampler::Create(
    const Corpus& corpus, const SamplerOptions& options, CountLayout layout) {
  RETURN_IF_ERROR(ValidateSamplerOptions(options));  // K >= 1 before the start is drawn
  RETURN_IF_ERROR(corpus.Validate());  // term ids in range: the spread start indexes by them
  switch (StartFor(corpus, options.num_topics)) {
    case Start::kTopicsSpreadByTerm:
      return Create(corpus, options,
                    GibbsState::TopicsSpreadByTerm(corpus, options.num_topics,
                                                   kSpreadStartTopicsPerTerm, options.seed),
                    layout);
    case Start::kOneTopicPerDocument:
      return Create(corpus, options,
                    GibbsState::OneTopicPerDocument(corpus, options.num_topics, options.seed),
                    layout);
    case Start::kRandomTopics:
      break;
  }
  return Create(corpus, options,
                GibbsState::RandomTopics(corpus, options.num_topics, options.seed), layout);
}

absl::StatusOr<std::unique_ptr<SparseGibbsSampler>> SparseGibbsSampler::Create(
    const Corpus& corpus, const SamplerOptions& options,
    std::vector<std::vector<int>> initial_topics, CountLayout layout) {
  RETURN_IF_ERROR(ValidateSamplerOptions(options));
  // The engine keeps its own counts: state_'s tables are built when first
  // asked for (SyncState).
  ASSIGN_OR_RETURN(GibbsState state, GibbsState::CreateWithoutTables(
                                         corpus, options.num_topics, std::move(initial_topics)));
  return std::unique_ptr<SparseGibbsSampler>(
      new SparseGibbsSampler(corpus, options, std::move(state), layout));
}

std::string_view SparseGibbsSampler::parallel_scheme() const {
  return num_threads_ == 1 || state_.num_documents() == 1
             ? "sequential"
             : "rotating term ranges (P document sets x P term ranges in P sub-sweeps, one "
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

double SparseGibbsSampler::LogLikelihood() const { return engine_->LogLikelihood(); }

std::vector<int64_t> SparseGibbsSampler::TopicTermCountsByTopic() const {
  return engine_->TopicTermCountsByTopic();
}

absl::Status SparseGibbsSampler::CheckConsistency() const {
  SyncState();
  RETURN_IF_ERROR(state_.CheckConsistency());
  return engine_->CheckLists(state_);
}

}  // namespace pplda::lda

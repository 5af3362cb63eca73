// The "sparse" sampler: the standard sampler's conditional at 0.4-0.7x its
// time (docs/performance.md; held-out perplexity within about 1% of the
// standard sampler's on 2 threads, which is AD-LDA there). Every token is drawn
// from the standard sampler's conditional,
//   p(z_i = k | rest) ∝ (n_k(t)^-i + beta) (n_m(k)^-i + alpha) / (n_k^-i + V beta),
// against counts laid out for the cache:
//   - packed lists (what kAuto picks; TopicListSweep): each term's non-zero topics
//     and counts packed into one short list (TopicCountLists, MALLET's
//     entries, not kept sorted), drawn through SparseLDA's
//     buckets (collapsed_gibbs_sampler.h), so a token costs O(topics of its
//     term) and touches one or two cache lines of the table;
//   - dense rows (only when asked for; DenseRowSweep): the whole padded row
//     of the term, four topics per vector, no data-dependent branch;
//     weights and running sums in single precision, so a topic's
//     probability is off by at most about K 2^-24 of the total weight.
//     It was the choice for K <= 32 and short documents until the lists
//     kept documents' counts between visits and summed long lists by AVX2;
//     since then lists measured as fast or faster at every K tried (2-32,
//     SOTU's 35-token windows; docs/measurements.md).
//
// Threads: P threads, P document sets (about equal tokens, 4 interleaved
// runs of consecutive documents each, so each set samples the corpus:
// contiguous blocks of Brown, ordered by genre, differed by 5% in cost;
// InterleavedDocumentSets) and P contiguous term ranges (equal occurrences).
// An iteration is P sub-sweeps; in sub-sweep s thread p resamples its
// set's tokens of term range (p + s) mod P, so no two threads touch one
// term's counts at once and all
// share one table (no per-thread copies, no merge). A document's counts are
// its thread's own. Only the topic totals n_k are per thread during a
// sub-sweep (merged after it): the one approximation, far smaller than
// AD-LDA's stale topic-term counts (the standard sampler's on threads).
// With one thread this is the exact sequential sampler. Deterministic given
// the seed and the thread count. Tokens of a document are visited grouped
// by term range, and within one by term, most frequent term first: the
// next token's list is then about as long as this one's, so the draw's
// loop counts and branches are predicted (-4 to -7% a run against reading
// order at K = 200 and on SOTU K = 20, +1.5% on Brown K = 20;
// docs/measurements.md).
//
// Thread-safety: see LdaSampler.
#ifndef PPLDA_LDA_SPARSE_GIBBS_SAMPLER_H_
#define PPLDA_LDA_SPARSE_GIBBS_SAMPLER_H_

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "lda/lda_sampler.h"

namespace pplda::lda {

// kWideTopicLists: packed lists with 64-bit entries, used when a term's
// count may not fit beside the topic in 32 bits (or asked for, in tests).
enum class CountLayout { kAuto, kDenseRows, kTopicLists, kWideTopicLists };

// The sampler uses at most this many threads (its per-document range
// offsets grow with the thread count; one shared table gains little from
// more).
inline constexpr int kMaxSparseThreads = 64;

class SparseGibbsSampler : public LdaSampler {
 public:
  // Initial topics from options.seed, by StartFor (below); packed lists (or
  // `layout` when not kAuto). InvalidArgument for options out of range
  // (ValidateSamplerOptions) or an invalid or empty corpus.
  static absl::StatusOr<std::unique_ptr<SparseGibbsSampler>> Create(
      const Corpus& corpus, const SamplerOptions& options, CountLayout layout = CountLayout::kAuto);
  // Starts from `initial_topics` (one topic in [0, K) per token).
  static absl::StatusOr<std::unique_ptr<SparseGibbsSampler>> Create(
      const Corpus& corpus, const SamplerOptions& options,
      std::vector<std::vector<int>> initial_topics, CountLayout layout = CountLayout::kAuto);

  // Where the chain starts (docs/lda.md "Start"; each measured on real
  // corpora as good as or better than uniformly random topics, held-out
  // perplexity after 200 iterations):
  //   - kTopicsSpreadByTerm when K >= kSpreadStartMinTopics and the
  //     vocabulary has at least K terms: each term's tokens over
  //     kSpreadStartTopicsPerTerm topics drawn for the term
  //     (GibbsState::TopicsSpreadByTerm). Its term lists start short; from
  //     one topic per document a frequent term's list starts with up to K
  //     topics, and a token costs about the length of its term's list.
  //   - else kOneTopicPerDocument when the corpus has at least K documents
  //     (GibbsState::OneTopicPerDocument; with fewer it would leave topics
  //     empty);
  //   - else kRandomTopics (GibbsState::RandomTopics, the other samplers').
  enum class Start { kRandomTopics, kOneTopicPerDocument, kTopicsSpreadByTerm };
  static Start StartFor(const Corpus& corpus, int num_topics);
  static constexpr int kSpreadStartMinTopics = 200;
  static constexpr int kSpreadStartTopicsPerTerm = 4;

  ~SparseGibbsSampler() override;

  void RunIteration() override;
  std::string_view kind() const override { return "sparse"; }
  // From the shared table, totals and assignments directly (state() is not
  // brought up to date: that costs O(V K + D K) per call).
  double LogLikelihood() const override;
  // kDenseRows, kTopicLists or kWideTopicLists: the layout in use.
  CountLayout layout() const { return layout_; }

  // For tests: Internal error unless the shared table and totals hold the
  // counts of z.
  absl::Status CheckConsistency() const;

  class Engine;  // the sub-sweeps over one table layout (sparse_gibbs_sampler.cc)

 private:
  SparseGibbsSampler(const Corpus& corpus, const SamplerOptions& options, GibbsState state,
                     CountLayout layout);

  std::string_view parallel_scheme() const override;
  void SyncState() const override;
  // From the engine's table (state() is not brought up to date).
  std::vector<int64_t> TopicTermCountsByTopic() const override;

  CountLayout layout_;
  std::unique_ptr<Engine> engine_;
  // state_'s z, tables and totals (false at first: the tables are not built
  // until asked for; GibbsState::CreateWithoutTables).
  mutable bool state_current_ = false;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_SPARSE_GIBBS_SAMPLER_H_

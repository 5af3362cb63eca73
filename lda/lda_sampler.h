// The interface of pplda's collapsed Gibbs samplers for LDA, and the factory
// that picks one by name:
//   "standard"  CollapsedGibbsSampler (lda/collapsed_gibbs_sampler.h):
//               sequential collapsed Gibbs, SparseLDA buckets; AD-LDA when
//               run on more than one thread. The exact reference.
//   "sparse"    SparseGibbsSampler (lda/sparse_gibbs_sampler.h): the same
//               conditional over cache-compact counts (packed lists;
//               dense rows when asked for), threads on rotating term
//               ranges; what "auto" picks.
//   "mh"        MetropolisHastingsSampler (lda/metropolis_hastings_sampler.h):
//               the same posterior reached by O(1) Metropolis-Hastings steps
//               per token (LightLDA/WarpLDA proposals); AD-LDA on threads.
//   "warp"      WarpSampler (lda/warp_sampler.h): WarpLDA's two-phase layout,
//               no V x K or D x K table touched per token; approximate.
//   "batched"   BatchedGibbsSampler (lda/batched_gibbs_sampler.h): every
//               token resampled against the counts at the start of the
//               iteration, its own assignment removed (the secure protocol's
//               plaintext twin, DESIGN.md section 4).
// Samplers do not print; callers drive RunIteration() in a loop.
//
// Every sampler starts from GibbsState::RandomTopics(corpus, K, seed) unless
// given initial topics, so with the same seed they start from the same state;
// except the sparse sampler, which starts each document in one topic
// (GibbsState::OneTopicPerDocument) when there are at least K documents, and
// each term's tokens in a few topics of the term's
// (GibbsState::TopicsSpreadByTerm) from K = 200 on, given at least K terms
// (SparseGibbsSampler::StartFor).
//
// Thread-safety: one caller at a time; RunIteration() uses the sampler's own
// worker threads internally. Samplers copy what they need from the corpus.
#ifndef PPLDA_LDA_LDA_SAMPLER_H_
#define PPLDA_LDA_LDA_SAMPLER_H_

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "base/thread_pool.h"
#include "lda/corpus.h"
#include "lda/gibbs_state.h"
#include "lda/lda_model.h"
#include "lda/sampler_options.h"
#include "nlohmann/json.hpp"

namespace pplda::lda {

class LdaSampler {
 public:
  virtual ~LdaSampler() = default;
  LdaSampler(const LdaSampler&) = delete;
  LdaSampler& operator=(const LdaSampler&) = delete;

  // One sweep: every token of the corpus is resampled once.
  virtual void RunIteration() = 0;
  // "standard", "sparse", "mh", "warp" or "batched".
  virtual std::string_view kind() const = 0;

  int iterations_done() const { return iterations_done_; }
  // log p(w, z), the collapsed joint (GibbsState), for progress and traces.
  // Virtual: a sampler holding its counts in its own layout may compute it
  // there, without bringing state() up to date.
  virtual double LogLikelihood() const;
  // Counts, alpha, beta, vocabulary, and metadata: sampler, iterations,
  // seed, threads, parallel scheme, documents, tokens (and mh_steps for mh).
  LdaModel Model() const;
  // theta_m(k) = (n_m(k) + alpha) / (N_m + K alpha), one row per document.
  std::vector<std::vector<double>> DocumentTopicMixtures() const;
  const std::vector<std::vector<int>>& assignments() const {
    SyncState();
    return state_.z;
  }
  const SamplerOptions& options() const { return options_; }
  // The resolved thread count (options().threads, 0 replaced by the cores).
  int num_threads() const { return num_threads_; }
  const GibbsState& state() const {
    SyncState();
    return state_;
  }

 protected:
  LdaSampler(const Corpus& corpus, const SamplerOptions& options, GibbsState state);
  // Validates options and corpus and builds the initial state: random topics
  // from the seed, or `initial_topics` when given.
  static absl::StatusOr<GibbsState> InitialState(
      const Corpus& corpus, const SamplerOptions& options,
      const std::vector<std::vector<int>>* initial_topics);
  // A sampler S (a friend of LdaSampler's, constructed from corpus, options
  // and state) started from InitialState.
  template <typename S>
  static absl::StatusOr<std::unique_ptr<S>> Make(
      const Corpus& corpus, const SamplerOptions& options,
      const std::vector<std::vector<int>>* initial_topics) {
    absl::StatusOr<GibbsState> state = InitialState(corpus, options, initial_topics);
    if (!state.ok()) return state.status();
    return std::unique_ptr<S>(new S(corpus, options, *std::move(state)));
  }
  // How the sampler uses threads, for the model's metadata.
  virtual std::string_view parallel_scheme() const = 0;
  // A sampler that keeps the assignments in its own layout between
  // iterations brings state_ up to date here (every accessor above calls it
  // first); the others keep state_ current and need not override it.
  virtual void SyncState() const {}
  // Model()'s counts, K x V row-major. Virtual, like LogLikelihood: a
  // sampler holding its counts in its own layout may write them from there.
  virtual std::vector<int64_t> TopicTermCountsByTopic() const;

  SamplerOptions options_;
  int num_threads_;
  Vocabulary vocabulary_;
  mutable GibbsState state_;  // see SyncState()
  int iterations_done_ = 0;
  std::unique_ptr<ThreadPool> pool_;  // null when single-threaded
};

// The sampler named `kind` ("auto", "standard", "sparse", "mh", "warp" or "batched"; "auto" is
// AutoSamplerKind's choice; InvalidArgument naming
// `kind` otherwise), started from random topics drawn from options.seed.
// Errors of the samplers' Create() otherwise.
absl::StatusOr<std::unique_ptr<LdaSampler>> CreateSampler(std::string_view kind,
                                                          const Corpus& corpus,
                                                          const SamplerOptions& options);

// The sampler "auto" stands for: "sparse" (the standard sampler's
// conditional over packed lists, 0.4-0.7x its time; held-out perplexity
// within about 1% of it, docs/performance.md; lda/sparse_gibbs_sampler.h).
std::string_view AutoSamplerKind(const Corpus& corpus, const SamplerOptions& options);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_LDA_SAMPLER_H_

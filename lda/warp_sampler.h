// A cache-friendly Metropolis-Hastings sampler for LDA after WarpLDA (Chen
// et al., "WarpLDA: a cache efficient O(1) algorithm for Latent Dirichlet
// Allocation", VLDB 2016): no V x K or D x K table is touched per token.
// An iteration has two phases over one term-major array of token records
// (topic, one document proposal, W word proposals; 16 bits each):
//   term phase      term by term, with the term's counts n_k(t) built
//                   locally: each token accepts or rejects its document
//                   proposal with min(1, (n_j(t) + beta)(n_k + V beta) /
//                   ((n_k(t) + beta)(n_j + V beta))), then draws W word
//                   proposals (the topic of a uniform occurrence of the
//                   term, or a uniform topic with probability
//                   K beta / (N_t + K beta));
//   document phase  document by document, its records gathered, with
//                   n_m(k) built locally: each token takes its W word
//                   proposals in turn, each accepted with
//                   min(1, (n_m(j) + alpha)(n_k + V beta) /
//                   ((n_m(k) + alpha)(n_j + V beta))), then draws its next
//                   document proposal (the topic of a uniform token of the
//                   document, or uniform with probability K alpha /
//                   (N_m + K alpha)).
// All counts are exact and current within the phase (token taken out); what
// is not exact is that a proposal was drawn in the previous phase, so the
// factor it cancels in the acceptance (the document's counts for a document
// proposal, the term's for a word proposal) is the one of that moment. This
// is WarpLDA's approximation (there, also the local counts stay fixed within
// a term or document); the chain's stationary distribution is therefore
// close to, not exactly, the collapsed posterior: the tests bound the
// difference, and held-out perplexity is compared with the standard
// sampler's (docs/lda.md).
//
// Steps: SamplerOptions::mh_steps = 1 + W (the document proposal and W word
// proposals per token per iteration), in [2, kMaxWarpSteps].
//
// Threads: each phase cuts its terms (documents) into one contiguous block
// per thread of about equal token counts; a block sees its own moves in the
// topic totals n_k and the other blocks' only at the end of the phase
// (AD-LDA's approximation, for the K totals only). Deterministic given the
// seed, the steps and the thread count.
//
// The GibbsState of LdaSampler is rebuilt from the records when an accessor
// needs it (O(tokens + V K + D K)).
//
// Thread-safety: see LdaSampler.
#ifndef PPLDA_LDA_WARP_SAMPLER_H_
#define PPLDA_LDA_WARP_SAMPLER_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lda/lda_sampler.h"
#include "lda/random.h"

namespace pplda::lda {

inline constexpr int kMaxWarpSteps = 8;

class WarpSampler : public LdaSampler {
 public:
  // Random initial topics from options.seed. InvalidArgument for options out
  // of range (ValidateSamplerOptions; mh_steps must also be >= 2 and <=
  // kMaxWarpSteps) or an invalid or empty corpus.
  static absl::StatusOr<std::unique_ptr<WarpSampler>> Create(const Corpus& corpus,
                                                             const SamplerOptions& options);
  // Starts from `initial_topics` (one topic in [0, K) per token).
  static absl::StatusOr<std::unique_ptr<WarpSampler>> Create(
      const Corpus& corpus, const SamplerOptions& options,
      std::vector<std::vector<int>> initial_topics);

  ~WarpSampler() override;

  void RunIteration() override;
  std::string_view kind() const override { return "warp"; }

 private:
  struct Block;  // one thread's range, random stream, totals and scratch
  friend class LdaSampler;  // Make
  WarpSampler(const Corpus& corpus, const SamplerOptions& options, GibbsState state);
  // ValidateSamplerOptions, and mh_steps in [2, kMaxWarpSteps].
  static absl::Status CheckSteps(const SamplerOptions& options);

  std::string_view parallel_scheme() const override;
  void SyncState() const override;
  void TermPhase(Block& block);
  void DocumentPhase(Block& block);
  // totals_ plus every block's own moves in the phase just run.
  void MergeTotals(std::vector<std::unique_ptr<Block>>& blocks);

  int doc_steps_;   // D = 1 (the layout allows more)
  int word_steps_;  // W = mh_steps - D
  int stride_;      // 1 + D + W: a record's 16-bit fields
  // Record n (term-major: term t's occurrences are n in
  // [term_begin_[t], term_begin_[t+1])) is records_[n * stride_ ..]: topic,
  // D document proposals, W word proposals. Token i of document m is record
  // doc_tokens_[doc_begin_[m] + i].
  std::vector<uint16_t> records_;
  std::vector<int64_t> term_begin_;
  std::vector<int64_t> doc_begin_;
  std::vector<int32_t> doc_tokens_;
  std::vector<int64_t> totals_;  // n_k of the records' topics
  std::vector<std::unique_ptr<Block>> term_blocks_, doc_blocks_;
  mutable bool state_current_ = true;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_WARP_SAMPLER_H_

// A collapsed Gibbs sampler for LDA whose cost per token does not grow with
// K: each token's topic moves by Metropolis-Hastings steps (Yuan et al.,
// "LightLDA", WWW 2015, sec. 3; proposals drawn as in Chen et al.,
// "WarpLDA", VLDB 2016, sec. 4) whose stationary distribution is the exact
// collapsed conditional
//   pi(k) ∝ (n_m(k) + alpha) (n_k(t) + beta) / (n_k + V beta)
// (all counts without the token), so the chain targets the same posterior as
// the standard sampler and only mixes differently.
//
// The steps of a token alternate two O(1) proposals, drawn against the
// current counts with the token counted at the chain's current topic s
// (all counts below without the token):
//   document proposal  q(k) ∝ n_m(k) + [k = s] + alpha: the topic of a
//       uniformly drawn token of the document, or a uniform topic;
//       accepted with min(1, (n_t(k) + beta)(n_s + V beta) /
//                            ((n_t(s) + beta)(n_k + V beta)));
//   word proposal      q(k) ∝ n_k(t) + [k = s] + beta: the topic of a
//       uniformly drawn occurrence of the term in the corpus, or a uniform
//       topic; accepted with min(1, (n_m(k) + alpha)(n_s + V beta) /
//                                   ((n_m(s) + alpha)(n_k + V beta))).
// Each step leaves pi invariant (detailed balance), so any number of steps
// does too; SamplerOptions::mh_steps (8 by default, document and word
// proposals alternating) trades time for mixing. The occurrences of each term are kept in a
// term-major array of their current topics (16 bits each), so the word proposal needs no table.
//
// Threads: as the standard sampler (AD-LDA over document blocks, each
// block's counts and occurrence array a copy equal to the global one at the
// start of the iteration, merged by the logs of moved tokens). The result is
// deterministic given the seed, the steps and the thread count.
//
// Thread-safety: see LdaSampler.
#ifndef PPLDA_LDA_METROPOLIS_HASTINGS_SAMPLER_H_
#define PPLDA_LDA_METROPOLIS_HASTINGS_SAMPLER_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lda/lda_sampler.h"

namespace pplda::lda {

class MetropolisHastingsSampler : public LdaSampler {
 public:
  // Random initial topics from options.seed; options.mh_steps steps per
  // token. InvalidArgument for options out of range (ValidateSamplerOptions)
  // or an invalid or empty corpus.
  static absl::StatusOr<std::unique_ptr<MetropolisHastingsSampler>> Create(
      const Corpus& corpus, const SamplerOptions& options);
  // Starts from `initial_topics` (one topic in [0, K) per token).
  static absl::StatusOr<std::unique_ptr<MetropolisHastingsSampler>> Create(
      const Corpus& corpus, const SamplerOptions& options,
      std::vector<std::vector<int>> initial_topics);

  ~MetropolisHastingsSampler() override;

  void RunIteration() override;
  std::string_view kind() const override { return "mh"; }

  // For tests: one token's chain of options().mh_steps steps from topic
  // `from` against the current counts, the token (document m, position i)
  // taken out; nothing is changed. Returns the topic reached; started from
  // a draw of the exact conditional, the result is distributed as it.
  int ResampleForTest(int32_t m, int32_t i, int from);
  // For tests: Internal error unless the occurrence arrays and every block's
  // copies equal the counts of z.
  absl::Status CheckConsistency() const;

 private:
  struct Block;  // one thread's documents, copies and random stream
  friend class LdaSampler;  // Make
  MetropolisHastingsSampler(const Corpus& corpus, const SamplerOptions& options, GibbsState state);

  std::string_view parallel_scheme() const override;
  void SweepBlock(Block& block);

  // Occurrences of term t are term_topics_[term_begin_[t] .. term_begin_[t+1]);
  // token i of document m is occurrence slot_[doc_begin_[m] + i].
  std::vector<int64_t> term_begin_;
  std::vector<int64_t> doc_begin_;
  std::vector<int32_t> slot_;
  std::vector<uint16_t> term_topics_;
  std::vector<std::unique_ptr<Block>> blocks_;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_METROPOLIS_HASTINGS_SAMPLER_H_

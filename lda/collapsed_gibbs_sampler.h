// The standard collapsed Gibbs sampler for LDA (Griffiths & Steyvers, PNAS
// 2004): tokens are visited in order and each is resampled from
//   p(z_i = k | rest) ∝ (n_k(t)^-i + beta) (n_m(k)^-i + alpha) / (n_k^-i + V beta)
// with every count already reflecting the tokens resampled before it.
//
// Speed: the SparseLDA decomposition (Yao, Mimno & McCallum, KDD 2009,
// sec. 3) splits the weight into
//   s_k = alpha beta / (n_k + V beta)                      (smoothing bucket)
//   r_k = n_m(k) beta / (n_k + V beta)                     (document bucket)
//   q_k = n_k(t) (n_m(k) + alpha) / (n_k + V beta)         (term bucket)
// whose sums are kept up to date, so a token costs O(topics of its term +
// topics of its document) instead of O(K). Integer counts, term-major
// topic-term table, xoshiro256++ random numbers (lda/random.h).
//
// Threads: with threads == 1 this is the exact sequential sampler (the
// reference). With P > 1 threads it runs approximate distributed LDA
// (AD-LDA, Newman, Asuncion, Smyth & Welling, JMLR 2009): documents are cut
// into P contiguous blocks of about equal token counts; each thread sweeps
// its block against its own copy of the topic-term counts and topic totals
// (equal to the global counts at the start of the iteration) and logs the
// tokens whose topic changed; after the iteration every copy applies the
// other blocks' logs, so all copies again equal the counts of z. Cost of the
// merge: O(P x tokens that moved), independent of V x K. Document-topic
// counts are exact (a document belongs to one block). AD-LDA is an
// approximation: within an iteration a block does not see the other blocks'
// moves (docs/lda.md gives its measured effect). The result is deterministic
// given the seed and the thread count (block p draws from stream p).
//
// Thread-safety: see LdaSampler.
#ifndef PPLDA_LDA_COLLAPSED_GIBBS_SAMPLER_H_
#define PPLDA_LDA_COLLAPSED_GIBBS_SAMPLER_H_

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "lda/lda_sampler.h"
#include "lda/random.h"

namespace pplda::lda {

class CollapsedGibbsSampler : public LdaSampler {
 public:
  // Random initial topics from options.seed. InvalidArgument for options out
  // of range (ValidateSamplerOptions) or an invalid or empty corpus.
  static absl::StatusOr<std::unique_ptr<CollapsedGibbsSampler>> Create(
      const Corpus& corpus, const SamplerOptions& options);
  // Starts from `initial_topics` (one topic in [0, K) per token);
  // InvalidArgument naming the document and position otherwise.
  static absl::StatusOr<std::unique_ptr<CollapsedGibbsSampler>> Create(
      const Corpus& corpus, const SamplerOptions& options,
      std::vector<std::vector<int>> initial_topics);

  ~CollapsedGibbsSampler() override;

  void RunIteration() override;
  std::string_view kind() const override { return "standard"; }

  // For tests: Internal error unless every AD-LDA block's copy of the
  // topic-term counts and totals equals the global one.
  absl::Status CheckBlockCopies() const;

 private:
  struct Block;  // one thread's documents, counts copy and random stream
  friend class LdaSampler;  // Make
  CollapsedGibbsSampler(const Corpus& corpus, const SamplerOptions& options,
                        GibbsState state);

  std::string_view parallel_scheme() const override;
  void SweepBlock(Block& block);

  std::vector<std::unique_ptr<Block>> blocks_;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_COLLAPSED_GIBBS_SAMPLER_H_

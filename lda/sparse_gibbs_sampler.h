// The "sparse" sampler: the standard sampler's exact collapsed Gibbs
// conditional,
//   p(z_i = k | rest) ∝ (n_k(t)^-i + beta) (n_m(k)^-i + alpha) / (n_k^-i + V beta),
// drawn through the same SparseLDA buckets (collapsed_gibbs_sampler.h), with
// the topic-term counts laid out for the cache: each term's non-zero topics
// and counts packed into one short list sorted by count (SortedTopicCounts,
// MALLET's layout), the next token's list prefetched. A token then touches
// one or two cache lines of the topic-term table instead of a K-wide row at
// the places of its non-zero topics, and the term bucket's draw usually stops
// at the first entries. Same distribution as the standard sampler, not the
// same draws (the buckets list topics in another order).
//
// Threads: AD-LDA as in the standard sampler (document blocks, every block
// sampling against its own copy of the counts, moves merged after each
// iteration); deterministic given the seed and the thread count.
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

class SparseGibbsSampler : public LdaSampler {
 public:
  // Random initial topics from options.seed. InvalidArgument for options out
  // of range (ValidateSamplerOptions) or an invalid or empty corpus.
  static absl::StatusOr<std::unique_ptr<SparseGibbsSampler>> Create(
      const Corpus& corpus, const SamplerOptions& options);
  // Starts from `initial_topics` (one topic in [0, K) per token).
  static absl::StatusOr<std::unique_ptr<SparseGibbsSampler>> Create(
      const Corpus& corpus, const SamplerOptions& options,
      std::vector<std::vector<int>> initial_topics);

  ~SparseGibbsSampler() override;

  void RunIteration() override;
  std::string_view kind() const override { return "sparse"; }

  // For tests: Internal error unless every block's lists and totals hold the
  // counts of z.
  absl::Status CheckConsistency() const;

  class Engine;  // the sweep over one packed-entry width (sparse_gibbs_sampler.cc)

 private:
  SparseGibbsSampler(const Corpus& corpus, const SamplerOptions& options, GibbsState state);

  std::string_view parallel_scheme() const override;
  void SyncState() const override;

  std::unique_ptr<Engine> engine_;
  mutable bool state_current_ = true;  // state_'s topic-term table and totals
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_SPARSE_GIBBS_SAMPLER_H_

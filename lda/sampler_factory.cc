// CreateSampler (declared in lda/lda_sampler.h): the sampler named by kind.
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "lda/batched_gibbs_sampler.h"
#include "lda/collapsed_gibbs_sampler.h"
#include "lda/lda_sampler.h"
#include "lda/metropolis_hastings_sampler.h"
#include "lda/sparse_gibbs_sampler.h"
#include "lda/warp_sampler.h"

namespace pplda::lda {

std::string_view AutoSamplerKind(const Corpus& corpus, const SamplerOptions& options) {
  // SparseLDA's cost per token grows with the topics present in the token's
  // document and term, at most min(K, document length); the warp sampler's
  // does not grow with K. The thresholds are where the warp sampler (8 steps)
  // was measured faster than the standard one with held-out perplexity
  // within 1% (Brown, K = 200; not on SOTU's 35-token windows, nor at K = 20:
  // docs/performance.md, "Plaintext sampler against WarpLDA").
  const double mean_length =
      corpus.documents.empty()
          ? 0.0
          : static_cast<double>(corpus.num_tokens()) / static_cast<double>(corpus.documents.size());
  return options.num_topics >= kAutoWarpMinTopics && mean_length >= kAutoWarpMinDocumentLength
             ? "warp"
             : "standard";
}

absl::StatusOr<std::unique_ptr<LdaSampler>> CreateSampler(std::string_view kind,
                                                          const Corpus& corpus,
                                                          const SamplerOptions& options) {
  if (kind == "auto") kind = AutoSamplerKind(corpus, options);
  if (kind == "standard") {
    ASSIGN_OR_RETURN(std::unique_ptr<CollapsedGibbsSampler> sampler,
                     CollapsedGibbsSampler::Create(corpus, options));
    return std::unique_ptr<LdaSampler>(std::move(sampler));
  }
  if (kind == "sparse") {
    ASSIGN_OR_RETURN(std::unique_ptr<SparseGibbsSampler> sampler,
                     SparseGibbsSampler::Create(corpus, options));
    return std::unique_ptr<LdaSampler>(std::move(sampler));
  }
  if (kind == "batched") {
    ASSIGN_OR_RETURN(std::unique_ptr<BatchedGibbsSampler> sampler,
                     BatchedGibbsSampler::Create(corpus, options));
    return std::unique_ptr<LdaSampler>(std::move(sampler));
  }
  if (kind == "mh") {
    ASSIGN_OR_RETURN(std::unique_ptr<MetropolisHastingsSampler> sampler,
                     MetropolisHastingsSampler::Create(corpus, options));
    return std::unique_ptr<LdaSampler>(std::move(sampler));
  }
  if (kind == "warp") {
    ASSIGN_OR_RETURN(std::unique_ptr<WarpSampler> sampler, WarpSampler::Create(corpus, options));
    return std::unique_ptr<LdaSampler>(std::move(sampler));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown sampler '", std::string(kind),
                   "'; expected 'auto', 'standard', 'sparse', 'mh', 'warp' or 'batched'"));
}

}  // namespace pplda::lda

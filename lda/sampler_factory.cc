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

std::string_view AutoSamplerKind(const Corpus& /*corpus*/, const SamplerOptions& /*options*/) {
  // The sparse sampler draws from the standard sampler's conditional; it was
  // measured 0.42-0.62x the standard sampler's time on 2 threads, held-out
  // perplexity +0.4% to +0.6% of it (13 seeds), where the faster warp
  // sampler was 3-10% above (docs/performance.md, "Plaintext sampler
  // against WarpLDA"; the runs in docs/measurements.md).
  return "sparse";
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

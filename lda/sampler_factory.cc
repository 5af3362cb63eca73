// CreateSampler (declared in lda/lda_sampler.h): the sampler named by kind.
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "lda/batched_gibbs_sampler.h"
#include "lda/collapsed_gibbs_sampler.h"
#include "lda/lda_sampler.h"
#include "lda/metropolis_hastings_sampler.h"
#include "lda/warp_sampler.h"

namespace pplda::lda {

absl::StatusOr<std::unique_ptr<LdaSampler>> CreateSampler(std::string_view kind,
                                                          const Corpus& corpus,
                                                          const SamplerOptions& options) {
  if (kind == "standard") {
    ASSIGN_OR_RETURN(std::unique_ptr<CollapsedGibbsSampler> sampler,
                     CollapsedGibbsSampler::Create(corpus, options));
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
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown sampler '", std::string(kind), "'; expected 'standard', 'mh', 'warp' or 'batched'"));
}

}  // namespace pplda::lda

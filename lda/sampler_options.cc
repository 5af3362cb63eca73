#include "lda/sampler_options.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "absl/strings/str_cat.h"

namespace pplda::lda {

absl::Status ValidateSamplerOptions(const SamplerOptions& options) {
  if (options.num_topics < 1 || options.num_topics > kMaxTopics) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sampler: num_topics is ", options.num_topics, "; it must be in [1, ",
        kMaxTopics, "]"));
  }
  if (!std::isfinite(options.alpha) || options.alpha <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sampler: alpha is ", options.alpha, "; it must be finite and > 0"));
  }
  if (!std::isfinite(options.beta) || options.beta <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sampler: beta is ", options.beta, "; it must be finite and > 0"));
  }
  if (options.threads < 0 || options.threads > kMaxThreads) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sampler: threads is ", options.threads, "; it must be in [0, ",
        kMaxThreads, "] (0 = all cores)"));
  }
  if (options.mh_steps < 1 || options.mh_steps > kMaxMetropolisSteps) {
    return absl::InvalidArgumentError(absl::StrCat("sampler: mh_steps is ", options.mh_steps,
                                                   "; it must be in [1, ", kMaxMetropolisSteps,
                                                   "]"));
  }
  return absl::OkStatus();
}

int ResolveThreadCount(int threads) {
  if (threads > 0) return threads;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace pplda::lda

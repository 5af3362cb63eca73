// Parameters of a Gibbs sampler run (standard or batched).
// Ranges: num_topics in [1, 65535]; alpha, beta finite and > 0; threads in
// [0, 1024], 0 meaning every core (std::thread::hardware_concurrency());
// mh_steps in [1, 64] (Metropolis-Hastings steps per token; read by the
// "mh" sampler, and by "warp", which takes [2, 8]).
// Any seed is valid; the same seed, corpus and (for the standard sampler)
// thread count give the same run.
#ifndef PPLDA_LDA_SAMPLER_OPTIONS_H_
#define PPLDA_LDA_SAMPLER_OPTIONS_H_

#include <cstdint>

#include "absl/status/status.h"

namespace pplda::lda {

struct SamplerOptions {
  int num_topics = 20;
  double alpha = 0.1;  // symmetric document-topic Dirichlet prior
  double beta = 0.01;  // symmetric topic-term Dirichlet prior
  uint64_t seed = 1;
  int threads = 0;     // 0 = all cores
  int mh_steps = 8;    // "mh" and "warp": MH steps per token per iteration
};

inline constexpr int kMaxTopics = 65535;
inline constexpr int kMaxThreads = 1024;
inline constexpr int kMaxMetropolisSteps = 64;

// InvalidArgument naming the first option out of range and its value.
absl::Status ValidateSamplerOptions(const SamplerOptions& options);

// The thread count `threads` stands for (0 -> hardware concurrency, >= 1).
int ResolveThreadCount(int threads);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_SAMPLER_OPTIONS_H_

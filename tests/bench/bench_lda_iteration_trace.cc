// Per-iteration wall time of a plaintext sampler on a prepared folder
// (`pplda prepare`): RunIteration() alone is timed (not reading, set-up or
// writing the model), and the mean is printed per window of iterations
// (1, 2-5, 6-25, then every 25), so the start of a run can be told from its
// steady state. Not a Google Benchmark: a trace of one run.
//
//   build/tests/bench/bench_lda_iteration_trace PREPARED K THREADS ITERATIONS [SAMPLER [SEED]]
//
// alpha 0.1, beta 0.01 (as tests/compare/warplda_compare.sh); SAMPLER
// defaults to sparse, SEED to 1.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/numbers.h"
#include "lda/lda_sampler.h"
#include "lda/prepared_corpus.h"

namespace pplda::lda {
namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The last iteration of the window that iteration i starts.
int WindowEnd(int i, int iterations) {
  const int end = i == 1 ? 1 : i <= 5 ? 5 : i <= 25 ? 25 : (i + 24) / 25 * 25;
  return end < iterations ? end : iterations;
}

int Run(int argc, char** argv) {
  int k = 0, threads = 0, iterations = 0;
  uint64_t seed = 1;
  if ((argc != 5 && argc != 6 && argc != 7) || !absl::SimpleAtoi(argv[2], &k) ||
      !absl::SimpleAtoi(argv[3], &threads) || !absl::SimpleAtoi(argv[4], &iterations) ||
      iterations < 1 || (argc == 7 && !absl::SimpleAtoi(argv[6], &seed))) {
    std::fprintf(stderr,
                 "usage: bench_lda_iteration_trace PREPARED K THREADS ITERATIONS [SAMPLER [SEED]]\n");
    return 2;
  }
  const Clock::time_point read_start = Clock::now();
  absl::StatusOr<PreparedCorpus> prepared = ReadPreparedCorpus(argv[1]);
  if (!prepared.ok()) {
    std::fprintf(stderr, "bench_lda_iteration_trace: %s\n",
                 std::string(prepared.status().message()).c_str());
    return 1;
  }
  std::printf("read the prepared folder: %.1f ms\n", MillisecondsSince(read_start));
  SamplerOptions options;
  options.num_topics = k;
  options.threads = threads;
  options.seed = seed;
  options.alpha = 0.1;
  options.beta = 0.01;
  const std::string kind = argc >= 6 ? argv[5] : "sparse";
  const Clock::time_point create_start = Clock::now();
  absl::StatusOr<std::unique_ptr<LdaSampler>> sampler =
      CreateSampler(kind, prepared->train, options);
  if (!sampler.ok()) {
    std::fprintf(stderr, "bench_lda_iteration_trace: %s\n",
                 std::string(sampler.status().message()).c_str());
    return 1;
  }
  std::printf("create the %s sampler (K = %d, %d threads): %.1f ms\n", kind.c_str(), k,
              (*sampler)->num_threads(), MillisecondsSince(create_start));
  for (int first = 1; first <= iterations;) {
    const int last = WindowEnd(first, iterations);
    const Clock::time_point start = Clock::now();
    for (int i = first; i <= last; ++i) (*sampler)->RunIteration();
    std::printf("iterations %d-%d: %.2f ms per iteration\n", first, last,
                MillisecondsSince(start) / (last - first + 1));
    first = last + 1;
  }
  return 0;
}

}  // namespace
}  // namespace pplda::lda

int main(int argc, char** argv) { return pplda::lda::Run(argc, argv); }

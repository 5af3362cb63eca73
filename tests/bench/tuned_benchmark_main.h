// The main() of the protocol benchmarks: the binaries' malloc tuning
// (base/allocator_tuning.h) before Google Benchmark runs, so the figures
// are the product's.
#ifndef PPLDA_TESTS_BENCH_TUNED_BENCHMARK_MAIN_H_
#define PPLDA_TESTS_BENCH_TUNED_BENCHMARK_MAIN_H_

#include <benchmark/benchmark.h>

#include "base/allocator_tuning.h"

namespace pplda {

inline int TunedBenchmarkMain(int argc, char** argv) {
  KeepFreedBuffersForReuse();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace pplda

#endif  // PPLDA_TESTS_BENCH_TUNED_BENCHMARK_MAIN_H_

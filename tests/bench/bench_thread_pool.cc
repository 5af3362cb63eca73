// What a ThreadPool loop costs beyond its work (base/thread_pool.h): a
// two-chunk loop whose chunks each busy-wait `work` microseconds, on a pool
// of 2 threads (the caller and one worker), against the same work run by
// the caller alone (the baseline, in the same run). The difference is the
// worker's start-up latency per loop: a futex wake-up when it sleeps, none
// when it is still spinning from the loop before (thread_pool.cc,
// kSpinBeforeWait). The sparse sampler runs 2 such loops an iteration.
//
//   build/tests/bench/bench_thread_pool
#include <chrono>

#include "base/thread_pool.h"
#include "benchmark/benchmark.h"

namespace pplda {
namespace {

void BusyWait(std::chrono::microseconds work) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < work) {
  }
}

// Back-to-back loops of 2 chunks of `work` us each on 2 threads.
void BM_TwoChunkLoop(benchmark::State& state) {
  ThreadPool pool(2);
  const std::chrono::microseconds work(state.range(0));
  for (auto _ : state) {
    pool.ParallelForChunks(2, 2, [&](size_t, size_t, int) { BusyWait(work); });
  }
  state.counters["work_us"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_TwoChunkLoop)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond)->UseRealTime();

// The baseline: one chunk of `work` us on the calling thread.
void BM_OneChunkBaseline(benchmark::State& state) {
  const std::chrono::microseconds work(state.range(0));
  for (auto _ : state) BusyWait(work);
}
BENCHMARK(BM_OneChunkBaseline)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace pplda

BENCHMARK_MAIN();

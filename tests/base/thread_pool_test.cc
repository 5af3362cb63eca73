#include "base/thread_pool.h"

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <numeric>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace pplda {
namespace {

// CPU time of this process (user + system) in milliseconds.
double ProcessCpuMilliseconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

// Waiting threads spin only briefly (100 us) before they sleep: a pool idle
// for 300 ms costs well under 60 ms of CPU. Threads that kept spinning
// would cost 300 ms per core they hold.
TEST(ThreadPoolTest, AnIdlePoolStopsSpinning) {
  ThreadPool pool(4);
  std::atomic<int> calls{0};
  pool.ParallelForChunks(4, 4, [&](size_t, size_t, int) { ++calls; });
  ASSERT_EQ(calls.load(), 4);
  const double before = ProcessCpuMilliseconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_LT(ProcessCpuMilliseconds() - before, 60.0);
  pool.ParallelForChunks(4, 4, [&](size_t, size_t, int) { ++calls; });  // wakes from sleep
  EXPECT_EQ(calls.load(), 8);
}

TEST(ThreadPoolTest, CoversEveryIndexExactlyOnce) {
  for (int threads : {1, 2, 3}) {
    ThreadPool pool(threads);
    for (size_t n : {0u, 1u, 2u, 7u, 1000u}) {
      std::vector<std::atomic<int>> hits(n);
      pool.ParallelFor(n, [&](size_t b, size_t e, int w) {
        EXPECT_GE(w, 0);
        EXPECT_LT(w, pool.num_threads());
        for (size_t i = b; i < e; ++i) hits[i]++;
      });
      for (size_t i = 0; i < n; ++i) EXPECT_EQ(hits[i].load(), 1) << i;
    }
  }
}

TEST(ThreadPoolTest, ChunksAreDeterministicAndDisjoint) {
  ThreadPool pool(2);
  std::vector<long> sums(10, 0);
  pool.ParallelForChunks(1000, 10, [&](size_t b, size_t e, int) {
    long s = 0;
    for (size_t i = b; i < e; ++i) s += static_cast<long>(i);
    sums[b * 10 / 1000] = s;
  });
  EXPECT_EQ(std::accumulate(sums.begin(), sums.end(), 0L), 999L * 1000 / 2);
}

TEST(ThreadPoolTest, ManyConsecutiveRuns) {
  ThreadPool pool(2);
  std::atomic<long> total{0};
  for (int r = 0; r < 500; ++r) {
    pool.ParallelFor(4, [&](size_t b, size_t e, int) { total += static_cast<long>(e - b); });
  }
  EXPECT_EQ(total.load(), 2000);
}

}  // namespace
}  // namespace pplda

namespace pplda {
namespace {

TEST(ThreadPoolTest, NestedParallelForRunsInlineWithoutDeadlock) {
  ThreadPool pool(2);
  std::atomic<long> total{0};
  pool.ParallelFor(4, [&](size_t b, size_t e, int outer) {
    for (size_t i = b; i < e; ++i) {
      pool.ParallelFor(10, [&](size_t b2, size_t e2, int inner) {
        EXPECT_EQ(inner, outer);  // the caller's scratch slot, never another thread's
        total += static_cast<long>(e2 - b2);
      });
    }
  });
  EXPECT_EQ(total.load(), 40);
}

}  // namespace
}  // namespace pplda

#include "base/thread_pool.h"

#include <algorithm>
#include <chrono>

namespace pplda {
namespace {
// The pool and worker whose task this thread is running, if any: a nested
// ParallelFor on the same pool runs inline with the caller's worker index
// (so per-worker scratch stays exclusive) instead of waiting for itself.
thread_local const ThreadPool* tls_pool = nullptr;
thread_local int tls_worker = 0;

// How long a thread spins on the pool's state before it sleeps on a
// condition variable: longer than the gap between the back-to-back loops of
// a sampler's sub-sweeps, so a worker starts a loop without a futex
// wake-up (about 50 us on the 2-core VM of docs/measurements.md;
// tests/bench/bench_thread_pool.cc), and short enough that an idle pool
// costs nothing measurable (ThreadPoolTest.AnIdlePoolStopsSpinning).
constexpr auto kSpinBeforeWait = std::chrono::microseconds(100);

void Pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Spins until done() or kSpinBeforeWait has passed.
template <typename Done>
void SpinUntil(const Done& done) {
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return;
      Pause();
    }
    if (std::chrono::steady_clock::now() - start > kSpinBeforeWait) return;
  }
}

struct InsideTask {
  const ThreadPool* saved_pool = tls_pool;
  int saved_worker = tls_worker;
  InsideTask(const ThreadPool* pool, int worker) { tls_pool = pool; tls_worker = worker; }
  ~InsideTask() { tls_pool = saved_pool; tls_worker = saved_worker; }
};
}  // namespace

ThreadPool::ThreadPool(int num_threads) {
  if (num_threads <= 0) {
    num_threads = std::max(1u, std::thread::hardware_concurrency());
  }
  for (int w = 1; w < num_threads; ++w) {
    workers_.emplace_back([this, w] { WorkerLoop(w); });
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::ParallelFor(size_t n, const RangeFn& fn) {
  ParallelForChunks(n, static_cast<size_t>(num_threads()), fn);
}

void ThreadPool::ParallelForChunks(size_t n, size_t chunks, const RangeFn& fn) {
  if (n == 0) return;
  chunks = std::clamp<size_t>(chunks, 1, n);
  if (chunks == 1 || workers_.empty() || tls_pool == this) {
    int worker = tls_pool == this ? tls_worker : 0;
    for (size_t c = 0; c < chunks; ++c) {
      fn(c * n / chunks, (c + 1) * n / chunks, worker);
    }
    return;
  }
  std::lock_guard<std::mutex> run_lock(run_mu_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    fn_ = &fn;
    n_ = n;
    chunks_ = chunks;
    next_chunk_ = 0;
    chunks_done_ = 0;
    ++generation_;
  }
  work_cv_.notify_all();
  RunTasks(0);
  SpinUntil([this] { return chunks_done_.load() == chunks_; });
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, [this] { return chunks_done_ == chunks_; });
  fn_ = nullptr;
}

void ThreadPool::RunTasks(int worker) {
  while (true) {
    size_t c;
    const RangeFn* fn;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (fn_ == nullptr || next_chunk_ >= chunks_) return;
      c = next_chunk_++;
      fn = fn_;
    }
    {
      InsideTask inside(this, worker);
      (*fn)(c * n_ / chunks_, (c + 1) * n_ / chunks_, worker);
    }
    bool last;
    {
      std::lock_guard<std::mutex> lock(mu_);
      last = (++chunks_done_ == chunks_);
    }
    if (last) done_cv_.notify_all();
  }
}

void ThreadPool::WorkerLoop(int worker) {
  unsigned long seen = 0;
  while (true) {
    SpinUntil([&] { return generation_.load() != seen; });
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    RunTasks(worker);
  }
}

}  // namespace pplda

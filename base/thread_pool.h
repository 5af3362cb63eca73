// A fixed-size pool of worker threads for data-parallel loops.
// Invariant: ParallelFor(n, f) calls f(begin, end, worker) on disjoint ranges
// covering [0, n) and returns after every call has finished; worker is in
// [0, num_threads()). Ranges depend only on n and the thread count, so
// results computed per range are deterministic given both.
// Waiting threads (the workers between loops, the caller for the last
// chunk) spin for up to 100 us before they sleep (thread_pool.cc).
// Thread-safety: one ParallelFor at a time per pool (calls are serialised);
// a ParallelFor called from inside one of this pool's tasks runs inline on
// the calling thread with the caller's worker index, so nesting never
// deadlocks and per-worker scratch stays exclusive.
#ifndef PPLDA_BASE_THREAD_POOL_H_
#define PPLDA_BASE_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pplda {

class ThreadPool {
 public:
  // num_threads = 0 means std::thread::hardware_concurrency().
  explicit ThreadPool(int num_threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return static_cast<int>(workers_.size()) + 1; }

  using RangeFn = std::function<void(size_t begin, size_t end, int worker)>;
  // Splits [0, n) into num_threads() contiguous ranges of near-equal size.
  void ParallelFor(size_t n, const RangeFn& fn);
  // Splits [0, n) into `chunks` contiguous ranges handed out dynamically.
  void ParallelForChunks(size_t n, size_t chunks, const RangeFn& fn);

 private:
  void WorkerLoop(int worker);
  void RunTasks(int worker);

  std::vector<std::thread> workers_;
  std::mutex run_mu_;  // serialises ParallelFor calls
  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  const RangeFn* fn_ = nullptr;
  size_t n_ = 0;
  size_t chunks_ = 0;
  size_t next_chunk_ = 0;
  // Written under mu_; read without it by threads spinning before they
  // wait (thread_pool.cc).
  std::atomic<size_t> chunks_done_{0};
  std::atomic<unsigned long> generation_{0};
  bool stop_ = false;
};

}  // namespace pplda

#endif  // PPLDA_BASE_THREAD_POOL_H_

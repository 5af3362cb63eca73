#include "crypto/arith/parallel_batch.h"

#include <algorithm>
#include <mutex>

namespace pplda::crypto {

absl::Status RunBatch(ThreadPool* pool, size_t n,
                      const std::function<absl::Status(size_t i, int worker)>& fn) {
  std::mutex mu;
  size_t first_bad = n;
  absl::Status first_error;
  auto run_range = [&](size_t begin, size_t end, int worker) {
    for (size_t i = begin; i < end; ++i) {
      absl::Status s = fn(i, worker);
      if (s.ok()) continue;
      std::lock_guard<std::mutex> lock(mu);
      if (i < first_bad) {
        first_bad = i;
        first_error = std::move(s);
      }
    }
  };
  if (pool == nullptr || pool->num_threads() <= 1 || n <= 1) {
    run_range(0, n, 0);
  } else {
    const size_t chunks = std::min(n, static_cast<size_t>(pool->num_threads()) * 8);
    pool->ParallelForChunks(n, chunks, run_range);
  }
  return first_error;
}

}  // namespace pplda::crypto

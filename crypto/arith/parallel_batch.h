// RunBatch: applies a fallible per-element function to indices [0, n),
// spread over a ThreadPool when one is given (dynamic chunks, so a busy core
// does not hold the batch back), serially otherwise.
// Every index is processed; the returned status is OK, or the error of the
// lowest failing index (deterministic regardless of scheduling).
// fn(i, worker) must be safe to call concurrently for distinct i; worker is
// in [0, pool->num_threads()) (0 without a pool), for per-thread scratch.
// ThreadPool runs one ParallelFor at a time: never call RunBatch (or any
// batch API taking a ThreadPool*) from inside a task of the same pool.
#ifndef PPLDA_CRYPTO_ARITH_PARALLEL_BATCH_H_
#define PPLDA_CRYPTO_ARITH_PARALLEL_BATCH_H_

#include <cstddef>
#include <functional>

#include "absl/status/status.h"
#include "base/thread_pool.h"

namespace pplda::crypto {

absl::Status RunBatch(ThreadPool* pool, size_t n,
                      const std::function<absl::Status(size_t i, int worker)>& fn);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_ARITH_PARALLEL_BATCH_H_

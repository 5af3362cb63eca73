// RandomiserPool: a bounded stock of precomputed encryption randomisers,
// refilled by one background thread, so that the online cost of a Paillier
// encryption is a couple of multiplications (paillier_encryptor.h).
//
// Values are produced by the `make` function given at construction (each
// call must return a fresh, independent randomiser and be safe to call from
// the background thread while other threads call it too). Each pooled value
// is handed out at most once (Take), then belongs to the caller.
// When the pool is empty, Take() computes a value in the calling thread
// instead of waiting, so callers never block on the filler.
// The filler sleeps while the pool is full and wakes on every Take().
// Destruction stops and joins the thread and wipes every unused value.
// Thread-safety: all methods may be called concurrently.
#ifndef PPLDA_CRYPTO_PAILLIER_RANDOMISER_POOL_H_
#define PPLDA_CRYPTO_PAILLIER_RANDOMISER_POOL_H_

#include <gmpxx.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace pplda::crypto {

class RandomiserPool {
 public:
  using MakeFn = std::function<mpz_class()>;

  // capacity >= 1; starts the filler thread.
  RandomiserPool(size_t capacity, MakeFn make);
  ~RandomiserPool();
  RandomiserPool(const RandomiserPool&) = delete;
  RandomiserPool& operator=(const RandomiserPool&) = delete;

  // A pooled value, or a freshly computed one when the pool is empty.
  mpz_class Take();
  // Blocks until the pool holds min(count, capacity) values.
  void WaitUntilStocked(size_t count);

  size_t capacity() const { return capacity_; }
  size_t size() const;
  // How many Take() calls were served from the pool / computed inline.
  uint64_t served_from_pool() const { return served_from_pool_.load(); }
  uint64_t computed_inline() const { return computed_inline_.load(); }

 private:
  void FillLoop();

  const size_t capacity_;
  const MakeFn make_;
  mutable std::mutex mu_;
  std::condition_variable need_more_;   // filler waits for room or stop
  std::condition_variable stocked_;     // WaitUntilStocked waits for values
  std::deque<mpz_class> values_;
  bool stop_ = false;
  std::atomic<uint64_t> served_from_pool_{0};
  std::atomic<uint64_t> computed_inline_{0};
  std::thread filler_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_RANDOMISER_POOL_H_

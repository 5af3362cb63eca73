#include "crypto/paillier/randomiser_pool.h"

#include <algorithm>
#include <utility>

#include "crypto/arith/big_int.h"

namespace pplda::crypto {

RandomiserPool::RandomiserPool(size_t capacity, MakeFn make)
    : capacity_(std::max<size_t>(capacity, 1)), make_(std::move(make)) {
  filler_ = std::thread([this] { FillLoop(); });
}

RandomiserPool::~RandomiserPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  need_more_.notify_all();
  filler_.join();
  for (mpz_class& v : values_) Wipe(v);
}

void RandomiserPool::FillLoop() {
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      need_more_.wait(lock, [this] { return stop_ || values_.size() < capacity_; });
      if (stop_) return;
    }
    mpz_class value = make_();
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stop_) {
        Wipe(value);
        return;
      }
      values_.push_back(std::move(value));
    }
    stocked_.notify_all();
  }
}

mpz_class RandomiserPool::Take() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!values_.empty()) {
      mpz_class v = std::move(values_.front());
      values_.pop_front();
      served_from_pool_.fetch_add(1);
      need_more_.notify_one();
      return v;
    }
  }
  computed_inline_.fetch_add(1);
  return make_();
}

void RandomiserPool::WaitUntilStocked(size_t count) {
  const size_t target = std::min(count, capacity_);
  std::unique_lock<std::mutex> lock(mu_);
  stocked_.wait(lock, [&] { return values_.size() >= target; });
}

size_t RandomiserPool::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return values_.size();
}

}  // namespace pplda::crypto

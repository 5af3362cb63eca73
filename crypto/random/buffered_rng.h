// BufferedRng: a SecureRng that serves Fill() from a 4 KiB buffer refilled
// from an inner SecureRng, so that many small draws (each exact discrete
// Gaussian sample takes several 8-byte draws) cost one read of the OS
// generator per 4 KiB instead of one system call each: getrandom was most
// of `pplda train --dp-epsilon`'s time before (docs/measurements.md).
// The bytes served are exactly the inner generator's, in order. Served and
// unserved bytes are wiped (sodium_memzero): served ones at once, the rest
// on destruction. Thread-safety: Fill() may be called concurrently (one
// mutex); the inner generator must outlive this one.
#ifndef PPLDA_CRYPTO_RANDOM_BUFFERED_RNG_H_
#define PPLDA_CRYPTO_RANDOM_BUFFERED_RNG_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

class BufferedRng final : public SecureRng {
 public:
  static constexpr size_t kBufferBytes = 4096;

  explicit BufferedRng(SecureRng& inner) : inner_(inner) {}
  ~BufferedRng() override;
  BufferedRng(const BufferedRng&) = delete;
  BufferedRng& operator=(const BufferedRng&) = delete;

  void Fill(absl::Span<uint8_t> out) override;

 private:
  SecureRng& inner_;
  std::mutex mu_;
  std::array<uint8_t, kBufferBytes> buffer_{};
  size_t next_ = kBufferBytes;  // buffer_[next_, end) not served yet
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_RANDOM_BUFFERED_RNG_H_

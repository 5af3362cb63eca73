// ExpandedRng: a SecureRng that expands a 256-bit key drawn from another
// SecureRng into a ChaCha20 keystream (libsodium crypto_stream_chacha20),
// refilled in large blocks. The MPC engine draws far more randomness than
// a per-call OS source serves cheaply (one field element per share
// coefficient), so it keys one ExpandedRng per engine from the injected
// source: as unpredictable as ChaCha20 to anyone without the key, and
// deterministic when the injected source is (tests).
//
// The key is drawn at construction and wiped, with the buffer, on
// destruction. Nonce: a 64-bit block counter per refill, never reused under
// one key (2^64 refills). Thread-safety: not thread-safe (one per engine).
#ifndef PPLDA_CRYPTO_MPC_MPC_PRG_H_
#define PPLDA_CRYPTO_MPC_MPC_PRG_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

class ExpandedRng final : public SecureRng {
 public:
  static constexpr size_t kBufferBytes = 1 << 16;

  explicit ExpandedRng(SecureRng& seed_source);
  // A stream under a given key (pseudo-random sharing: parties holding the
  // same key draw the same stream).
  explicit ExpandedRng(const std::array<uint8_t, 32>& key);
  ~ExpandedRng() override;
  ExpandedRng(const ExpandedRng&) = delete;
  ExpandedRng& operator=(const ExpandedRng&) = delete;

  void Fill(absl::Span<uint8_t> out) override;

 private:
  void Refill();

  std::array<uint8_t, 32> key_{};
  std::vector<uint8_t> buffer_;
  size_t used_;
  uint64_t nonce_ = 0;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_MPC_PRG_H_

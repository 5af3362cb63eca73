// SeededRng: a deterministic SecureRng for tests and benchmarks ONLY.
//
// Output is the ChaCha20 keystream (libsodium crypto_stream_chacha20, 64-bit
// nonce = 0) under key = BLAKE2b-256("pplda-seeded-rng" || seed), so the same
// seed gives the same byte stream on every platform. It is as unpredictable
// as ChaCha20 to anyone who does not know the seed, but the seed is a test
// constant. The daemon mains reach it only through party/party_randomness.cc
// (the party daemon's insecure_deterministic_rng_seed), and only in builds
// with the CMake option PPLDA_INSECURE_TEST_RANDOMNESS (OFF by default in
// Release builds); builds without it compile no include of it into the
// daemons, which then refuse that key and use SodiumRng only.
// Thread-safety: Fill() takes a mutex; output is reproducible only when a
// single thread draws at a time.
#ifndef PPLDA_CRYPTO_RANDOM_SECURE_RNG_TESTING_H_
#define PPLDA_CRYPTO_RANDOM_SECURE_RNG_TESTING_H_

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

class SeededRng final : public SecureRng {
 public:
  explicit SeededRng(uint64_t seed) {
    [[maybe_unused]] const int ignored = sodium_init();
    static constexpr char kDomain[] = "pplda-seeded-rng";
    uint8_t input[sizeof(kDomain) - 1 + 8];
    std::memcpy(input, kDomain, sizeof(kDomain) - 1);
    for (int i = 0; i < 8; ++i) {
      input[sizeof(kDomain) - 1 + i] = static_cast<uint8_t>(seed >> (56 - 8 * i));
    }
    crypto_generichash(key_.data(), key_.size(), input, sizeof(input), nullptr, 0);
  }
  ~SeededRng() override {
    sodium_memzero(key_.data(), key_.size());
    sodium_memzero(block_.data(), block_.size());
  }

  void Fill(absl::Span<uint8_t> out) override {
    std::lock_guard<std::mutex> lock(mu_);
    size_t done = 0;
    while (done < out.size()) {
      if (used_ == block_.size()) NextBlock();
      const size_t n = std::min(out.size() - done, block_.size() - used_);
      std::memcpy(out.data() + done, block_.data() + used_, n);
      used_ += n;
      done += n;
    }
  }

 private:
  void NextBlock() {
    static const uint8_t kZeros[64] = {0};
    const uint8_t nonce[crypto_stream_chacha20_NONCEBYTES] = {0};
    crypto_stream_chacha20_xor_ic(block_.data(), kZeros, block_.size(), nonce,
                                  counter_++, key_.data());
    used_ = 0;
  }

  std::mutex mu_;
  std::array<uint8_t, crypto_stream_chacha20_KEYBYTES> key_{};
  std::array<uint8_t, 64> block_{};
  size_t used_ = 64;
  uint64_t counter_ = 0;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_RANDOM_SECURE_RNG_TESTING_H_

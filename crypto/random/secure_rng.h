// SecureRng: the one source of randomness for everything in pplda::crypto.
//
// Every component that needs randomness takes a SecureRng& (never a global):
//  - SodiumRng (this header) draws from libsodium's randombytes_buf, i.e. the
//    operating system CSPRNG. It is the only implementation the daemons use,
//    except a party daemon configured with insecure_deterministic_rng_seed in
//    a build with the CMake option PPLDA_INSECURE_TEST_RANDOMNESS (OFF by
//    default in Release builds, whose daemons refuse that key).
//  - SeededRng (secure_rng_testing.h) is a deterministic ChaCha20 stream keyed
//    from a test seed, for reproducible tests. Daemon mains include it only
//    through party/party_randomness.cc, and only with that option.
//
// Helpers built on Fill():
//  - RandomBits(bits):     uniform in [0, 2^bits).
//  - UniformBelow(bound):  uniform in [0, bound), bound >= 1, by rejection
//                          sampling on ceil(log2 bound) bits (expected < 2
//                          draws, no modular bias).
//  - UniformUint64(bound): uniform in [0, bound), bound >= 1.
// Thread-safety: every implementation's Fill() may be called concurrently
// from several threads (SodiumRng is lock-free; SeededRng takes a mutex, so
// its output is reproducible only when one thread draws at a time).
#ifndef PPLDA_CRYPTO_RANDOM_SECURE_RNG_H_
#define PPLDA_CRYPTO_RANDOM_SECURE_RNG_H_

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>

#include "absl/types/span.h"

namespace pplda::crypto {

class SecureRng {
 public:
  virtual ~SecureRng() = default;

  // Fills `out` with uniformly random bytes.
  virtual void Fill(absl::Span<uint8_t> out) = 0;

  // Uniform 64-bit word.
  uint64_t NextUint64();
  // Uniform in [0, bound); bound must be >= 1 (bound 0 returns 0).
  uint64_t UniformUint64(uint64_t bound);
  // Uniform in [0, 2^bits); bits = 0 gives 0.
  mpz_class RandomBits(size_t bits);
  // Uniform in [0, bound); bound must be >= 1 (bound <= 0 returns 0).
  mpz_class UniformBelow(const mpz_class& bound);
  // Uniform in Z*_m = {x in [1, m) : gcd(x, m) = 1}; m must be >= 2.
  mpz_class UniformUnit(const mpz_class& m);
};

// libsodium's CSPRNG (randombytes_buf over the OS generator). The
// constructor calls sodium_init() (idempotent); randombytes_buf initialises
// its source lazily, so construction cannot fail.
class SodiumRng final : public SecureRng {
 public:
  SodiumRng();
  void Fill(absl::Span<uint8_t> out) override;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_RANDOM_SECURE_RNG_H_

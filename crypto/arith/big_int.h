// Big-integer helpers over GMP's mpz_class used by every crypto/ module:
// fixed-length byte encodings for the wire, and wiping of secret values.
//
// Encoding: unsigned, big-endian. ToFixedBytes(x, len) gives exactly len
// bytes (left-padded with zeros) and fails with OutOfRange when x < 0 or
// x >= 256^len, so a receiver can reject truncated or oversized values by
// their length alone.
//
// Secrets: Wipe() overwrites every allocated limb with sodium_memzero before
// the value is reset; SecretInt owns an mpz_class and wipes it on destruction
// and move-assignment. GMP itself may leave copies of intermediate values in
// freed scratch memory; InstallZeroingGmpAllocator() makes GMP zero every
// block it frees (call once at daemon start, before any big integer exists).
// Thread-safety: all functions are reentrant; SecretInt is not synchronised.
#ifndef PPLDA_CRYPTO_ARITH_BIG_INT_H_
#define PPLDA_CRYPTO_ARITH_BIG_INT_H_

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace pplda::crypto {

// Number of bits of |x| (0 for x = 0).
size_t BitLength(const mpz_class& x);
// Number of bytes of the minimal unsigned encoding of |x| (0 for x = 0).
size_t ByteLength(const mpz_class& x);

// Exactly `len` big-endian bytes; OutOfRange unless 0 <= x < 256^len.
absl::StatusOr<std::string> ToFixedBytes(const mpz_class& x, size_t len);
// Minimal big-endian bytes of x >= 0 (empty for 0); x < 0 encodes |x|.
std::string ToMinimalBytes(const mpz_class& x);
// The non-negative integer whose big-endian encoding is `bytes`.
mpz_class FromBytes(std::string_view bytes);

// Overwrites all limbs of x with zeros (sodium_memzero), then x = 0.
void Wipe(mpz_class& x);
// Overwrites the characters of s with zeros, then clears it.
void WipeString(std::string& s);

// n! for small n (n <= 1000).
mpz_class Factorial(unsigned n);
// A public integer of at least `bytes` bytes derived from `input` (BLAKE2b
// in counter mode: block i hashes input + "/" + i); for public coins that
// every party derives alike, e.g. bases and verification values.
mpz_class HashToInteger(std::string_view input, size_t bytes);

// Makes GMP zero every block before it is freed or moved by realloc.
// Process-wide; must be called before any GMP value is allocated.
void InstallZeroingGmpAllocator();

// A secret big integer, wiped when destroyed. Move-only.
class SecretInt {
 public:
  SecretInt() = default;
  explicit SecretInt(mpz_class value) : value_(std::move(value)) {}
  SecretInt(SecretInt&& other) noexcept : value_(std::move(other.value_)) {}
  SecretInt& operator=(SecretInt&& other) noexcept {
    if (this != &other) {
      Wipe(value_);
      value_ = std::move(other.value_);
    }
    return *this;
  }
  SecretInt(const SecretInt&) = delete;
  SecretInt& operator=(const SecretInt&) = delete;
  ~SecretInt() { Wipe(value_); }

  const mpz_class& value() const { return value_; }
  mpz_class& mutable_value() { return value_; }

 private:
  mpz_class value_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_ARITH_BIG_INT_H_

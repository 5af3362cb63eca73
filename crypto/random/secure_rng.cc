#include "crypto/random/secure_rng.h"

#include <sodium.h>

#include <vector>

namespace pplda::crypto {
namespace {

// Imports big-endian `bytes` into `out` and wipes the buffer.
void ImportAndWipe(std::vector<uint8_t>& bytes, mpz_class& out) {
  mpz_import(out.get_mpz_t(), bytes.size(), 1, 1, 1, 0, bytes.data());
  sodium_memzero(bytes.data(), bytes.size());
}

}  // namespace

uint64_t SecureRng::NextUint64() {
  uint8_t buf[8];
  Fill(absl::MakeSpan(buf, sizeof(buf)));
  uint64_t v = 0;
  for (uint8_t b : buf) v = (v << 8) | b;
  sodium_memzero(buf, sizeof(buf));
  return v;
}

uint64_t SecureRng::UniformUint64(uint64_t bound) {
  if (bound <= 1) return 0;
  // Accept v < limit, where limit is the largest multiple of bound <= 2^64.
  const uint64_t reject_below = (0 - bound) % bound;  // 2^64 mod bound
  while (true) {
    const uint64_t v = NextUint64();
    if (v >= reject_below) return v % bound;
  }
}

mpz_class SecureRng::RandomBits(size_t bits) {
  mpz_class out;
  if (bits == 0) return out;
  std::vector<uint8_t> bytes((bits + 7) / 8);
  Fill(absl::MakeSpan(bytes));
  const size_t extra = bytes.size() * 8 - bits;
  bytes[0] &= static_cast<uint8_t>(0xFFu >> extra);
  ImportAndWipe(bytes, out);
  return out;
}

mpz_class SecureRng::UniformBelow(const mpz_class& bound) {
  if (bound <= 1) return mpz_class(0);
  const size_t bits = mpz_sizeinbase(mpz_class(bound - 1).get_mpz_t(), 2);
  while (true) {
    mpz_class v = RandomBits(bits);
    if (v < bound) return v;
  }
}

mpz_class SecureRng::UniformUnit(const mpz_class& m) {
  if (m <= 2) return mpz_class(1);
  mpz_class g;
  while (true) {
    mpz_class v = UniformBelow(m);
    if (v == 0) continue;
    mpz_gcd(g.get_mpz_t(), v.get_mpz_t(), m.get_mpz_t());
    if (g == 1) return v;
  }
}

SodiumRng::SodiumRng() {
  // Returns 1 when already initialised, -1 only if the OS source is absent,
  // in which case randombytes_buf fails loudly on first use.
  [[maybe_unused]] const int ignored = sodium_init();
}

void SodiumRng::Fill(absl::Span<uint8_t> out) {
  randombytes_buf(out.data(), out.size());
}

}  // namespace pplda::crypto

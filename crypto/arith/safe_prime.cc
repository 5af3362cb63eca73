#include "crypto/arith/safe_prime.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "crypto/arith/big_int.h"

namespace pplda::crypto {
namespace {

constexpr unsigned kSieveBound = 1u << 16;
constexpr size_t kSieveLength = 1u << 14;  // candidates per sieve window
constexpr int kMillerRabinRounds = 40;

const std::vector<unsigned>& SievePrimes() {
  static const std::vector<unsigned> primes = [] {
    std::vector<bool> composite(kSieveBound, false);
    std::vector<unsigned> out;
    for (unsigned i = 2; i < kSieveBound; ++i) {
      if (composite[i]) continue;
      if (i > 3) out.push_back(i);  // 2 and 3 are excluded by p' = 5 mod 6
      for (unsigned long j = static_cast<unsigned long>(i) * i; j < kSieveBound; j += i) {
        composite[j] = true;
      }
    }
    return out;
  }();
  return primes;
}

// Marks k in [0, kSieveLength) where q = start + 6k or 2q + 1 has a small factor.
std::vector<bool> Sieve(const mpz_class& start) {
  std::vector<bool> bad(kSieveLength, false);
  for (unsigned l : SievePrimes()) {
    const unsigned long s = mpz_fdiv_ui(start.get_mpz_t(), l);
    const unsigned long inv6 = [&] {  // 6^-1 mod l
      mpz_class six = 6, mod = l, inv;
      mpz_invert(inv.get_mpz_t(), six.get_mpz_t(), mod.get_mpz_t());
      return inv.get_ui();
    }();
    // q = 0 mod l  <=>  k = -s / 6 mod l
    const unsigned long k0 = (l - s) % l * inv6 % l;
    // 2q + 1 = 0 mod l  <=>  q = (l - 1) / 2 mod l  <=>  k = ((l - 1) / 2 - s) / 6
    const unsigned long target = (l - 1) / 2;
    const unsigned long k1 = (target + l - s) % l * inv6 % l;
    for (unsigned long k = k0; k < kSieveLength; k += l) bad[k] = true;
    for (unsigned long k = k1; k < kSieveLength; k += l) bad[k] = true;
  }
  return bad;
}

bool PassesQuickTests(const mpz_class& q, mpz_class& p) {
  mpz_class two = 2, r, qm1 = q - 1;
  mpz_powm(r.get_mpz_t(), two.get_mpz_t(), qm1.get_mpz_t(), q.get_mpz_t());
  if (r != 1) return false;
  p = 2 * q + 1;
  mpz_class e = 2 * q;
  mpz_powm(r.get_mpz_t(), two.get_mpz_t(), e.get_mpz_t(), p.get_mpz_t());
  return r == 1;
}

}  // namespace

bool IsSafePrime(const mpz_class& p) {
  if (p < 5 || mpz_even_p(p.get_mpz_t())) return false;
  const mpz_class q = (p - 1) / 2;
  return mpz_probab_prime_p(q.get_mpz_t(), kMillerRabinRounds) > 0 &&
         mpz_probab_prime_p(p.get_mpz_t(), kMillerRabinRounds) > 0;
}

absl::StatusOr<mpz_class> GenerateSafePrime(size_t bits, SecureRng& rng) {
  if (bits < 16 || bits > 4096) {
    return absl::InvalidArgumentError(
        absl::StrCat("safe prime of ", bits, " bits: size must be in [16, 4096]"));
  }
  while (true) {
    // q = p' has bits - 1 bits with its two top bits set, q = 5 mod 6.
    mpz_class q = rng.RandomBits(bits - 1);
    mpz_setbit(q.get_mpz_t(), bits - 2);
    mpz_setbit(q.get_mpz_t(), bits - 3);
    q += (5 - mpz_fdiv_ui(q.get_mpz_t(), 6) + 6) % 6;
    const std::vector<bool> bad = Sieve(q);
    mpz_class p;
    for (size_t k = 0; k < kSieveLength; ++k) {
      if (bad[k]) continue;
      const mpz_class cand = q + 6 * static_cast<unsigned long>(k);
      if (BitLength(cand) != bits - 1) break;  // ran past the top: restart
      if (!PassesQuickTests(cand, p)) continue;
      if (IsSafePrime(p)) return p;
    }
  }
}

}  // namespace pplda::crypto

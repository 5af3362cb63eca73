#include "privacy/exact_bernoulli.h"

namespace pplda::privacy {
namespace {

// exp(-gamma) for gamma in [0, 1] (CKS 2020, Algorithm 1, first case).
bool BernoulliExpMinusAtMostOne(const mpq_class& gamma, crypto::SecureRng& rng) {
  mpz_class k = 1;
  while (true) {
    mpq_class p(gamma.get_num(), gamma.get_den() * k);
    p.canonicalize();
    if (!BernoulliRational(p, rng)) break;
    ++k;
  }
  return mpz_odd_p(k.get_mpz_t()) != 0;
}

// exp(-num/den) for num <= den, 64-bit parts.
bool BernoulliExpMinusAtMostOne(uint64_t num, uint64_t den, crypto::SecureRng& rng) {
  uint64_t k = 1;
  while (true) {
    if (den > UINT64_MAX / k) {  // den * k overflows: finish exactly with rationals
      mpq_class p(mpz_class(num), mpz_class(den) * k);
      p.canonicalize();
      if (!BernoulliRational(p, rng)) break;
    } else if (!BernoulliRational(num, den * k, rng)) {
      break;
    }
    ++k;
  }
  return (k & 1) != 0;
}

}  // namespace

bool BernoulliRational(uint64_t num, uint64_t den, crypto::SecureRng& rng) {
  if (num >= den) return true;
  return rng.UniformUint64(den) < num;
}

bool BernoulliExpMinus(uint64_t num, uint64_t den, crypto::SecureRng& rng) {
  if (num <= den) return BernoulliExpMinusAtMostOne(num, den, rng);
  const uint64_t whole = num / den;
  for (uint64_t i = 0; i < whole; ++i) {
    if (!BernoulliExpMinusAtMostOne(1, 1, rng)) return false;
  }
  return BernoulliExpMinusAtMostOne(num % den, den, rng);
}

bool BernoulliRational(const mpq_class& p, crypto::SecureRng& rng) {
  if (p <= 0) return false;
  if (p >= 1) return true;
  return rng.UniformBelow(p.get_den()) < p.get_num();
}

bool BernoulliExpMinus(const mpq_class& gamma, crypto::SecureRng& rng) {
  if (gamma <= 1) return BernoulliExpMinusAtMostOne(gamma, rng);
  const mpz_class whole = gamma.get_num() / gamma.get_den();  // floor, gamma > 0
  const mpq_class one(1);
  for (mpz_class i = 0; i < whole; ++i) {
    if (!BernoulliExpMinusAtMostOne(one, rng)) return false;
  }
  return BernoulliExpMinusAtMostOne(gamma - mpq_class(whole), rng);
}

}  // namespace pplda::privacy

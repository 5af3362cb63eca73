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

}  // namespace

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

// Exact Bernoulli trials with rational parameters, drawn from a SecureRng
// with integer arithmetic only (no floating point anywhere), as DP noise
// sampling requires. Algorithms of Canonne, Kamath & Steinke, "The Discrete
// Gaussian for Differential Privacy" (NeurIPS 2020), sec. 5.1:
//
//   BernoulliRational(p):  P[true] = p, for a rational p in [0, 1]: one
//                          uniform integer below p's denominator.
//   BernoulliExpMinus(g):  P[true] = exp(-g), for a rational g >= 0:
//     for g in [0, 1], the alternating-series trick: K = 1, 2, ... while
//     Bernoulli(g / K) succeeds; return whether the final K is odd;
//     for g > 1, floor(g) trials of exp(-1) and one of exp(-(g - floor(g))),
//     stopping at the first failure.
// Expected cost: O(1) uniform draws for g in [0, 1]; O(1) for any g (the
// loop over floor(g) stops at the first failure, each succeeding with
// probability 1/e).
//
// Out-of-range parameters are clamped, never undefined: p <= 0 gives false,
// p >= 1 gives true, g <= 0 gives true (exp(-g) >= 1).
// Thread-safety: as the SecureRng passed in.
#ifndef PPLDA_PRIVACY_EXACT_BERNOULLI_H_
#define PPLDA_PRIVACY_EXACT_BERNOULLI_H_

#include <gmpxx.h>

#include <cstdint>

#include "crypto/random/secure_rng.h"

namespace pplda::privacy {

bool BernoulliRational(const mpq_class& p, crypto::SecureRng& rng);

bool BernoulliExpMinus(const mpq_class& gamma, crypto::SecureRng& rng);

// The same trials for p = num/den and g = num/den with 64-bit parts (den >=
// 1), without heap arithmetic: the samplers' common case. Identical
// distributions; a denominator that would overflow 64 bits falls back to
// the rational version.
bool BernoulliRational(uint64_t num, uint64_t den, crypto::SecureRng& rng);
bool BernoulliExpMinus(uint64_t num, uint64_t den, crypto::SecureRng& rng);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_EXACT_BERNOULLI_H_

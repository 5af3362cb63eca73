// The baseline every protocol benchmark quotes its ratios against, measured
// in the same run: one plain GMP mpz_powm mod N^2 of `key`'s modulus with a
// 2|N| + 64-bit exponent (a partial decryption's size), the mean of 20.
#ifndef PPLDA_TESTS_BENCH_POWM_BASELINE_H_
#define PPLDA_TESTS_BENCH_POWM_BASELINE_H_

#include <gmpxx.h>

#include <chrono>

#include "crypto/paillier/paillier_dealer.h"
#include "crypto/random/secure_rng_testing.h"

namespace pplda::bench {

inline double PowmSeconds(const crypto::DealtKey& key) {
  const mpz_class& n2 = key.public_key->paillier().n_squared();
  crypto::SeededRng rng(99);
  const mpz_class base = rng.UniformBelow(n2);
  const mpz_class e = rng.RandomBits(2 * key.public_key->paillier().modulus_bits() + 64);
  mpz_class out;
  const int reps = 20;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) {
    mpz_powm(out.get_mpz_t(), base.get_mpz_t(), e.get_mpz_t(), n2.get_mpz_t());
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
}

}  // namespace pplda::bench

#endif  // PPLDA_TESTS_BENCH_POWM_BASELINE_H_

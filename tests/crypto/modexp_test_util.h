// Helpers shared by the exponentiation tests (ifma_modexp_test,
// batch_modexp_test): random odd moduli of an exact size and the GMP
// reference every result is compared with.
#ifndef PPLDA_TESTS_CRYPTO_MODEXP_TEST_UTIL_H_
#define PPLDA_TESTS_CRYPTO_MODEXP_TEST_UTIL_H_

#include <gmpxx.h>

#include <cstddef>

#include "crypto/random/secure_rng_testing.h"

namespace pplda::crypto::testing {

// A random odd modulus of exactly `bits` bits.
inline mpz_class RandomOddModulus(SeededRng& rng, size_t bits) {
  mpz_class m = rng.RandomBits(bits);
  mpz_setbit(m.get_mpz_t(), bits - 1);
  mpz_setbit(m.get_mpz_t(), 0);
  return m;
}

// b^e mod m by GMP's mpz_powm: the reference.
inline mpz_class Powm(const mpz_class& b, const mpz_class& e, const mpz_class& m) {
  mpz_class out;
  mpz_powm(out.get_mpz_t(), b.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());
  return out;
}

}  // namespace pplda::crypto::testing

#endif  // PPLDA_TESTS_CRYPTO_MODEXP_TEST_UTIL_H_

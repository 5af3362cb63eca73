// PaillierPublicKey::ValidateCiphertexts, the batch form of the Z*_{N^2}
// check: it accepts exactly what ValidateCiphertext accepts element by
// element, and names the lowest bad index, within a chunk of the product
// gcd and across chunks, serially and over a thread pool.
#include "crypto/paillier/paillier_public_key.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/thread_pool.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::IsOk;
using ::pplda::crypto::testing::StatusIs;

struct Modulus {
  mpz_class p, q;
  PaillierPublicKey key;
};

// N = p q for two random 1024-bit primes (the factors are what the test
// plants in bad elements).
Modulus MakeModulus() {
  SeededRng rng(41);
  auto prime = [&] {
    mpz_class x = rng.RandomBits(1024);
    mpz_setbit(x.get_mpz_t(), 1023);
    mpz_nextprime(x.get_mpz_t(), x.get_mpz_t());
    return x;
  };
  const mpz_class p = prime(), q = prime();
  return {p, q, PaillierPublicKey::Create(p * q).value()};
}

const Modulus& TheModulus() {
  static const Modulus* m = new Modulus(MakeModulus());
  return *m;
}

// `count` random elements of Z*_{N^2}.
std::vector<mpz_class> Units(size_t count, uint64_t seed) {
  const PaillierPublicKey& key = TheModulus().key;
  SeededRng rng(seed);
  std::vector<mpz_class> out(count);
  for (mpz_class& x : out) {
    do x = rng.UniformBelow(key.n_squared()); while (gcd(x, key.n()) != 1 || x == 0);
  }
  return out;
}

absl::Status Validate(const std::vector<mpz_class>& c, ThreadPool* pool = nullptr) {
  return TheModulus().key.ValidateCiphertexts(
      c.size(), [&](size_t i) -> const mpz_class& { return c[i]; },
      [](size_t i) { return absl::StrCat("element ", i); }, pool);
}

TEST(ValidateCiphertextsTest, AcceptsUnitsOfEveryBatchLength) {
  ThreadPool pool(2);
  for (size_t count : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{300}}) {
    const std::vector<mpz_class> c = Units(count, count + 1);
    EXPECT_THAT(Validate(c), IsOk()) << count;
    EXPECT_THAT(Validate(c, &pool), IsOk()) << count;
  }
}

TEST(ValidateCiphertextsTest, NamesAnElementSharingAFactorWithN) {
  const Modulus& m = TheModulus();
  ThreadPool pool(2);
  for (const mpz_class& bad : {mpz_class(m.p * 12345), mpz_class(m.q), mpz_class(m.p * m.q),
                               mpz_class(m.q * m.q * 7)}) {
    for (size_t at : {size_t{0}, size_t{63}, size_t{64}, size_t{130}, size_t{299}}) {
      std::vector<mpz_class> c = Units(300, 7);
      c[at] = bad;
      const std::string expected = absl::StrCat("element ", at, " is not in Z*_{N^2}: not coprime");
      EXPECT_THAT(Validate(c), StatusIs(absl::StatusCode::kInvalidArgument, expected));
      EXPECT_THAT(Validate(c, &pool), StatusIs(absl::StatusCode::kInvalidArgument, expected));
    }
  }
}

TEST(ValidateCiphertextsTest, NamesAnElementOutsideTheRange) {
  const PaillierPublicKey& key = TheModulus().key;
  for (const mpz_class& bad : {mpz_class(0), mpz_class(-5), key.n_squared(),
                               mpz_class(key.n_squared() + 1)}) {
    std::vector<mpz_class> c = Units(100, 8);
    c[77] = bad;
    EXPECT_THAT(Validate(c), StatusIs(absl::StatusCode::kInvalidArgument,
                                      "element 77 is not in Z*_{N^2}: outside (0, N^2)"));
  }
}

// The lowest bad index wins, whatever the kinds: within one chunk (a
// non-unit before an out-of-range element, and the reverse) and across
// chunks (over the pool too).
TEST(ValidateCiphertextsTest, NamesTheLowestBadIndex) {
  const Modulus& m = TheModulus();
  ThreadPool pool(2);
  std::vector<mpz_class> c = Units(300, 9);
  c[3] = m.p;
  c[10] = 0;
  EXPECT_THAT(Validate(c), StatusIs(absl::StatusCode::kInvalidArgument, "element 3 is"));
  c[3] = Units(1, 10)[0];
  c[2] = m.q * 3;
  c[1] = m.key.n_squared();
  EXPECT_THAT(Validate(c), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "element 1 is not in Z*_{N^2}: outside"));
  c = Units(300, 11);
  c[250] = 0;
  c[200] = m.q;
  c[65] = m.p;
  EXPECT_THAT(Validate(c), StatusIs(absl::StatusCode::kInvalidArgument, "element 65 is"));
  EXPECT_THAT(Validate(c, &pool), StatusIs(absl::StatusCode::kInvalidArgument, "element 65 is"));
}

// The batch check agrees with the single check: element by element, and on
// whole mixed batches of two chunks, whose error names the lowest index the
// single check refuses.
TEST(ValidateCiphertextsTest, AgreesWithTheSingleCheck) {
  const Modulus& m = TheModulus();
  SeededRng rng(13);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<mpz_class> c = Units(128, 100 + trial);
    // A few bad values of every kind at random places (some trials none).
    const mpz_class bad[] = {m.p * 2, m.q, mpz_class(0), m.key.n_squared(), m.p * m.q};
    for (int k = 0; k < trial % 4; ++k) {
      c[rng.UniformBelow(128).get_ui()] = bad[rng.UniformBelow(5).get_ui()];
    }
    size_t lowest = c.size();
    for (size_t i = 0; i < c.size(); ++i) {
      const bool single_ok = m.key.ValidateCiphertext(c[i], "x").ok();
      EXPECT_EQ(Validate({c[i]}).ok(), single_ok) << i;
      if (!single_ok && lowest == c.size()) lowest = i;
    }
    const absl::Status batch = Validate(c);
    if (lowest == c.size()) {
      EXPECT_THAT(batch, IsOk()) << trial;
    } else {
      EXPECT_THAT(batch, StatusIs(absl::StatusCode::kInvalidArgument,
                                  absl::StrCat("element ", lowest, " is not in")))
          << trial;
    }
  }
}

}  // namespace
}  // namespace pplda::crypto

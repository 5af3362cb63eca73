// The view test of dealer-free modulus generation (crypto/keygen/shared_modulus.h): what a party
// sees of the sieve's opening does not depend on the
// secret product. The opened value is A + sum_i R_i, where A = prod_i a_i is
// the sieved candidate: A = 3 (mod 4) and A is a unit modulo every sieving
// prime (never 0 mod 3, 5, 7), so without the masks the opening would show
// it at once. With them, the opened value modulo 4 * 3 * 5 = 60 must be
// uniform: Pearson's chi-square at significance 0.001 over the
// reconstructed openings of four 512-bit generations with fixed seeds (a
// correct implementation fails with probability 0.001; the seeds make the
// run deterministic). The coalition is party 2 alone (t = 1): it
// reconstructs every opened value from the shares parties 0 and 1 send it.
// The other messages (BGW shares of degree t, and the moduli, biprimality
// values and masked gcd value of candidates, simulated from N in BF97
// Section 5) are not tested here; the shares' uniformity is the MPC engine's
// (mpc_view_stat_test.cc).
#include <map>

#include "crypto/keygen/big_field_shamir.h"
#include "crypto/keygen/shared_modulus.h"
#include "crypto/mpc/mpc_testing.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

// Upper 0.001 quantile of chi-square with 59 degrees of freedom
// (Wilson-Hilferty).
constexpr double kChiSquare999Df59 = 98.4;
constexpr int kResidues = 60;

mpz_class DecodeElement(const std::vector<uint8_t>& payload, size_t index, size_t width) {
  mpz_class v;
  mpz_import(v.get_mpz_t(), width, 1, 1, 1, 0, payload.data() + index * width);
  return v;
}

TEST(SharedModulusViewStatTest, SieveOpeningIsIndependentOfTheCandidateModuloSmallPrimes) {
  SharedModulusOptions options;
  options.modulus_bits = 512;
  auto plan = PlanModulusSieve(options, 3);
  ASSERT_TRUE(plan.ok()) << plan.status();
  auto scheme = BigFieldShamir::Create(3, 1, plan->field_prime);
  ASSERT_TRUE(scheme.ok()) << scheme.status();
  const size_t width = (mpz_sizeinbase(plan->field_prime.get_mpz_t(), 2) + 7) / 8;
  const size_t values = 2 * static_cast<size_t>(plan->pairs_per_batch);

  std::vector<int64_t> residues(kResidues, 0);
  int openings = 0;
  for (uint64_t seed : {91, 92, 93, 94}) {
    auto bed = MpcTestbed::Create(3, 1, seed).value();
    bed->recorder(2).set_recording(true);
    ASSERT_TRUE(bed->Run([&](MpcEngine& e) {
                     return GenerateSharedModulus(options, e).status();
                   }).ok());
    // Every round in which parties 0 and 1 each sent party 2 one element
    // per sieved value; the openings are the rounds whose reconstructed
    // values are below the mask bound 2^(mask_bits + 2) (a product round's
    // values are uniform in the field of bits(Q) > mask_bits + 64 bits).
    std::map<uint64_t, std::map<int, const std::vector<uint8_t>*>> by_round;
    for (const auto& r : bed->recorder(2).received()) {
      if (r.payload.size() == values * width) by_round[r.round][r.from] = &r.payload;
    }
    const mpz_class bound = mpz_class(1) << (plan->mask_bits + 2);
    for (const auto& [round, from] : by_round) {
      if (from.size() != 2) continue;
      std::vector<mpz_class> opened;
      for (size_t k = 0; k < values; ++k) {
        const std::vector<mpz_class> shares = {DecodeElement(*from.at(0), k, width),
                                               DecodeElement(*from.at(1), k, width)};
        opened.push_back(scheme->Reconstruct(shares, 1));
      }
      bool masked_opening = true;
      for (const mpz_class& v : opened) masked_opening = masked_opening && v < bound;
      if (!masked_opening) continue;
      ++openings;
      for (const mpz_class& v : opened) ++residues[mpz_fdiv_ui(v.get_mpz_t(), kResidues)];
    }
  }
  ASSERT_GE(openings, 1) << "no sieve opening found in party 2's view";
  int64_t total = 0;
  for (int64_t c : residues) total += c;
  ASSERT_GE(total, kResidues * 50) << "too few openings for the chi-square test";
  const double expected = static_cast<double>(total) / kResidues;
  double stat = 0;
  for (int64_t c : residues) stat += (c - expected) * (c - expected) / expected;
  std::printf("%d sieve openings, %lld opened values, chi-square %.1f (df 59)\n", openings,
              static_cast<long long>(total), stat);
  EXPECT_LT(stat, kChiSquare999Df59);
}

}  // namespace
}  // namespace pplda::crypto

// The view tests of the dealer-free decryption exponent
// (crypto/keygen/distributed_threshold_key.h): the two values
// DeriveThresholdKey opens,
//   gamma = phi beta + N R       (step 1; every party sees the whole integer)
//   d + R_d                      (step 2, d = phi sum_i (beta_i theta mod N)),
// must not depend on phi(N) beyond what N gives. The coalition is party 2
// alone (t = 1): it reconstructs each opened value from the shares parties
// 0 and 1 send it; with t = 1 the value and party 2's own share determine
// those shares, so the opened values are the whole of what the openings
// show. To compare two phi for the same public N, the test harness (and
// only it) feeds DeriveThresholdKey additive shares of two different "p"
// and "q" sums: the true phi(N) (sample A) and phi_B = phi / 2 + 1 (sample
// B; the protocol does not check the sums, and the openings depend on the
// shares only through phi). N is a fixed 256-bit biprime (test primes), far
// below the 1024 bits PaillierPublicKey accepts, so every run stops at the
// last step (PaillierPublicKey::Create refuses the size) after both
// openings; the test checks that this is how it stops. sigma = 20, the
// smallest DeriveThresholdKey accepts. kRuns runs per phi, seeds kSeed + i
// for the parties' sources and 2001 for the primes and shares: the run is
// deterministic, and each assertion below would fail with the stated
// probability for a correct implementation over a random seed.
//
// Mutation checks made when the test was written (not committed): R = 0 in
// step 1 fails GammaQuotientIsMaskedByR (KS 0.69); beta_i = 1 fails
// GammaModNIsUniformAndIndependentOfPhi (chi-square 30,000); R_d = 0 fails
// ExponentOpeningIsIndependentOfD (chi-square 34,428, KS 0.71), and so does
// R_d of bits(n N^2) bits, i.e. sigma = 0 (KS 0.11). The 2^-sigma
// distance itself (sigma >= 20) is far below what any sample can resolve:
// the tests catch a mask that is missing or shorter than the masked value.
#include <map>

#include "crypto/keygen/big_field_shamir.h"
#include "crypto/keygen/distributed_threshold_key.h"
#include "crypto/mpc/mpc_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/crypto/keygen_view_stat_util.h"

namespace pplda::crypto {
namespace {

using keygen_view::ChiSquareCritical001;
using keygen_view::ChiSquareHomogeneity;
using keygen_view::ChiSquareUniform;
using keygen_view::ClassModN;
using keygen_view::KolmogorovSmirnov;
using keygen_view::KolmogorovSmirnovCritical001;
using ::testing::HasSubstr;

constexpr int kBits = 256;
constexpr int kSigma = 20;
constexpr int kRuns = 2000;          // per phi
constexpr uint64_t kSeed = 2002000;  // the run of sample s, index i: kSeed + 2 i + s

struct KeyViews {
  mpz_class n, phi;
  std::vector<mpz_class> gamma[2];     // opened gamma, by sample (A: true phi, B: phi_B)
  std::vector<mpz_class> exponent[2];  // opened d + R_d
};

mpz_class DecodeElement(const std::vector<uint8_t>& payload, size_t width) {
  mpz_class v;
  mpz_import(v.get_mpz_t(), width, 1, 1, 1, 0, payload.data());
  return v;
}

KeyViews Collect() {
  const keygen_view::SmallBiprime b = keygen_view::MakeSmallBiprime(kBits, 2001);
  KeyViews views;
  views.n = b.n;
  views.phi = (b.p - 1) * (b.q - 1);
  const mpz_class phi_b = views.phi / 2 + 1;
  SeededRng split_rng(2001);
  // The harness's shares: sample A the true p and q; sample B p' + q with
  // N + 1 - p' - q = phi_B.
  std::vector<SharedModulus> moduli[2];
  for (int s = 0; s < 2; ++s) {
    const mpz_class p = s == 0 ? b.p : mpz_class(b.n + 1 - phi_b - b.q);
    const std::vector<mpz_class> ps = keygen_view::SplitAdditively(p, split_rng);
    const std::vector<mpz_class> qs = keygen_view::SplitAdditively(b.q, split_rng);
    for (int i = 0; i < 3; ++i) {
      SharedModulus m;
      m.n = b.n;
      m.p_share = SecretInt(ps[i]);
      m.q_share = SecretInt(qs[i]);
      moduli[s].push_back(std::move(m));
    }
  }
  const mpz_class& field = BigFieldShamir::PublicPrime(2 * kBits + 3 * kSigma + 64);
  const BigFieldShamir scheme = BigFieldShamir::Create(3, 1, field).value();
  const size_t width = (mpz_sizeinbase(field.get_mpz_t(), 2) + 7) / 8;
  // Both openings are below 2^(2 bits(N) + sigma + 8); the Mul rounds'
  // single elements reconstruct to field elements uniform over 636 bits.
  const mpz_class bound = mpz_class(1) << (2 * kBits + kSigma + 8);
  for (int run = 0; run < kRuns; ++run) {
    for (int s = 0; s < 2; ++s) {
      // A testbed per run: the refusal at the end shuts its network down.
      auto bed = MpcTestbed::Create(3, 1, kSeed + 2 * run + s).value();
      RecordingTransport& recorder = bed->recorder(2);
      recorder.set_recording(true);
      const absl::Status status = bed->Run([&](MpcEngine& e) {
        return DeriveThresholdKey(moduli[s][e.party_id()], kSigma, e).status();
      });
      EXPECT_THAT(status.message(), HasSubstr("Paillier modulus of 256 bits is not supported"))
          << status;
      std::map<uint64_t, std::map<int, const std::vector<uint8_t>*>> by_round;
      for (const auto& r : recorder.received()) {
        if (r.payload.size() == width && r.from < 2) by_round[r.round][r.from] = &r.payload;
      }
      std::vector<mpz_class> opened;
      for (const auto& [round, from] : by_round) {
        if (from.size() != 2) continue;
        const std::vector<mpz_class> shares = {DecodeElement(*from.at(0), width),
                                               DecodeElement(*from.at(1), width)};
        mpz_class v = scheme.Reconstruct(shares, 1);
        if (v < bound) opened.push_back(std::move(v));
      }
      if (opened.size() != 2) {
        ADD_FAILURE() << "run " << run << ": " << opened.size() << " openings, expected 2";
        return views;
      }
      views.gamma[s].push_back(opened[0]);
      views.exponent[s].push_back(opened[1]);
    }
  }
  return views;
}

const KeyViews& Views() {
  static const KeyViews* views = new KeyViews(Collect());
  return *views;
}

// Step 1, gamma mod N (what the protocol uses: theta = gamma^-1 mod N).
// Asserts: (a) over the true phi's runs, floor(16 (gamma mod N) / N) is
// uniform on 16 classes (Pearson goodness of fit, df 15, critical 37.7);
// (b) the same 16 classes have the same distribution for phi and phi_B
// (2 x 16 homogeneity chi-square, df 15, critical 37.7). Significance 0.001
// each: a correct implementation fails with probability at most 0.002.
// beta's honest part makes phi beta mod N uniform for every unit phi; a
// constant or missing beta puts every gamma in one class.
TEST(DistributedKeyViewStatTest, GammaModNIsUniformAndIndependentOfPhi) {
  const KeyViews& v = Views();
  ASSERT_EQ(v.gamma[0].size(), static_cast<size_t>(kRuns));
  ASSERT_EQ(v.gamma[1].size(), static_cast<size_t>(kRuns));
  constexpr int kClasses = 16;
  std::vector<int64_t> counts[2] = {std::vector<int64_t>(kClasses, 0),
                                    std::vector<int64_t>(kClasses, 0)};
  for (int s = 0; s < 2; ++s) {
    for (const mpz_class& g : v.gamma[s]) ++counts[s][ClassModN(g, v.n, kClasses)];
  }
  const double fit = ChiSquareUniform(counts[0]);
  const double apart = ChiSquareHomogeneity(counts[0], counts[1]);
  const double critical = ChiSquareCritical001(kClasses - 1);
  std::printf("gamma mod N: fit %.1f, homogeneity %.1f (critical %.1f)\n", fit, apart, critical);
  EXPECT_LT(fit, critical);
  EXPECT_LT(apart, critical);
}

// Step 1, the quotient floor(gamma / N) = floor(phi beta / N) + R, which a
// party sees because it sees the whole opened integer: without R it would
// be below 3 phi and scale with phi. Asserts that its distribution is the
// same for phi and phi_B = phi / 2 + 1: two-sample Kolmogorov-Smirnov over
// kRuns + kRuns values at significance 0.001 (critical 1.949 sqrt(2 /
// kRuns) = 0.062): false-failure probability 0.001. With R the two
// distributions are within 3 N 2^-(bits(N) + sigma + 4) < 2^-20 in total
// variation.
TEST(DistributedKeyViewStatTest, GammaQuotientIsMaskedByR) {
  const KeyViews& v = Views();
  ASSERT_EQ(v.gamma[1].size(), static_cast<size_t>(kRuns));
  std::vector<mpz_class> high[2];
  for (int s = 0; s < 2; ++s) {
    for (const mpz_class& g : v.gamma[s]) high[s].push_back(g / v.n);
  }
  const double d = KolmogorovSmirnov(high[0], high[1]);
  const double critical = KolmogorovSmirnovCritical001(kRuns, kRuns);
  std::printf("gamma / N: KS %.4f (critical %.4f)\n", d, critical);
  EXPECT_LT(d, critical);
}

// Step 2, the opening d + R_d with d = 0 (mod 4) (phi is: p = q = 3 mod 4)
// and d = 1 (mod N). Asserts: (a) over the true phi's runs, the class
// ((d + R_d) mod 8, floor(4 ((d + R_d) mod N) / N)) is uniform on 32
// classes (Pearson, df 31, critical 61.1): no trace of d's low bits or of
// d mod N; (b) the opened values for phi and phi_B (whose d are about half
// as large) have the same distribution: two-sample Kolmogorov-Smirnov,
// critical 0.062. Significance 0.001 each: false-failure probability at
// most 0.002. Without R_d every value is in class (0 or 4, 0); with R_d of
// bits(n N^2) bits (no sigma) the d shift the distributions apart.
TEST(DistributedKeyViewStatTest, ExponentOpeningIsIndependentOfD) {
  const KeyViews& v = Views();
  ASSERT_EQ(v.exponent[0].size(), static_cast<size_t>(kRuns));
  ASSERT_EQ(v.exponent[1].size(), static_cast<size_t>(kRuns));
  constexpr int kModN = 4, kLow = 8;
  std::vector<int64_t> counts(kModN * kLow, 0);
  for (const mpz_class& o : v.exponent[0]) {
    ++counts[mpz_fdiv_ui(o.get_mpz_t(), kLow) * kModN + ClassModN(o, v.n, kModN)];
  }
  const double fit = ChiSquareUniform(counts);
  const double fit_critical = ChiSquareCritical001(kModN * kLow - 1);
  const double d = KolmogorovSmirnov(v.exponent[0], v.exponent[1]);
  const double ks_critical = KolmogorovSmirnovCritical001(kRuns, kRuns);
  std::printf("d + R_d: fit %.1f (critical %.1f), KS %.4f (critical %.4f)\n", fit, fit_critical, d,
              ks_critical);
  EXPECT_LT(fit, fit_critical);
  EXPECT_LT(d, ks_critical);
}

}  // namespace
}  // namespace pplda::crypto

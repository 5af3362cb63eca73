// Final-count noise (a heuristic without DP guarantee): noise of the asked
// sigma on every cell (mean and variance, on counts far from 0 so nothing
// is clamped), clamping at 0 counted, its description (no epsilon, no delta,
// no data-dependent figure, the disclaimer), the nominal sigma of the removed
// --dp-epsilon, and bad options.
#include "privacy/final_count_noise.h"

#include <cmath>
#include <string>

#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "privacy/zcdp_calibration.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;
using testing::MakeModel;

std::vector<std::string> Terms(int v) {
  std::vector<std::string> t;
  for (int i = 0; i < v; ++i) t.push_back("w" + std::to_string(i));
  return t;
}

// 2 x 5000 cells at 10^6, sigma 25.92. Sample mean within 5 standard errors
// of 10^6 and sample variance within 5% (its sd is 1.4% at 10^4 cells):
// false alarm below 1e-6.
TEST(FinalCountNoise, NoiseHasTheAskedVariance) {
  lda::LdaModel m = MakeModel(Terms(5000), 2, 0.1, 0.01, std::vector<int64_t>(10000, 1'000'000));
  crypto::SeededRng rng(7);
  auto noise = AddFinalCountNoise({25.92}, rng, &m);
  ASSERT_TRUE(noise.ok()) << noise.status();
  EXPECT_NEAR(std::sqrt(noise->sigma_squared.get_d()), 25.92, 1e-5);
  EXPECT_GE(noise->sigma_squared.get_d(), 25.92 * 25.92);  // rounded up, never down
  EXPECT_EQ(noise->clamped_cells, 0);
  double sum = 0, sum_squares = 0;
  for (int64_t c : m.topic_term_counts) {
    const double e = static_cast<double>(c - 1'000'000);
    sum += e;
    sum_squares += e * e;
  }
  const double s2 = noise->sigma_squared.get_d();
  EXPECT_NEAR(sum / 10000, 0, 5 * std::sqrt(s2 / 10000));
  EXPECT_NEAR(sum_squares / 10000, s2, 0.05 * s2);
  EXPECT_TRUE(m.Validate().ok());
}

TEST(FinalCountNoise, NegativeCountsAreClampedAndCounted) {
  // All-zero counts: about half the cells come out negative (P[Z < 0] =
  // (1 - P[Z = 0]) / 2 ~ 0.498 at sigma 98); binomial bounds at 5 sd.
  lda::LdaModel m = MakeModel(Terms(2000), 2, 0.1, 0.01, std::vector<int64_t>(4000, 0));
  crypto::SeededRng rng(8);
  auto noise = AddFinalCountNoise({98}, rng, &m);
  ASSERT_TRUE(noise.ok()) << noise.status();
  EXPECT_NEAR(noise->clamped_cells, 0.498 * 4000, 5 * std::sqrt(4000 * 0.25));
  int64_t zeros = 0;
  for (int64_t c : m.topic_term_counts) {
    EXPECT_GE(c, 0);
    zeros += c == 0;
  }
  EXPECT_GE(zeros, noise->clamped_cells);
}

// The record of the noise claims nothing: no epsilon, no delta, no figure
// computed from the counts (clamped cells), and says there is no guarantee.
TEST(FinalCountNoise, DescriptionClaimsNoGuaranteeAndHoldsNoDataFigure) {
  lda::LdaModel m = MakeModel(Terms(20), 1, 0.1, 0.01, std::vector<int64_t>(20, 0));
  crypto::SeededRng rng(10);
  auto noise = AddFinalCountNoise({34.5}, rng, &m);
  ASSERT_TRUE(noise.ok()) << noise.status();
  const nlohmann::json d = noise->Describe();
  EXPECT_FALSE(d.contains("epsilon"));
  EXPECT_FALSE(d.contains("delta"));
  EXPECT_FALSE(d.contains("clamped_cells"));
  EXPECT_FALSE(d.contains("cells"));
  EXPECT_NEAR(d["sigma"].get<double>(), 34.5, 1e-5);
  const std::string guarantee = d["guarantee"];
  EXPECT_EQ(guarantee.rfind("none: ", 0), 0u) << guarantee;
  EXPECT_NE(guarantee.find("NO differential-privacy guarantee"), std::string::npos);
}

// The removed --dp-epsilon's noise: sigma^2 = L^2 / (2 rho(epsilon, delta)),
// 34.5, 64.8 and 245 for L = 50 at epsilon 8, 4 and 1 (docs/privacy.md).
TEST(FinalCountNoise, NominalSigmaOfTheRemovedOption) {
  EXPECT_NEAR(*NominalSigmaForEpsilon(50, 8, 1e-5), 34.5, 0.05);
  EXPECT_NEAR(*NominalSigmaForEpsilon(50, 4, 1e-5), 64.8, 0.05);
  EXPECT_NEAR(*NominalSigmaForEpsilon(50, 1, 1e-5), 245.0, 0.5);
  EXPECT_NEAR(*NominalSigmaForEpsilon(20, 4, 1e-5), 25.9215, 1e-3);
  EXPECT_EQ(NominalSigmaForEpsilon(50, 0, 1e-5).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(FinalCountNoise, RejectsBadOptions) {
  lda::LdaModel m = MakeModel(Terms(2), 1, 0.1, 0.01, {1, 2});
  crypto::SeededRng rng(9);
  ExpectError(AddFinalCountNoise({0}, rng, &m).status(), absl::StatusCode::kInvalidArgument,
              "--final-noise-sigma");
  ExpectError(AddFinalCountNoise({-3}, rng, &m).status(), absl::StatusCode::kInvalidArgument,
              "got -3");
  ExpectError(AddFinalCountNoise({std::nan("")}, rng, &m).status(),
              absl::StatusCode::kInvalidArgument, "final-count noise sigma");
  ExpectError(AddFinalCountNoise({0x1p41}, rng, &m).status(), absl::StatusCode::kInvalidArgument,
              "(0, 2^40]");
  EXPECT_EQ(m.topic_term_counts, (std::vector<int64_t>{1, 2}));  // untouched on error
}

}  // namespace
}  // namespace pplda::privacy

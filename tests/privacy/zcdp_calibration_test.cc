// Calibration between zCDP and (epsilon, delta): values against hand
// computation, the round trip, rounding towards more noise, and every
// invalid parameter.
#include "privacy/zcdp_calibration.h"

#include <cmath>

#include "gtest/gtest.h"
#include "privacy/discrete_gaussian.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;

TEST(ZcdpCalibration, RhoForEpsilonDeltaMatchesHandValue) {
  // (sqrt(ln(1e5) + 1) - sqrt(ln(1e5)))^2 = 0.0208199383...
  EXPECT_NEAR(ZcdpForEpsilonDelta(1, 1e-5), 0.0208199383, 1e-9);
  EXPECT_NEAR(ZcdpForEpsilonDelta(8, 1e-5), 1.0491362012, 1e-9);
}

TEST(ZcdpCalibration, ConversionRoundTrips) {
  for (double eps : {0.1, 1.0, 4.0, 8.0, 50.0}) {
    for (double delta : {1e-9, 1e-5, 0.01}) {
      EXPECT_NEAR(EpsilonForZcdp(ZcdpForEpsilonDelta(eps, delta), delta), eps, 1e-9 * eps);
    }
  }
}

TEST(ZcdpCalibration, VarianceIsRoundedUpAndMeetsTheBudget) {
  auto s2 = DiscreteGaussianVariance(20, 1, 1e-5);
  ASSERT_TRUE(s2.ok()) << s2.status();
  const double exact = 400 / (2 * 0.0208199383395355);  // 9606.17...
  EXPECT_GE(s2->get_d(), exact);
  EXPECT_LE(s2->get_d(), exact * (1 + 1e-6));
  EXPECT_EQ(mpz_class(s2->get_den()) & (mpz_class(s2->get_den()) - 1), 0)  // power of two
      << s2->get_str();
  // The epsilon actually spent at that variance is at most the one asked.
  const double rho = 400 / (2 * s2->get_d());
  EXPECT_LE(EpsilonForZcdp(rho, 1e-5), 1.0);
}

TEST(ZcdpCalibration, RoundUpSigmaSquared) {
  EXPECT_EQ(RoundUpSigmaSquared(2.0), mpq_class(2));
  EXPECT_EQ(RoundUpSigmaSquared(0.1), mpq_class(52429, 1 << 19));  // ceil(0.1 * 2^20) / 2^20
  EXPECT_EQ(RoundUpSigmaSquared(0.0), mpq_class(1, 1 << 20));
}

TEST(ZcdpCalibration, RejectsBadParameters) {
  ExpectError(DiscreteGaussianVariance(20, 0, 1e-5).status(), absl::StatusCode::kInvalidArgument,
              "epsilon must be in (0, 1000], got 0");
  ExpectError(DiscreteGaussianVariance(20, -1, 1e-5).status(),
              absl::StatusCode::kInvalidArgument, "epsilon");
  ExpectError(DiscreteGaussianVariance(20, NAN, 1e-5).status(),
              absl::StatusCode::kInvalidArgument, "epsilon");
  ExpectError(DiscreteGaussianVariance(20, 1, 0).status(), absl::StatusCode::kInvalidArgument,
              "delta must be in (0, 0.5), got 0");
  ExpectError(DiscreteGaussianVariance(20, 1, 0.5).status(), absl::StatusCode::kInvalidArgument,
              "delta");
  ExpectError(DiscreteGaussianVariance(0, 1, 1e-5).status(), absl::StatusCode::kInvalidArgument,
              "L2 sensitivity");
  ExpectError(DiscreteGaussianVariance(1e9, 1e-3, 1e-300).status(),
              absl::StatusCode::kInvalidArgument, "above the supported 2^80");
  ExpectError(ValidateEpsilonDelta(2000, 1e-5, "DP model"), absl::StatusCode::kInvalidArgument,
              "DP model epsilon");
}

TEST(DiscreteGaussian, RejectsBadVariance) {
  ExpectError(DiscreteGaussian::Create(mpq_class(0)).status(),
              absl::StatusCode::kInvalidArgument, "sigma^2 must be in (0, 2^80], got 0");
  ExpectError(DiscreteGaussian::Create(mpq_class(-3, 2)).status(),
              absl::StatusCode::kInvalidArgument, "got -3/2");
  ExpectError(DiscreteGaussian::Create(mpq_class(mpz_class(1) << 81)).status(),
              absl::StatusCode::kInvalidArgument, "2^80");
}

}  // namespace
}  // namespace pplda::privacy

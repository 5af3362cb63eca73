// Distributed discrete Gaussian analysis and calibration
// (privacy/distributed_discrete_gaussian.h) against closed forms: tau and
// the KLS21 Prop. 14 bound by hand, m = 1 reducing to CKS20 Thm. 14, the
// coalition inflation s^2 = sigma^2 / (n - t), the truncation bound's tail,
// the accountant staying within budget, and every invalid parameter.
#include "privacy/distributed_discrete_gaussian.h"

#include <cmath>

#include "gtest/gtest.h"
#include "privacy/dp_count_training.h"
#include "privacy/privacy_accountant.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;

constexpr double kPi = 3.14159265358979323846;

TEST(DistributedDiscreteGaussian, TauMatchesClosedForm) {
  EXPECT_EQ(DistributedTau(1, 1), 0);  // one summand: exactly a discrete Gaussian
  // Within the 1e-9 relative rounding up.
  EXPECT_NEAR(DistributedTau(2, 1), 10 * std::exp(-kPi * kPi), 1e-8 * 5.2e-4);
  EXPECT_NEAR(DistributedTau(3, 1),
              10 * (std::exp(-kPi * kPi) + std::exp(-4 * kPi * kPi / 3)), 1e-8 * 5.4e-4);
  EXPECT_NEAR(DistributedTau(2, 0.25), 10 * std::exp(-kPi * kPi / 4), 1e-8);
  // Rounded up, never down.
  EXPECT_GE(DistributedTau(3, 1), 10 * (std::exp(-kPi * kPi) + std::exp(-4 * kPi * kPi / 3)));
  // Vanishes for the variances DP training uses.
  EXPECT_EQ(DistributedTau(5, 100), 0);
}

TEST(DistributedDiscreteGaussian, ZcdpMatchesTheBound) {
  // m = 1: CKS20 Thm. 14, Delta^2 / (2 s^2).
  EXPECT_NEAR(DistributedZcdp(50, 1, mpq_class(25), 1000), 1.0, 1e-10);
  EXPECT_GE(DistributedZcdp(50, 1, mpq_class(25), 1000), 1.0);
  // m = 2, s^2 = 1, Delta^2 = 4, d = 100: (2 / sqrt(2) + tau 10)^2 / 2.
  const double tau = 10 * std::exp(-kPi * kPi);
  const double expected = std::pow(std::sqrt(2.0) + tau * 10, 2) / 2;
  EXPECT_NEAR(DistributedZcdp(4, 2, mpq_class(1), 100), expected, 1e-10);
  EXPECT_GE(DistributedZcdp(4, 2, mpq_class(1), 100), expected);
  // Large s: the tau term is gone and rho = Delta^2 / (2 m s^2).
  EXPECT_NEAR(DistributedZcdp(250, 2, mpq_class(1000), 100000), 250.0 / 4000, 1e-12);
  // Rounding is towards more privacy loss only.
  EXPECT_GE(DistributedZcdp(250, 2, mpq_class(1000), 100000), 250.0 / 4000);
}

TEST(DistributedDiscreteGaussian, CoalitionInflatesEachShare) {
  auto central = DiscreteGaussianForComposition(250, 4, 1e-5, 50);
  ASSERT_TRUE(central.ok());
  for (auto [n, t] : std::vector<std::pair<int, int>>{{1, 0}, {3, 0}, {3, 1}, {5, 2}, {4, 3}}) {
    auto d = CalibrateDistributedNoise(250, 4, 1e-5, 50, n, t, 5000, 4, 1e-5);
    ASSERT_TRUE(d.ok()) << d.status();
    const double expected = central->sigma_squared.get_d() / (n - t);
    EXPECT_GE(d->share_variance.get_d(), expected * (1 - 1e-12)) << n << " " << t;
    EXPECT_LE(d->share_variance.get_d(), expected * (1 + 1e-5)) << n << " " << t;
    EXPECT_EQ(d->honest(), n - t);
    EXPECT_EQ(d->central_variance, d->share_variance * (n - t));
    EXPECT_EQ(d->tau, 0);
    // The rho spent is the bound at the chosen s^2, within the target.
    EXPECT_EQ(d->composition.rho_per_release,
              DistributedZcdp(250, n - t, d->share_variance, 5000));
    EXPECT_LE(d->composition.rho_per_release * 50, ZcdpForEpsilonDelta(4, 1e-5));
    EXPECT_EQ(d->composition.releases, 50);
  }
}

TEST(DistributedDiscreteGaussian, TauTermRaisesSmallShares) {
  // Delta^2 = 1, one release, epsilon 5.857 at delta 1e-5: rho target
  // ~0.6, so the central sigma^2 ~0.83 and s^2 = sigma^2 / 2 < 1 is raised
  // to 1; over 10^6 cells tau(2, 1) sqrt(d) = 0.517 still breaks the target
  // at s^2 = 1 ((0.707 + 0.517)^2 / 2 = 0.75), so s^2 must grow further.
  const double target = ZcdpForEpsilonDelta(5.857, 1e-5) * (1 - 1e-9);
  ASSERT_NEAR(target, 0.6, 0.01);
  ASSERT_GT(DistributedZcdp(1, 2, mpq_class(1), 1000000), target);
  auto d = CalibrateDistributedNoise(1, 5.857, 1e-5, 1, 3, 1, 1000000, 5.857, 1e-5);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_GT(d->share_variance, 1);
  EXPECT_GT(d->tau, 0);
  EXPECT_LE(d->composition.rho_per_release, target);
  EXPECT_EQ(d->composition.rho_per_release,
            DistributedZcdp(1, 2, d->share_variance, 1000000));
  // Not wastefully more: 2^-12 relative steps overshoot by at most one step.
  const mpq_class smaller = d->share_variance * mpq_class(4095, 4096);
  EXPECT_GT(DistributedZcdp(1, 2, smaller, 1000000), target * (1 - 1e-3));
}

TEST(DistributedDiscreteGaussian, ShareBoundTailMeetsItsDelta) {
  for (double s2 : {1.0, 40.0, 1e6}) {
    for (double eps : {0.5, 8.0, 1000.0}) {
      const ShareBound b = ChooseShareBound(mpq_class(s2), 3e8, eps, 1e-5);
      EXPECT_EQ(b.truncation_delta, std::min(0x1p-70, 1e-15));
      // ln((1 + e^E) S 2 exp(-B^2 / (2 s^2))) <= ln(delta_truncation).
      const double log_total = eps + std::log1p(std::exp(-eps)) + std::log(2 * 3e8) -
                               static_cast<double>(b.bound) * b.bound / (2 * s2);
      EXPECT_LE(log_total, std::log(b.truncation_delta)) << s2 << " " << eps;
      EXPECT_LE(b.bound, std::ceil(std::sqrt(s2) * 50)) << s2 << " " << eps;
    }
  }
}

TEST(DistributedDiscreteGaussian, BadParametersAreErrors) {
  ExpectError(CalibrateDistributedNoise(250, 4, 1e-5, 50, 0, 0, 10, 4, 1e-5).status(),
              absl::StatusCode::kInvalidArgument, "noise parties");
  ExpectError(CalibrateDistributedNoise(250, 4, 1e-5, 50, 3, 3, 10, 4, 1e-5).status(),
              absl::StatusCode::kInvalidArgument, "coalition size t");
  ExpectError(CalibrateDistributedNoise(250, 4, 1e-5, 50, 3, -1, 10, 4, 1e-5).status(),
              absl::StatusCode::kInvalidArgument, "coalition size t");
  ExpectError(CalibrateDistributedNoise(250, 4, 1e-5, 50, 3, 1, 0, 4, 1e-5).status(),
              absl::StatusCode::kInvalidArgument, "cells per release");
  ExpectError(CalibrateDistributedNoise(250, 0, 1e-5, 50, 3, 1, 10, 4, 1e-5).status(),
              absl::StatusCode::kInvalidArgument, "epsilon");
  ExpectError(CalibrateDistributedNoise(250, 4, 1e-5, 0, 3, 1, 10, 4, 1e-5).status(),
              absl::StatusCode::kInvalidArgument, "noisy releases");
}

DpCountOptions Distributed(int n, int t) {
  DpCountOptions o{4, 1e-5, DocumentCaps{50, 5}, 10};
  o.noise_parties = n;
  o.noise_coalition = t;
  return o;
}

TEST(DistributedDiscreteGaussian, CountCalibrationNamesBadOptions) {
  auto a = PrivacyAccountant::WithBudget(4, 1e-5);
  ASSERT_TRUE(a.ok());
  ExpectError(CalibrateDistributedCountNoise(Distributed(0, 0), 20, 100, 5, *a).status(),
              absl::StatusCode::kInvalidArgument, "compute parties");
  ExpectError(CalibrateDistributedCountNoise(Distributed(3, 3), 20, 100, 5, *a).status(),
              absl::StatusCode::kInvalidArgument, "MPC threshold");
  ExpectError(CalibrateDistributedCountNoise(Distributed(3, 1), 20, 0, 5, *a).status(),
              absl::StatusCode::kInvalidArgument, "V >= 1");
  DpCountOptions bad = Distributed(3, 1);
  bad.epsilon = -1;
  ExpectError(CalibrateDistributedCountNoise(bad, 20, 100, 5, *a).status(),
              absl::StatusCode::kInvalidArgument, "--dp-epsilon");
  PrivacyAccountant no_budget;
  ExpectError(CalibrateDistributedCountNoise(Distributed(3, 1), 20, 100, 5, no_budget).status(),
              absl::StatusCode::kFailedPrecondition, "budget");
}

// Debiting the truncation and every release keeps the accountant within
// the budget, and the accountant refuses one release more.
TEST(DistributedDiscreteGaussian, ReleasesStayWithinTheBudget) {
  auto a = PrivacyAccountant::WithBudget(4, 1e-5);
  ASSERT_TRUE(a.ok());
  const DpCountOptions o = Distributed(3, 1);
  auto d = CalibrateDistributedCountNoise(o, 20, 100, 5, *a);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->dimension, 500);
  EXPECT_EQ(d->composition.sensitivity_squared, 250);  // floor(50 / 5) 5^2
  ASSERT_TRUE(a->Record(ShareTruncationRelease(*d)).ok());
  for (int r = 0; r < 10; ++r) {
    ASSERT_TRUE(a->Record(DistributedIterationRelease(o, *d)).ok()) << r;
  }
  EXPECT_LE(a->epsilon(), 4);
  EXPECT_LE(a->delta(), 1e-5);
  EXPECT_EQ(a->Record(DistributedIterationRelease(o, *d)).code(),
            absl::StatusCode::kFailedPrecondition);
  const nlohmann::json described = DescribeDistributedNoise(*d);
  EXPECT_EQ(described["noise_parties"], 3);
  EXPECT_EQ(described["coalition_tolerated"], 1);
  EXPECT_EQ(described["share_bound"], d->share_bound);
}

}  // namespace
}  // namespace pplda::privacy

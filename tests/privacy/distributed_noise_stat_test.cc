// Statistical tests of the distributed noise (fixed seeds, crypto::SeededRng;
// chi-square at the 10^-4 level, tests/privacy/chi_square_test_util.h):
//  - the sum of n = 3 parties' shares, each N_Z(0, s^2) clamped to the
//    calibrated bound, against the discrete Gaussian of the summed variance
//    3 s^2 (the sum of discrete Gaussians is not exactly one; at s^2 = 40/3
//    the difference, of order exp(-pi^2 s^2), is far below what 10^5
//    samples can see, so a failure means a sampler or summation bug);
//  - the plaintext twin's release (DistributedNoisyCountRelease) minus the
//    exact counts, with the calibrated shares, against N_Z(0, n s^2).
#include <cmath>
#include <vector>

#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "lda/term_topic_counts.h"
#include "privacy/distributed_discrete_gaussian.h"
#include "privacy/dp_count_training.h"
#include "tests/privacy/chi_square_test_util.h"

namespace pplda::privacy {
namespace {

TEST(DistributedNoiseStat, SumOfSharesIsTheDiscreteGaussianOfTheSummedVariance) {
  const mpq_class s2(40, 3);
  auto share = DiscreteGaussian::Create(s2);
  ASSERT_TRUE(share.ok());
  const ShareBound bound = ChooseShareBound(s2, 3e5, 8, 1e-5);
  crypto::SeededRng rng(181);
  std::vector<int64_t> samples;
  for (int i = 0; i < 100000; ++i) samples.push_back(SampleSummedShares(*share, bound.bound, 3, rng));
  ExpectFits(Fit(samples, GaussianWeight, 40.0, 60 * 7), "sum of 3 shares of variance 40/3");
}

TEST(DistributedNoiseStat, TwinReleaseNoiseIsTheSumOfCalibratedShares) {
  DpCountOptions o{8, 1e-5, DocumentCaps{50, 5}, 0};
  o.noise_parties = 3;
  o.noise_coalition = 1;
  auto accountant = PrivacyAccountant::WithBudget(8, 1e-5);
  ASSERT_TRUE(accountant.ok());
  const int k = 10, v = 1000;
  auto noise = CalibrateDistributedCountNoise(o, 100, v, k, *accountant);
  ASSERT_TRUE(noise.ok()) << noise.status();
  // s^2 = sigma^2 / 2 of the central calibration (109.2^2 / 2).
  EXPECT_NEAR(std::sqrt(noise->share_variance.get_d() * 2), 109.2, 0.1);
  auto share = DiscreteGaussian::Create(noise->share_variance);
  ASSERT_TRUE(share.ok());
  lda::TermTopicCounts exact(k, std::vector<int32_t>(v, k));
  for (lda::TermId t = 0; t < v; ++t) {
    for (int j = 0; j < k; ++j) exact.mutable_row(t)[j] = 1000000;
  }
  crypto::SeededRng rng(182);
  std::vector<int64_t> samples;
  for (int rep = 0; rep < 10; ++rep) {
    const NoisyCounts noisy = DistributedNoisyCountRelease(exact, *noise, *share, rng);
    EXPECT_EQ(noisy.clamped_cells, 0);
    for (int32_t c : noisy.term_major) samples.push_back(static_cast<int64_t>(c) - 1000000);
  }
  const double total_variance = 3 * noise->share_variance.get_d();
  ExpectFits(Fit(samples, GaussianWeight, total_variance,
                 static_cast<int64_t>(60 * std::sqrt(total_variance))),
             "twin release noise");
}

}  // namespace
}  // namespace pplda::privacy

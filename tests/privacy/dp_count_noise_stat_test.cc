// Statistical tests (label "statistical") of the noise DP training adds,
// each with a fixed seed and a stated error rate: the noisy minus exact
// counts follow the discrete Gaussian of the CALIBRATED sigma
// (chi-square goodness of fit at the 10^-4 level, mean within 5 standard
// errors of 0, variance within 5% of the pmf's: false alarm about 10^-4 per
// check under the null; tests/privacy/chi_square_test_util.h):
//  - NoisyCountRelease on counts far from 0 (no clamping), sigma from the
//    calibrator for (8, 1e-5), T = 100, L = 50, c = 5 (sigma about 109);
//  - the whole trainer (TrainWithNoisyCounts) with K = 1, where the exact
//    count of term t is its frequency whatever the topics, so the published
//    count minus the frequency is exactly the noise of the last release
//    (frequencies 200 >> 60 sigma, so nothing is clamped);
// and a control showing that the second fit rejects a sigma^2 50% larger
// (so the test has power).
#include <cmath>
#include <vector>

#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "lda/term_topic_counts.h"
#include "privacy/dp_count_training.h"
#include "tests/privacy/chi_square_test_util.h"

namespace pplda::privacy {
namespace {

TEST(DpCountNoiseStat, ReleaseNoiseIsTheCalibratedDiscreteGaussian) {
  auto accountant = PrivacyAccountant::WithBudget(8, 1e-5);
  ASSERT_TRUE(accountant.ok());
  DpCountOptions o{8, 1e-5, DocumentCaps{50, 5}, 0};
  auto noise = CalibrateCountNoise(o, 100, *accountant);
  ASSERT_TRUE(noise.ok()) << noise.status();
  auto gaussian = DiscreteGaussian::Create(noise->sigma_squared);
  ASSERT_TRUE(gaussian.ok());
  // 1000 terms x 10 topics, every count 10^6.
  const int k = 10, v = 1000;
  lda::TermTopicCounts exact(k, std::vector<int32_t>(v, k));
  for (lda::TermId t = 0; t < v; ++t) {
    for (int j = 0; j < k; ++j) exact.mutable_row(t)[j] = 1000000;
  }
  crypto::SeededRng rng(31);
  std::vector<int64_t> samples;
  for (int rep = 0; rep < 10; ++rep) {
    const NoisyCounts noisy = NoisyCountRelease(exact, *gaussian, rng);
    EXPECT_EQ(noisy.clamped_cells, 0);
    for (int32_t c : noisy.term_major) samples.push_back(static_cast<int64_t>(c) - 1000000);
  }
  ASSERT_EQ(samples.size(), 100000u);
  const double sigma = std::sqrt(noise->sigma_squared.get_d());
  EXPECT_NEAR(sigma, 109.2, 0.1);
  ExpectFits(Fit(samples, GaussianWeight, noise->sigma_squared.get_d(),
                 static_cast<int64_t>(60 * sigma)),
             "release noise");
}

// Samples of the published-minus-exact counts of K = 1 trainings.
std::vector<int64_t> TrainerNoise(double* sigma_squared) {
  // 200 terms, each 200 times: 10,000 documents of 4 distinct terms.
  lda::Corpus corpus;
  for (int t = 0; t < 200; ++t) corpus.vocabulary.Add("w" + std::to_string(t));
  for (int d = 0; d < 10000; ++d) {
    lda::Document doc{"d" + std::to_string(d), {}};
    for (int i = 0; i < 4; ++i) doc.tokens.push_back((4 * d + i) % 200);
    corpus.documents.push_back(doc);
  }
  lda::SamplerOptions sampler;
  sampler.num_topics = 1;
  sampler.threads = 1;
  DpCountOptions o{4, 1e-5, DocumentCaps{4, 1}, 0};  // Delta^2 = 4
  crypto::SeededRng rng(32);
  std::vector<int64_t> samples;
  for (int run = 0; run < 100; ++run) {
    auto accountant = PrivacyAccountant::WithBudget(4, 1e-5);
    auto trained = TrainWithNoisyCounts(corpus, sampler, 2, o, rng, &*accountant);
    EXPECT_TRUE(trained.ok()) << trained.status();
    if (!trained.ok()) return samples;
    *sigma_squared = trained->noise.sigma_squared.get_d();
    for (lda::TermId t = 0; t < 200; ++t) samples.push_back(trained->model.count(0, t) - 200);
  }
  return samples;
}

TEST(DpCountNoiseStat, TrainerPublishesExactCountsPlusTheCalibratedNoise) {
  double s2 = 0;
  const std::vector<int64_t> samples = TrainerNoise(&s2);
  ASSERT_EQ(samples.size(), 20000u);
  // Two releases of rho(4, 1e-5) / 2 each on Delta^2 = 4: sigma^2 = 4 / rho.
  EXPECT_NEAR(s2, 4 / ZcdpForEpsilonDelta(4, 1e-5), 1e-4);
  ExpectFits(Fit(samples, GaussianWeight, s2, static_cast<int64_t>(60 * std::sqrt(s2)) + 2),
             "trainer noise");
  // Control: the same samples against 1.5 sigma^2 are rejected.
  const FitResult wrong =
      Fit(samples, GaussianWeight, 1.5 * s2, static_cast<int64_t>(60 * std::sqrt(s2)) + 2);
  EXPECT_GT(wrong.chi2, wrong.critical);
}

}  // namespace
}  // namespace pplda::privacy

// Statistical tests (label "statistical") of the Poisson sample of DP
// training with --dp-sample-rate (privacy/sampled_gaussian_rdp.h,
// PoissonSampleDocuments), fixed seeds, each check a chi-square test at the
// 10^-4 level (critical values from Wilson-Hilferty,
// tests/privacy/chi_square_test_util.h), so a false alarm about 10^-4 per
// check under the null:
//  - the inclusions are Bernoulli(q): pairs of consecutive documents fall in
//    the four cells (in, in), (in, out), (out, in), (out, out) with
//    probabilities q^2, q(1 - q), (1 - q) q, (1 - q)^2 (3 degrees of
//    freedom: the rate and the independence of neighbours at once), for
//    q = 0.5, 0.25, 0.1; for q = 2^-12 + 2^-40 (the smallest rates, still an
//    exact threshold) the rate alone (1 degree of freedom);
//  - the sampled release's noise: with one term per document and K = 1, the
//    released cell times q minus the sampled count is the discrete Gaussian
//    of the calibrated sigma (the second part of SampledNoisyCountRelease).
// Controls show the pair test rejects a rate off by 2% (power).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "lda/corpus.h"
#include "lda/gibbs_state.h"
#include "privacy/dp_count_training.h"
#include "privacy/sampled_gaussian_rdp.h"
#include "tests/privacy/chi_square_test_util.h"

namespace pplda::privacy {
namespace {

// Chi-square of consecutive pairs against Bernoulli(q) x Bernoulli(q).
double PairChiSquare(const std::vector<bool>& in, double q) {
  double observed[4] = {0, 0, 0, 0};
  for (size_t i = 0; i + 1 < in.size(); i += 2) {
    ++observed[(in[i] ? 0 : 2) + (in[i + 1] ? 0 : 1)];
  }
  const double pairs = static_cast<double>(in.size() / 2);
  const double expected[4] = {q * q * pairs, q * (1 - q) * pairs, (1 - q) * q * pairs,
                              (1 - q) * (1 - q) * pairs};
  double chi2 = 0;
  for (int c = 0; c < 4; ++c) {
    chi2 += (observed[c] - expected[c]) * (observed[c] - expected[c]) / expected[c];
  }
  return chi2;
}

TEST(PoissonSampleStat, InclusionsAreIndependentBernoulliOfTheRate) {
  const double critical = ChiSquareCritical(3);
  uint64_t seed = 101;
  for (double q : {0.5, 0.25, 0.1, 0x1p-12 + 0x1p-40}) {
    // At least 100 expected pairs in the rarest cell.
    const int32_t documents = q < 0.01 ? 1000000 : 400000;
    crypto::SeededRng rng(seed++);
    const std::vector<bool> in = PoissonSampleDocuments(documents, q, rng);
    ASSERT_EQ(in.size(), static_cast<size_t>(documents));
    if (q < 0.01) {
      // q^2 pairs are too rare to test in a fast test: the rate alone,
      // one degree of freedom.
      double included = 0;
      for (bool b : in) included += b;
      const double expected = q * documents;
      const double chi2 = (included - expected) * (included - expected) / expected +
                          (included - expected) * (included - expected) / (documents - expected);
      EXPECT_LT(chi2, ChiSquareCritical(1)) << "q " << q;
      continue;
    }
    const double chi2 = PairChiSquare(in, q);
    EXPECT_LT(chi2, critical) << "q " << q;
    // Control: the same sample is rejected for a rate 2% off.
    EXPECT_GT(PairChiSquare(in, q * 1.02), critical) << "q " << q;
  }
}

TEST(PoissonSampleStat, RateOneDrawsNothing) {
  crypto::SeededRng used(5), fresh(5);
  const std::vector<bool> in = PoissonSampleDocuments(1000, 1.0, used);
  for (bool b : in) EXPECT_TRUE(b);
  EXPECT_EQ(used.NextUint64(), fresh.NextUint64());  // the stream was not touched
}

// SampledNoisyCountRelease on K = 1, 50 terms, 20,000 one-token documents
// (400 per term), q = 1/2: replaying the seeded stream gives the sample (its
// first draws), and released cell / 2 minus the sampled count must be the
// noise, N_Z(0, sigma^2) at sigma^2 = 9 (counts near 200 >> 60 sigma: no
// clamping; N / q = 2 N is an integer, so no rounding).
TEST(PoissonSampleStat, SampledReleaseIsSampleCountsPlusTheGaussianOverQ) {
  const int terms = 50, documents = 20000;
  lda::Corpus corpus;
  for (int t = 0; t < terms; ++t) corpus.vocabulary.Add("w" + std::to_string(t));
  std::vector<std::vector<int>> topics;
  for (int d = 0; d < documents; ++d) {
    corpus.documents.push_back(lda::Document{"d" + std::to_string(d), {d % terms}});
    topics.push_back({0});
  }
  auto state = lda::GibbsState::Create(corpus, 1, topics);
  ASSERT_TRUE(state.ok()) << state.status();
  auto gaussian = DiscreteGaussian::Create(mpq_class(9));
  ASSERT_TRUE(gaussian.ok());
  std::vector<int64_t> samples;
  for (uint64_t seed = 700; seed < 1100; ++seed) {
    crypto::SeededRng rng(seed), replay(seed);
    const NoisyCounts release = SampledNoisyCountRelease(*state, 0.5, *gaussian, rng);
    const std::vector<bool> in = PoissonSampleDocuments(documents, 0.5, replay);
    std::vector<int64_t> sampled(terms, 0);
    for (int d = 0; d < documents; ++d) sampled[d % terms] += in[d];
    ASSERT_EQ(release.clamped_cells, 0);
    for (int t = 0; t < terms; ++t) {
      ASSERT_EQ(release.term_major[t] % 2, 0);  // 2 (C + Z)
      samples.push_back(release.term_major[t] / 2 - sampled[t]);
    }
  }
  ExpectFits(Fit(samples, GaussianWeight, 9.0, 60), "sampled release noise");
  const FitResult wrong = Fit(samples, GaussianWeight, 13.5, 60);
  EXPECT_GT(wrong.chi2, wrong.critical);
}

}  // namespace
}  // namespace pplda::privacy

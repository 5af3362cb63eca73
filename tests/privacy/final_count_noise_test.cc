// DP model release: noise of the calibrated variance on every cell (mean and
// variance against the calibration, on counts far from 0 so nothing is
// clamped), clamping at 0 counted, the cap check naming the document, and
// bad options.
#include "privacy/dp_model_release.h"

#include <cmath>

#include "crypto/secure_rng_testing.h"
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

// 2 x 5000 cells at 10^6, epsilon 4, L = 20: sigma = 25.92. Sample mean
// within 5 standard errors of 10^6 and sample variance within 5% (its sd is
// 1.4% at 10^4 cells): false alarm below 1e-6.
TEST(DpModelRelease, NoiseHasTheCalibratedVariance) {
  lda::LdaModel m = MakeModel(Terms(5000), 2, 0.1, 0.01, std::vector<int64_t>(10000, 1'000'000));
  DpModelOptions o;
  o.epsilon = 4;
  o.max_tokens_per_document = 20;
  crypto::SeededRng rng(7);
  auto noise = AddDpNoiseToCounts(o, rng, &m);
  ASSERT_TRUE(noise.ok()) << noise.status();
  auto expected = DiscreteGaussianVariance(20, 4, 1e-5);
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(noise->sigma_squared, *expected);
  EXPECT_NEAR(std::sqrt(noise->sigma_squared.get_d()), 25.9215, 1e-3);
  EXPECT_EQ(noise->cells, 10000);
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

TEST(DpModelRelease, NegativeCountsAreClampedAndCounted) {
  // All-zero counts: about half the cells come out negative (P[Z < 0] =
  // (1 - P[Z = 0]) / 2 ~ 0.49 at sigma 98); binomial bounds at 5 sd.
  lda::LdaModel m = MakeModel(Terms(2000), 2, 0.1, 0.01, std::vector<int64_t>(4000, 0));
  DpModelOptions o;
  o.epsilon = 1;
  o.max_tokens_per_document = 20;
  crypto::SeededRng rng(8);
  auto noise = AddDpNoiseToCounts(o, rng, &m);
  ASSERT_TRUE(noise.ok()) << noise.status();
  EXPECT_NEAR(noise->clamped_cells, 0.498 * 4000, 5 * std::sqrt(4000 * 0.25));
  int64_t zeros = 0;
  for (int64_t c : m.topic_term_counts) {
    EXPECT_GE(c, 0);
    zeros += c == 0;
  }
  EXPECT_GE(zeros, noise->clamped_cells);
  const DpRelease r = noise->Release();
  EXPECT_EQ(r.what, "topic_term_counts");
  EXPECT_EQ(r.epsilon, 1);
  EXPECT_EQ(r.parameters["clamped_cells"], noise->clamped_cells);
  EXPECT_NE(r.mechanism.find("L = 20"), std::string::npos) << r.mechanism;
}

TEST(DpModelRelease, CapCheckNamesTheDocument) {
  lda::Corpus c;
  c.vocabulary.Add("a");
  c.documents.push_back({"short", {0, 0}});
  c.documents.push_back({"long.txt#3", {0, 0, 0, 0}});
  EXPECT_TRUE(CheckDocumentCap(c, 4).ok());
  ExpectError(CheckDocumentCap(c, 3), absl::StatusCode::kFailedPrecondition,
              "document long.txt#3 has 4 tokens, more than the DP cap L = 3");
  ExpectError(CheckDocumentCap(c, 3), absl::StatusCode::kFailedPrecondition, "--max-tokens 3");
}

TEST(DpModelRelease, RejectsBadOptions) {
  lda::LdaModel m = MakeModel(Terms(2), 1, 0.1, 0.01, {1, 2});
  crypto::SeededRng rng(9);
  DpModelOptions o;  // L unset
  ExpectError(AddDpNoiseToCounts(o, rng, &m).status(), absl::StatusCode::kInvalidArgument,
              "capped at L tokens");
  o.max_tokens_per_document = 10;
  o.epsilon = -2;
  ExpectError(AddDpNoiseToCounts(o, rng, &m).status(), absl::StatusCode::kInvalidArgument,
              "DP model epsilon");
  o.epsilon = 1;
  o.delta = 0;
  ExpectError(AddDpNoiseToCounts(o, rng, &m).status(), absl::StatusCode::kInvalidArgument,
              "DP model delta");
  EXPECT_EQ(m.topic_term_counts, (std::vector<int64_t>{1, 2}));  // untouched on error
}

}  // namespace
}  // namespace pplda::privacy

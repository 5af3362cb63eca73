#include "privacy/dp_candidate_union.h"

#include <cmath>
#include <vector>

#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "privacy/zcdp_calibration.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;

lda::Vocabulary Terms(std::vector<std::string> terms) {
  return *lda::Vocabulary::FromTerms(std::move(terms));
}

// Candidates a..e; the corpus's own vocabulary is in another order and
// holds a term (z) that is no candidate.
TEST(CandidateHistogramTest, CountsDocumentsContributingEachCandidateUnderTheCap) {
  const lda::Vocabulary candidates = Terms({"a", "b", "c", "d", "e"});
  lda::Corpus corpus;
  corpus.vocabulary = Terms({"z", "e", "d", "c", "b", "a"});   // ids: z0 e1 d2 c3 b4 a5
  corpus.documents = {{"x0", {5, 5, 5, 4, 4, 0, 0, 0, 0, 3}},  // a3 b2 c1, z4 is no candidate
                      {"x1", {3, 2, 1, 3}},                    // c2, then d and e tie (d first)
                      {"x2", {0, 0}},                          // nothing
                      {"x3", {5}}};                            // a
  // N = 2: x0 -> a, b; x1 -> c, d; x3 -> a.
  EXPECT_EQ(CandidateHistogram(corpus, candidates, 2), (std::vector<int64_t>{2, 1, 1, 1, 0}));
  // N = 3: x0 adds c, x1 adds e.
  EXPECT_EQ(CandidateHistogram(corpus, candidates, 3), (std::vector<int64_t>{2, 1, 2, 1, 1}));
}

TEST(PlanCandidateUnionTest, CalibratesOneDistributedReleaseWithinTheBudget) {
  CandidateUnionOptions o;
  o.epsilon = 2;
  o.delta = 1e-5;
  o.max_terms_per_document = 20;
  auto plan = PlanCandidateUnion(o, 5000);
  ASSERT_TRUE(plan.ok()) << plan.status();
  // rho is the bound for n - t = 2 honest shares over U = 5000 cells.
  EXPECT_DOUBLE_EQ(plan->noise.composition.rho_per_release,
                   DistributedZcdp(20, 2, plan->noise.share_variance, 5000));
  EXPECT_EQ(plan->noise.parties, 3);
  EXPECT_EQ(plan->noise.coalition, 1);
  // The budget holds the truncation and the release, and the calibration
  // spends nearly all of it.
  auto accountant = PrivacyAccountant::WithBudget(2, 1e-5);
  ASSERT_TRUE(accountant.ok());
  ASSERT_TRUE(accountant->Record(plan->TruncationRelease()).ok());
  ASSERT_TRUE(accountant->Record(plan->Release()).ok());
  EXPECT_LE(accountant->epsilon(), 2.0);
  EXPECT_GE(accountant->epsilon(), 2.0 * (1 - 1e-3));
  // Default threshold: ceil(sqrt(2 n s^2 ln U)).
  EXPECT_EQ(
      plan->threshold,
      static_cast<int64_t>(std::ceil(
          std::sqrt(2 * 3 * plan->noise.share_variance.get_d() * std::log(5000.0)) * (1 + 1e-9))));
  o.threshold = 7;
  EXPECT_EQ(PlanCandidateUnion(o, 5000)->threshold, 7);
}

TEST(PlanCandidateUnionTest, MoreTermsPerDocumentNeedMoreNoise) {
  CandidateUnionOptions o;
  o.max_terms_per_document = 5;
  const mpq_class small = PlanCandidateUnion(o, 1000)->noise.share_variance;
  o.max_terms_per_document = 20;
  const mpq_class large = PlanCandidateUnion(o, 1000)->noise.share_variance;
  // s^2 scales with N (up to the 2^-20 rounding).
  EXPECT_NEAR(large.get_d() / small.get_d(), 4.0, 1e-3);
}

TEST(SelectCandidatesTest, SelectsCountsAtOrAboveTheThreshold) {
  CandidateUnionOptions o;
  o.threshold = 10;
  auto plan = PlanCandidateUnion(o, 4);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(*SelectCandidates(*plan, std::vector<int64_t>{9, 10, -3, 42}),
            (std::vector<lda::TermId>{1, 3}));
  ExpectError(SelectCandidates(*plan, std::vector<int64_t>{1, 2, 3}).status(),
              absl::StatusCode::kInvalidArgument, "3 values for 4 candidates");
}

TEST(CandidateNoiseSharesTest, OneClampedSharePerCandidate) {
  CandidateUnionOptions o;
  auto plan = PlanCandidateUnion(o, 2000);
  ASSERT_TRUE(plan.ok());
  crypto::SeededRng rng(5);
  auto z = CandidateNoiseShares(*plan, rng);
  ASSERT_TRUE(z.ok());
  ASSERT_EQ(z->size(), 2000u);
  double sum2 = 0;
  for (int64_t v : *z) {
    EXPECT_LE(std::abs(v), plan->noise.share_bound);
    sum2 += static_cast<double>(v) * static_cast<double>(v);
  }
  // Sample variance within 10% of s^2 (2000 draws: sd of the estimate ~3%).
  EXPECT_NEAR(sum2 / 2000 / plan->noise.share_variance.get_d(), 1.0, 0.1);
}

TEST(PlanCandidateUnionTest, RefusesBadOptionsNamingThem) {
  CandidateUnionOptions o;
  o.epsilon = 0;
  ExpectError(PlanCandidateUnion(o, 10).status(), absl::StatusCode::kInvalidArgument, "epsilon");
  o = CandidateUnionOptions();
  o.max_terms_per_document = 0;
  ExpectError(PlanCandidateUnion(o, 10).status(), absl::StatusCode::kInvalidArgument,
              "max terms per document");
  o = CandidateUnionOptions();
  o.parties = 0;
  ExpectError(PlanCandidateUnion(o, 10).status(), absl::StatusCode::kInvalidArgument,
              "compute parties");
  o = CandidateUnionOptions();
  o.coalition = 3;
  ExpectError(PlanCandidateUnion(o, 10).status(), absl::StatusCode::kInvalidArgument, "coalition");
  o = CandidateUnionOptions();
  o.threshold = -1;
  ExpectError(PlanCandidateUnion(o, 10).status(), absl::StatusCode::kInvalidArgument, "threshold");
  ExpectError(PlanCandidateUnion(CandidateUnionOptions(), 0).status(),
              absl::StatusCode::kInvalidArgument, "candidate list is empty");
}

}  // namespace
}  // namespace pplda::privacy

// Leave-one-out LiRA scoring on small hand-made zeta matrices: the score of
// a (target, document) pair recomputed from its shadows, the variance rule,
// labels, and the bad-input paths.
#include "privacy/lira_evaluation.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;

// zeta(j, d) = -10 d + 3 [d in j] + a small model-dependent wiggle.
ZetaMatrix MakeZeta(const MembershipPlan& plan) {
  ZetaMatrix z{plan.num_models(), plan.num_documents(), {}};
  for (int j = 0; j < plan.num_models(); ++j) {
    for (int32_t d = 0; d < plan.num_documents(); ++d) {
      z.values.push_back(-10.0 * d + (plan.IsMember(j, d) ? 3.0 : 0.0) +
                         0.1 * std::sin(1.0 + j * 7.0 + d * 3.0));
    }
  }
  return z;
}

TEST(LiraEvaluationTest, ScoresComeFromTheOtherModels) {
  auto plan = MembershipPlan::Create(9, 12, 3);
  ASSERT_TRUE(plan.ok());
  const ZetaMatrix zeta = MakeZeta(*plan);
  LiraOptions o;
  o.variance = VarianceMode::kPerDocument;
  auto e = EvaluateLira(zeta, *plan, o);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->targets, 9);
  EXPECT_EQ(e->shadows_per_target, 8);
  EXPECT_TRUE(e->per_document_variance);
  for (int j : {0, 4, 8}) {
    for (int32_t d : {0, 5, 11}) {
      std::vector<double> in, out;
      for (int i = 0; i < 9; ++i) {
        if (i != j) (plan->IsMember(i, d) ? in : out).push_back(zeta.at(i, d));
      }
      const GaussianFit fi = FitGaussian(in), fo = FitGaussian(out);
      const size_t index = static_cast<size_t>(j) * 12 + d;
      EXPECT_NEAR(e->online.scores[index],
                  OnlineLiraScore(zeta.at(j, d), fi.mean, fi.variance, fo.mean, fo.variance), 1e-9);
      EXPECT_NEAR(e->offline.scores[index], OfflineLiraScore(zeta.at(j, d), fo.mean, fo.variance),
                  1e-12);
      EXPECT_EQ(e->online.is_member[index], plan->IsMember(j, d));
    }
  }
  // Members sit 3 above non-members, the wiggle is 0.1: perfect separation.
  EXPECT_DOUBLE_EQ(e->online.auc, 1.0);
  EXPECT_DOUBLE_EQ(e->offline.tpr_at_0_1_percent_fpr, 1.0);
  EXPECT_EQ(e->online.roc.positives + e->online.roc.negatives, 9 * 12);
}

TEST(LiraEvaluationTest, FewShadowsUseThePooledVariance) {
  auto plan = MembershipPlan::Create(9, 12, 3);
  ASSERT_TRUE(plan.ok());
  const ZetaMatrix zeta = MakeZeta(*plan);
  auto e = EvaluateLira(zeta, *plan, LiraOptions());  // auto: 8 < 64 shadows
  ASSERT_TRUE(e.ok());
  EXPECT_FALSE(e->per_document_variance);
  // Recompute target 2's pooled out-variance and one offline score.
  const int j = 2;
  std::vector<GaussianFit> outs;
  for (int32_t d = 0; d < 12; ++d) {
    std::vector<double> out;
    for (int i = 0; i < 9; ++i) {
      if (i != j && !plan->IsMember(i, d)) out.push_back(zeta.at(i, d));
    }
    outs.push_back(FitGaussian(out));
  }
  const double pooled = PooledVariance(outs);
  EXPECT_NEAR(e->offline.scores[j * 12 + 7], OfflineLiraScore(zeta.at(j, 7), outs[7].mean, pooled),
              1e-12);
}

TEST(LiraEvaluationTest, ConstantZetaFallsBackAndStaysFinite) {
  auto plan = MembershipPlan::Create(5, 4, 1);
  ASSERT_TRUE(plan.ok());
  ZetaMatrix zeta{5, 4, std::vector<double>(20, -3.0)};
  LiraOptions o;
  o.variance = VarianceMode::kPerDocument;
  auto e = EvaluateLira(zeta, *plan, o);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->variance_fallbacks, 5 * 4 * 2);  // every fit has variance 0
  for (double s : e->online.scores) EXPECT_EQ(s, 0.0);
  EXPECT_DOUBLE_EQ(e->online.auc, 0.5);
}

TEST(LiraEvaluationTest, VarianceModeNames) {
  for (VarianceMode m : {VarianceMode::kAuto, VarianceMode::kPerDocument, VarianceMode::kGlobal}) {
    auto parsed = ParseVarianceMode(VarianceModeName(m));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, m);
  }
  ExpectError(ParseVarianceMode("local").status(), absl::StatusCode::kInvalidArgument, "\"local\"");
}

TEST(LiraEvaluationTest, RejectsMismatchedOrBadInput) {
  auto plan = MembershipPlan::Create(5, 4, 1);
  ASSERT_TRUE(plan.ok());
  ZetaMatrix wrong{5, 3, std::vector<double>(15, 0.0)};
  ExpectError(EvaluateLira(wrong, *plan, LiraOptions()).status(),
              absl::StatusCode::kInvalidArgument, "does not match the membership plan");
  ZetaMatrix nan{5, 4, std::vector<double>(20, 0.0)};
  nan.values[1 * 4 + 3] = std::nan("");
  ExpectError(EvaluateLira(nan, *plan, LiraOptions()).status(), absl::StatusCode::kInvalidArgument,
              "document 3 against model 1");
  auto two = MembershipPlan::Create(2, 4, 1);
  ASSERT_TRUE(two.ok());
  ExpectError(EvaluateLira(ZetaMatrix{2, 4, std::vector<double>(8, 0.0)}, *two, LiraOptions())
                  .status(),
              absl::StatusCode::kInvalidArgument, "at least 3 models");
  // With 3 models (one pair and an unpaired half), some document lacks an in
  // or an out shadow for some target.
  auto three = MembershipPlan::Create(3, 4, 1);
  ASSERT_TRUE(three.ok());
  ExpectError(EvaluateLira(ZetaMatrix{3, 4, std::vector<double>(12, 0.0)}, *three, LiraOptions())
                  .status(),
              absl::StatusCode::kInvalidArgument, "shadow model for target model");
}

TEST(DocumentExposureTest, SeparationOverAllModels) {
  auto plan = MembershipPlan::Create(8, 6, 2);
  ASSERT_TRUE(plan.ok());
  const ZetaMatrix zeta = MakeZeta(*plan);
  const std::vector<DocumentExposure> ex = DocumentExposures(zeta, *plan);
  ASSERT_EQ(ex.size(), 6u);
  for (int32_t d = 0; d < 6; ++d) {
    EXPECT_EQ(ex[d].in.n, 4);  // 4 pairs: in exactly one model of each
    EXPECT_EQ(ex[d].out.n, 4);
    EXPECT_NEAR(ex[d].in.mean - ex[d].out.mean, 3.0, 0.2);
    const double sd = std::sqrt((ex[d].in.variance + ex[d].out.variance) / 2);
    EXPECT_NEAR(ex[d].separation, (ex[d].in.mean - ex[d].out.mean) / sd, 1e-12);
  }
}

}  // namespace
}  // namespace pplda::privacy

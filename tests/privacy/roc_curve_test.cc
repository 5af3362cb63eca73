// ROC vertices, TPR at a false-positive budget, AUC (checked against the
// Mann-Whitney count), balanced accuracy and log-spaced sampling, on
// hand-made scores; every bad-input path.
#include "privacy/roc_curve.h"

#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;

TEST(RocCurveTest, VerticesOfAnInterleavedRanking) {
  const std::vector<double> scores = {0.9, 0.8, 0.7, 0.6};
  const std::vector<uint8_t> member = {1, 0, 1, 0};
  auto roc = ComputeRocCurve(scores, member);
  ASSERT_TRUE(roc.ok()) << roc.status();
  ASSERT_EQ(roc->points.size(), 5u);
  const std::vector<std::pair<double, double>> expected = {
      {0, 0}, {0, 0.5}, {0.5, 0.5}, {0.5, 1}, {1, 1}};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_DOUBLE_EQ(roc->points[i].fpr, expected[i].first) << i;
    EXPECT_DOUBLE_EQ(roc->points[i].tpr, expected[i].second) << i;
  }
  EXPECT_EQ(roc->positives, 2);
  EXPECT_EQ(roc->negatives, 2);
  EXPECT_DOUBLE_EQ(AreaUnderCurve(*roc), 0.75);
  EXPECT_DOUBLE_EQ(TprAtFpr(*roc, 0.0), 0.5);
  EXPECT_DOUBLE_EQ(TprAtFpr(*roc, 0.49), 0.5);
  EXPECT_DOUBLE_EQ(TprAtFpr(*roc, 0.5), 1.0);
  EXPECT_DOUBLE_EQ(BestBalancedAccuracy(*roc), 0.75);
}

TEST(RocCurveTest, TiesMoveBothRatesAtOnce) {
  const std::vector<double> scores = {1, 1, 0};
  const std::vector<uint8_t> member = {1, 0, 0};
  auto roc = ComputeRocCurve(scores, member);
  ASSERT_TRUE(roc.ok());
  ASSERT_EQ(roc->points.size(), 3u);
  EXPECT_DOUBLE_EQ(roc->points[1].fpr, 0.5);
  EXPECT_DOUBLE_EQ(roc->points[1].tpr, 1.0);
  EXPECT_DOUBLE_EQ(TprAtFpr(*roc, 0.1), 0.0);  // the tie cannot be split
  EXPECT_DOUBLE_EQ(AreaUnderCurve(*roc), 0.75);  // 1/2 (tie) * 1/2 + 1 * 1/2
}

TEST(RocCurveTest, PerfectSeparation) {
  const std::vector<double> scores = {5, 4, 1, 0};
  const std::vector<uint8_t> member = {1, 1, 0, 0};
  auto roc = ComputeRocCurve(scores, member);
  ASSERT_TRUE(roc.ok());
  EXPECT_DOUBLE_EQ(AreaUnderCurve(*roc), 1.0);
  EXPECT_DOUBLE_EQ(TprAtFpr(*roc, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(BestBalancedAccuracy(*roc), 1.0);
}

TEST(RocCurveTest, AreaEqualsTheMannWhitneyProbability) {
  std::mt19937_64 gen(3);
  std::uniform_int_distribution<int> level(0, 20);  // many ties
  std::bernoulli_distribution coin(0.4);
  std::vector<double> scores;
  std::vector<uint8_t> member;
  for (int i = 0; i < 400; ++i) {
    member.push_back(coin(gen));
    scores.push_back(level(gen) + (member.back() ? 2 : 0));
  }
  double wins = 0, pairs = 0;
  for (size_t i = 0; i < scores.size(); ++i) {
    for (size_t j = 0; j < scores.size(); ++j) {
      if (!member[i] || member[j]) continue;
      pairs += 1;
      wins += scores[i] > scores[j] ? 1.0 : (scores[i] == scores[j] ? 0.5 : 0.0);
    }
  }
  auto roc = ComputeRocCurve(scores, member);
  ASSERT_TRUE(roc.ok());
  EXPECT_NEAR(AreaUnderCurve(*roc), wins / pairs, 1e-12);
}

TEST(RocCurveTest, OneFalsePositiveInAThousandIsWithinTheBudget) {
  std::vector<double> scores = {10, 9};  // a member, then a non-member
  std::vector<uint8_t> member = {1, 0};
  for (int i = 0; i < 999; ++i) { scores.push_back(0); member.push_back(0); }
  scores.push_back(5);
  member.push_back(1);
  auto roc = ComputeRocCurve(scores, member);
  ASSERT_TRUE(roc.ok());
  EXPECT_EQ(roc->negatives, 1000);
  EXPECT_DOUBLE_EQ(TprAtFpr(*roc, 0.001), 1.0);
  EXPECT_DOUBLE_EQ(TprAtFpr(*roc, 0.0009), 0.5);
}

TEST(RocCurveTest, LogSpacedSamplesOfTheStepFunction) {
  const std::vector<double> scores = {0.9, 0.8, 0.7, 0.6};
  const std::vector<uint8_t> member = {1, 0, 1, 0};
  auto roc = ComputeRocCurve(scores, member);
  ASSERT_TRUE(roc.ok());
  const std::vector<RocPoint> s = SampleLogSpaced(*roc, 0.01, 1);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_DOUBLE_EQ(s[0].fpr, 0.01);
  EXPECT_DOUBLE_EQ(s[0].tpr, 0.5);
  EXPECT_NEAR(s[1].fpr, 0.1, 1e-15);
  EXPECT_DOUBLE_EQ(s[2].fpr, 1.0);
  EXPECT_DOUBLE_EQ(s[2].tpr, 1.0);
  EXPECT_EQ(SampleLogSpaced(*roc, 0.001, 20).size(), 61u);
  EXPECT_TRUE(SampleLogSpaced(*roc, 0, 20).empty());
}

TEST(RocCurveTest, RejectsBadInput) {
  const std::vector<double> two = {1, 2};
  const std::vector<uint8_t> one_label = {1};
  ExpectError(ComputeRocCurve(two, one_label).status(), absl::StatusCode::kInvalidArgument,
              "2 scores but 1 membership labels");
  const std::vector<double> nan = {1, std::nan("")};
  const std::vector<uint8_t> mixed = {1, 0};
  ExpectError(ComputeRocCurve(nan, mixed).status(), absl::StatusCode::kInvalidArgument,
              "score 1 is not a finite number");
  const std::vector<uint8_t> members = {1, 1};
  ExpectError(ComputeRocCurve(two, members).status(), absl::StatusCode::kInvalidArgument,
              "0 non-members");
  const std::vector<uint8_t> none = {0, 0};
  ExpectError(ComputeRocCurve(two, none).status(), absl::StatusCode::kInvalidArgument,
              "0 members");
}

}  // namespace
}  // namespace pplda::privacy

// report/topic_map.h: Jensen-Shannon divergence, the distance matrix, the
// Jacobi eigen-solver and classical MDS against configurations whose answer
// is known in closed form.
#include "report/topic_map.h"

#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::report {
namespace {

using ::pplda::crypto::testing::StatusIs;

TEST(JensenShannonDivergenceTest, ClosedForms) {
  const std::vector<double> p = {0.5, 0.5, 0}, q = {0, 0, 1}, r = {0.25, 0.25, 0.5};
  EXPECT_NEAR(JensenShannonDivergence(p, p), 0, 1e-15);
  // Disjoint supports: log 2.
  EXPECT_NEAR(JensenShannonDivergence(p, q), std::log(2.0), 1e-15);
  // p vs r: m = (3/8, 3/8, 1/4); KL(p||m) = log(4/3); KL(r||m) = 2 * 1/4 log(2/3) + 1/2 log 2.
  const double expected = 0.5 * (std::log(4.0 / 3) + 0.5 * std::log(2.0 / 3) + 0.5 * std::log(2.0));
  EXPECT_NEAR(JensenShannonDivergence(p, r), expected, 1e-15);
  EXPECT_NEAR(JensenShannonDivergence(r, p), expected, 1e-15);
}

TEST(TopicDistanceMatrixTest, SymmetricWithZeroDiagonal) {
  const std::vector<double> phi = {0.5, 0.5, 0, 0, 0, 1, 0.25, 0.25, 0.5};
  ASSERT_OK_AND_ASSIGN(std::vector<double> d, TopicDistanceMatrix(phi, 3));
  ASSERT_EQ(d.size(), 9u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(d[i * 3 + i], 0);
    for (int j = 0; j < 3; ++j) EXPECT_EQ(d[i * 3 + j], d[j * 3 + i]);
  }
  EXPECT_NEAR(d[1], std::log(2.0), 1e-15);
}

TEST(TopicDistanceMatrixTest, RejectsBadShapesAndTooManyTopics) {
  EXPECT_THAT(TopicDistanceMatrix(std::vector<double>{0.5, 0.5, 1}, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, "not K rows of 2 terms"));
  EXPECT_THAT(TopicDistanceMatrix(std::vector<double>{}, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, "not K rows"));
  const std::vector<double> many(kMaxMapTopics + 1, 1.0);
  EXPECT_THAT(TopicDistanceMatrix(many, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, "at most"));
}

TEST(EigenSymmetricTest, KnownMatrix) {
  // [[2, 1], [1, 2]]: eigenvalues 3 and 1, eigenvectors (1, 1)/sqrt 2 and (1, -1)/sqrt 2.
  const SymmetricEigen e = EigenSymmetric({2, 1, 1, 2}, 2);
  EXPECT_NEAR(e.values[0], 3, 1e-12);
  EXPECT_NEAR(e.values[1], 1, 1e-12);
  EXPECT_NEAR(std::abs(e.vectors[0 * 2 + 0]), std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(e.vectors[0 * 2 + 0], e.vectors[1 * 2 + 0], 1e-12);
  EXPECT_NEAR(e.vectors[0 * 2 + 1], -e.vectors[1 * 2 + 1], 1e-12);
}

TEST(EigenSymmetricTest, ReconstructsARandomishMatrix) {
  const int n = 6;
  std::vector<double> a(n * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) a[i * n + j] = a[j * n + i] = std::sin(1.0 + i * 7 + j * 3);
  }
  const SymmetricEigen e = EigenSymmetric(a, n);
  for (int i = 1; i < n; ++i) EXPECT_GE(e.values[i - 1], e.values[i]);
  // A = V diag(l) V'.
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += e.vectors[r * n + k] * e.values[k] * e.vectors[c * n + k];
      EXPECT_NEAR(s, a[r * n + c], 1e-10) << r << "," << c;
    }
  }
}

// Euclidean distances between points of a plane are reproduced exactly by
// classical MDS (up to rotation and reflection).
TEST(ClassicalMdsTest, RecoversAPlanarConfiguration) {
  const std::vector<MapPoint> truth = {{0, 0}, {4, 0}, {4, 1}, {0, 1}, {2, 3}};
  const int n = static_cast<int>(truth.size());
  std::vector<double> d(n * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      d[i * n + j] = std::hypot(truth[i].x - truth[j].x, truth[i].y - truth[j].y);
    }
  }
  ASSERT_OK_AND_ASSIGN(std::vector<MapPoint> map, ClassicalMds2d(d));
  ASSERT_EQ(map.size(), truth.size());
  double cx = 0, cy = 0;
  for (const MapPoint& p : map) cx += p.x / n, cy += p.y / n;
  EXPECT_NEAR(cx, 0, 1e-12);  // centred
  EXPECT_NEAR(cy, 0, 1e-12);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      EXPECT_NEAR(std::hypot(map[i].x - map[j].x, map[i].y - map[j].y), d[i * n + j], 1e-9);
    }
  }
}

TEST(ClassicalMdsTest, SignIsDeterministic) {
  // Three points on a line: one axis, the second coordinate 0, and the
  // entry of largest magnitude (point 2) positive.
  const std::vector<double> d = {0, 1, 3, 1, 0, 2, 3, 2, 0};
  ASSERT_OK_AND_ASSIGN(std::vector<MapPoint> map, ClassicalMds2d(d));
  EXPECT_NEAR(map[0].x, -4.0 / 3, 1e-12);
  EXPECT_NEAR(map[1].x, -1.0 / 3, 1e-12);
  EXPECT_NEAR(map[2].x, 5.0 / 3, 1e-12);
  for (const MapPoint& p : map) EXPECT_EQ(p.y, 0);
}

TEST(ClassicalMdsTest, OnePointAndIdenticalPoints) {
  ASSERT_OK_AND_ASSIGN(std::vector<MapPoint> one, ClassicalMds2d(std::vector<double>{0}));
  EXPECT_EQ(one[0].x, 0);
  ASSERT_OK_AND_ASSIGN(std::vector<MapPoint> same, ClassicalMds2d(std::vector<double>(4, 0.0)));
  EXPECT_EQ(same[0].x, 0);
  EXPECT_EQ(same[1].y, 0);
}

TEST(ClassicalMdsTest, RejectsBadMatrices) {
  EXPECT_THAT(ClassicalMds2d(std::vector<double>{0, 1, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument, "not a square matrix"));
  EXPECT_THAT(ClassicalMds2d(std::vector<double>{0, 1, 2, 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, "not symmetric"));
  EXPECT_THAT(ClassicalMds2d(std::vector<double>{0, -1, -1, 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, "not finite and >= 0"));
  EXPECT_THAT(ClassicalMds2d(std::vector<double>{0, NAN, NAN, 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, "not finite"));
}

TEST(TopicMapTest, SeparatedTopicsAreFarApart) {
  // Topics 0 and 1 share their words, topic 2 has its own.
  const std::vector<double> phi = {0.45, 0.45, 0.05, 0.05, 0.4,  0.5,
                                   0.05, 0.05, 0.02, 0.02, 0.48, 0.48};
  ASSERT_OK_AND_ASSIGN(std::vector<MapPoint> map, TopicMap(phi, 4));
  auto dist = [&](int a, int b) { return std::hypot(map[a].x - map[b].x, map[a].y - map[b].y); };
  EXPECT_LT(dist(0, 1), dist(0, 2) / 5);
  EXPECT_LT(dist(0, 1), dist(1, 2) / 5);
}

}  // namespace
}  // namespace pplda::report

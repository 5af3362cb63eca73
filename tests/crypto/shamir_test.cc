#include "crypto/mpc/shamir.h"

#include "absl/status/status.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

TEST(ShamirTest, CreateValidatesParameters) {
  EXPECT_TRUE(ShamirScheme::Create(3, 1).ok());
  EXPECT_TRUE(ShamirScheme::Create(5, 2).ok());
  auto too_few = ShamirScheme::Create(2, 1);
  EXPECT_EQ(too_few.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(too_few.status().message(), HasSubstr("number of parties is 2"));
  auto no_majority = ShamirScheme::Create(4, 2);
  EXPECT_EQ(no_majority.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(no_majority.status().message(), HasSubstr("threshold t = 2"));
  EXPECT_EQ(ShamirScheme::Create(3, 0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ShamirScheme::Create(65, 1).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ShamirTest, ShareAndReconstructFromAnySubset) {
  SeededRng rng(3);
  auto scheme = ShamirScheme::Create(5, 2).value();
  const FieldVector secrets = {FieldElement::Zero(), FieldElement::One(),
                               FieldElement::FromInt64(-1), FieldElement::FromUint64(424242)};
  const std::vector<FieldVector> shares = scheme.Share(secrets, 2, rng);
  ASSERT_EQ(shares.size(), 5u);
  // Every subset of 3 parties reconstructs; the others are left empty.
  for (int mask = 0; mask < 32; ++mask) {
    if (__builtin_popcount(mask) != 3) continue;
    std::vector<FieldVector> subset(5);
    for (int j = 0; j < 5; ++j) {
      if (mask & (1 << j)) subset[j] = shares[j];
    }
    auto got = scheme.Reconstruct(subset, 2);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, secrets) << mask;
  }
  // With all five, the two extra shares are checked and accepted.
  auto all = scheme.Reconstruct(shares, 2);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, secrets);
}

TEST(ShamirTest, DegreeZeroSharingIsTheConstant) {
  SeededRng rng(4);
  auto scheme = ShamirScheme::Create(3, 1).value();
  const FieldVector secrets = {FieldElement::FromUint64(9)};
  auto shares = scheme.Share(secrets, 0, rng);
  for (const FieldVector& s : shares) EXPECT_EQ(s[0], secrets[0]);
}

TEST(ShamirTest, InconsistentShareIsRejectedNamingTheParty) {
  SeededRng rng(5);
  auto scheme = ShamirScheme::Create(5, 2).value();
  const FieldVector secrets = {FieldElement::FromUint64(1), FieldElement::FromUint64(2)};
  std::vector<FieldVector> shares = scheme.Share(secrets, 2, rng);
  shares[4][1] += FieldElement::One();
  auto got = scheme.Reconstruct(shares, 2);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(got.status().message(), HasSubstr("party 4's share of element 1"));
}

TEST(ShamirTest, ReconstructRejectsTooFewOrUnequalShares) {
  SeededRng rng(6);
  auto scheme = ShamirScheme::Create(3, 1).value();
  const FieldVector secrets = {FieldElement::FromUint64(1), FieldElement::FromUint64(2)};
  std::vector<FieldVector> shares = scheme.Share(secrets, 1, rng);
  std::vector<FieldVector> one = {shares[0], {}, {}};
  auto got = scheme.Reconstruct(one, 1);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(got.status().message(), HasSubstr("needs 2 parties' shares, got 1"));
  shares[2].pop_back();
  got = scheme.Reconstruct(shares, 1);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(got.status().message(), HasSubstr("party 2 gave 1 shares"));
  got = scheme.Reconstruct(absl::MakeConstSpan(shares).subspan(0, 2), 1);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ShamirTest, LagrangeCoefficientsInterpolate) {
  // f(x) = 3 + 2x + x^2 at x = 1, 2, 3; f(0) = 3, f(5) = 38.
  const FieldVector xs = {FieldElement::FromUint64(1), FieldElement::FromUint64(2),
                          FieldElement::FromUint64(3)};
  const FieldVector ys = {FieldElement::FromUint64(6), FieldElement::FromUint64(11),
                          FieldElement::FromUint64(18)};
  for (auto [at, want] : {std::pair<int, int>{0, 3}, {5, 38}}) {
    const FieldVector c = LagrangeCoefficients(xs, FieldElement::FromUint64(at));
    FieldElement got = FieldElement::Zero();
    for (int i = 0; i < 3; ++i) got += c[i] * ys[i];
    EXPECT_EQ(got.ToSigned(), want);
  }
}

TEST(ShamirTest, ProductOfSharesIsADegree2tSharingOfTheProduct) {
  SeededRng rng(7);
  auto scheme = ShamirScheme::Create(5, 2).value();
  const FieldVector a = {FieldElement::FromInt64(-6)}, b = {FieldElement::FromInt64(7)};
  auto sa = scheme.Share(a, 2, rng), sb = scheme.Share(b, 2, rng);
  std::vector<FieldVector> prod(5);
  for (int j = 0; j < 5; ++j) prod[j] = {sa[j][0] * sb[j][0]};
  auto got = scheme.Reconstruct(prod, 4);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ((*got)[0].ToSigned(), -42);
}

}  // namespace
}  // namespace pplda::crypto

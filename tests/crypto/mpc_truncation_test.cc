#include "crypto/mpc/mpc_truncation.h"

#include <cmath>

#include "absl/status/status.h"
#include "crypto/mpc/mpc_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

using UnaryOp = std::function<absl::StatusOr<Shares>(MpcEngine&, const Shares&)>;

absl::StatusOr<FieldVector> RunUnary(MpcTestbed& bed, const FieldVector& x, const UnaryOp& op) {
  auto sx = bed.Share(x);
  std::vector<Shares> out(bed.num_parties());
  RETURN_IF_ERROR(bed.Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(out[e.party_id()], op(e, sx[e.party_id()]));
    return absl::OkStatus();
  }));
  return bed.Reveal(out);
}

int128 FloorDiv(int128 x, int m) {
  const int128 d = static_cast<int128>(1) << m;
  return x >= 0 ? x / d : -((-x + d - 1) / d);
}

TEST(TruncationTest, ExactTruncMatchesFloorDivision) {
  auto bed = MpcTestbed::Create(3, 1, 21).value();
  SeededRng rng(22);
  const int k = 83;  // the bit limit for t = 1, sigma = 40
  FieldVector x = RandomBoundedVector(rng, 40, k);
  x.push_back(FieldElement::Zero());
  x.push_back(FieldElement::FromUint128((uint128{1} << k) - 1));
  x.push_back(FieldElement::FromUint128(uint128{1} << 40));
  for (int m : {1, 16, 40, 82, 83}) {
    auto got = RunUnary(*bed, x, [&](MpcEngine& e, const Shares& v) { return Trunc(e, v, k, m); });
    ASSERT_TRUE(got.ok()) << got.status();
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ((*got)[i].value(), x[i].value() >> m) << "m=" << m << " i=" << i;
    }
  }
}

TEST(TruncationTest, SignedTruncRoundsTowardMinusInfinity) {
  auto bed = MpcTestbed::Create(5, 2, 23).value();
  const int k = 50;
  const std::vector<int64_t> values = {0, 1, -1, 7, -7, 8, -8, (1LL << 49) - 1, -(1LL << 49),
                                       123456789, -123456789};
  FieldVector x;
  for (int64_t v : values) x.push_back(FieldElement::FromInt64(v));
  for (int m : {1, 3, 20, 49}) {
    auto got = RunUnary(*bed, x, [&](MpcEngine& e, const Shares& v) {
      return TruncSigned(e, v, k, m);
    });
    ASSERT_TRUE(got.ok()) << got.status();
    for (size_t i = 0; i < values.size(); ++i) {
      EXPECT_EQ((*got)[i].ToSigned(), FloorDiv(values[i], m)) << values[i] << " m=" << m;
    }
  }
}

TEST(TruncationTest, ProbabilisticTruncIsFloorOrCeilingAndUnbiased) {
  auto bed = MpcTestbed::Create(3, 1, 24).value();
  // 4000 copies of x = 2^20 * 5 + 2^18 (fraction 1/4) and of -x (signed).
  const int k = 40, m = 20;
  const int64_t v = (5LL << 20) + (1LL << 18);
  FieldVector x(4000, FieldElement::FromInt64(v));
  auto got = RunUnary(*bed, x, [&](MpcEngine& e, const Shares& s) { return TruncPr(e, s, k, m); });
  ASSERT_TRUE(got.ok()) << got.status();
  int ups = 0;
  for (FieldElement r : *got) {
    ASSERT_TRUE(r.value() == 5 || r.value() == 6) << r.ToString();
    ups += r.value() == 6;
  }
  // Binomial(4000, 1/4): sd ~ 27.4; 5 sd, two-sided error < 1e-6.
  EXPECT_NEAR(ups, 1000, 137);
  FieldVector neg(2000, FieldElement::FromInt64(-v));
  got = RunUnary(*bed, neg, [&](MpcEngine& e, const Shares& s) {
    return TruncPrSigned(e, s, k, m);
  });
  ASSERT_TRUE(got.ok()) << got.status();
  int downs = 0;
  for (FieldElement r : *got) {
    ASSERT_TRUE(r.ToSigned() == -6 || r.ToSigned() == -5) << r.ToString();
    downs += r.ToSigned() == -6;
  }
  // -v / 2^20 = -5.25: floor -6 with the missing fraction 3/4 rounding up.
  EXPECT_NEAR(downs, 500, 100);  // Binomial(2000, 1/4): sd ~ 19.4
  // TruncPr costs the mask rounds (2) plus one opening, after the engine's
  // one key agreement (pseudo-random high masks).
  auto fresh = MpcTestbed::Create(3, 1, 25).value();
  ASSERT_TRUE(RunUnary(*fresh, x, [&](MpcEngine& e, const Shares& s) {
    return TruncPr(e, s, k, m);
  }).ok());
  EXPECT_EQ(fresh->engine(0).rounds(), 4u);
}

TEST(TruncationTest, RangesAreValidated) {
  auto bed = MpcTestbed::Create(3, 1, 26).value();
  absl::Status s = bed->Run([](MpcEngine& e) { return Trunc(e, Shares(1), 85, 2).status(); });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Trunc: need 1 <= m <= k <= 84, got k = 85"));
  s = bed->Run([](MpcEngine& e) { return TruncPr(e, Shares(1), 10, 0).status(); });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("TruncPr"));
  s = bed->Run([](MpcEngine& e) { return TruncSigned(e, Shares(1), 10, 10).status(); });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("TruncSigned: need 1 <= m < k"));
}

}  // namespace
}  // namespace pplda::crypto

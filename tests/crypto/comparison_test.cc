#include "crypto/mpc/comparison.h"

#include <functional>

#include "absl/status/status.h"
#include "crypto/mpc/mpc_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

using BinaryOp = std::function<absl::StatusOr<Shares>(MpcEngine&, const Shares&, const Shares&)>;

// Shares a and b with the test dealer, runs op on every party, reveals.
absl::StatusOr<FieldVector> RunBinary(MpcTestbed& bed, const FieldVector& a,
                                      const FieldVector& b, const BinaryOp& op) {
  auto sa = bed.Share(a), sb = bed.Share(b);
  std::vector<Shares> out(bed.num_parties());
  RETURN_IF_ERROR(bed.Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(out[e.party_id()], op(e, sa[e.party_id()], sb[e.party_id()]));
    return absl::OkStatus();
  }));
  return bed.Reveal(out);
}

FieldElement U(uint128 v) { return FieldElement::FromUint128(v); }
uint128 Max(int bits) { return (uint128{1} << bits) - 1; }

// Pairs covering 0, max, equal values, neighbours and random values in
// [0, 2^bits).
void EdgeAndRandomPairs(int bits, SecureRng& rng, FieldVector& a, FieldVector& b) {
  const uint128 max = Max(bits);
  const std::vector<std::pair<uint128, uint128>> edges = {
      {0, 0}, {0, 1}, {1, 0}, {max, max}, {0, max}, {max, 0}, {max - 1, max},
      {max, max - 1}, {max / 2, max / 2 + 1}, {max / 2 + 1, max / 2}, {5, 5}};
  for (auto [x, y] : edges) {
    a.push_back(U(x & max));
    b.push_back(U(y & max));
  }
  FieldVector ra = RandomBoundedVector(rng, 60, bits), rb = RandomBoundedVector(rng, 60, bits);
  a.insert(a.end(), ra.begin(), ra.end());
  b.insert(b.end(), rb.begin(), rb.end());
  // Pairs that agree in their high bits and differ only at the bottom.
  for (int i = 0; i < 10; ++i) {
    a.push_back(ra[i]);
    b.push_back(U((ra[i].value() ^ 1) & max));
  }
}

class ComparisonTest : public ::testing::TestWithParam<int> {};

INSTANTIATE_TEST_SUITE_P(Bits, ComparisonTest, ::testing::Values(1, 2, 7, 32, 64, 82));

TEST_P(ComparisonTest, LessThanAndEqualMatchPlaintextOnEdgeAndRandomInputs) {
  const int bits = GetParam();
  auto bed = MpcTestbed::Create(3, 1, 100 + bits).value();
  SeededRng rng(200 + bits);
  FieldVector a, b;
  EdgeAndRandomPairs(bits, rng, a, b);
  auto lt = RunBinary(*bed, a, b, [&](MpcEngine& e, const Shares& x, const Shares& y) {
    return LessThan(e, x, y, bits);
  });
  ASSERT_TRUE(lt.ok()) << lt.status();
  auto eq = RunBinary(*bed, a, b, [&](MpcEngine& e, const Shares& x, const Shares& y) {
    return Equal(e, x, y, bits);
  });
  ASSERT_TRUE(eq.ok()) << eq.status();
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ((*lt)[i].value(), a[i].value() < b[i].value() ? 1u : 0u)
        << a[i].ToString() << " < " << b[i].ToString();
    EXPECT_EQ((*eq)[i].value(), a[i].value() == b[i].value() ? 1u : 0u)
        << a[i].ToString() << " == " << b[i].ToString();
  }
}

TEST(ComparisonTest, SignedOperandsAndFivePartiesAtTheirBitLimit) {
  auto bed = MpcTestbed::Create(5, 2, 3).value();
  const int bits = bed->config().max_comparison_bits();  // 81 for t = 2
  EXPECT_EQ(bits, 81);
  const int128 half = static_cast<int128>(1) << (bits - 1);
  // Signed operands in [-2^(l-1), 2^(l-1)): |a - b| < 2^l.
  const std::vector<std::pair<int128, int128>> pairs = {
      {-half, half - 1}, {half - 1, -half}, {-1, 0}, {0, -1}, {-5, -5}, {-half, -half},
      {-7, 3}, {3, -7}};
  FieldVector a, b;
  for (auto [x, y] : pairs) {
    a.push_back(FieldElement::FromInt128(x));
    b.push_back(FieldElement::FromInt128(y));
  }
  auto lt = RunBinary(*bed, a, b, [&](MpcEngine& e, const Shares& x, const Shares& y) {
    return LessThan(e, x, y, bits);
  });
  auto eq = RunBinary(*bed, a, b, [&](MpcEngine& e, const Shares& x, const Shares& y) {
    return Equal(e, x, y, bits);
  });
  ASSERT_TRUE(lt.ok() && eq.ok());
  for (size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_EQ((*lt)[i].value(), pairs[i].first < pairs[i].second ? 1u : 0u) << i;
    EXPECT_EQ((*eq)[i].value(), pairs[i].first == pairs[i].second ? 1u : 0u) << i;
  }
}

TEST(ComparisonTest, FullRangeLessThanUses126BitOperands) {
  auto bed = MpcTestbed::Create(3, 1, 4).value();
  SeededRng rng(5);
  const uint128 top = (uint128{1} << 126) - 2;  // largest operand: (p-1)/2 - 1
  FieldVector a = {U(0), U(top), U(top - 1), U(top), U(0), U(1) , U(top / 2)};
  FieldVector b = {U(0), U(top), U(top), U(top - 1), U(top), U(0), U(top / 2 + 1)};
  FieldVector ra = RandomBoundedVector(rng, 40, 126), rb = RandomBoundedVector(rng, 40, 126);
  for (size_t i = 0; i < ra.size(); ++i) {
    a.push_back(U(ra[i].value() % (top + 1)));
    b.push_back(U(rb[i].value() % (top + 1)));
  }
  auto lt = RunBinary(*bed, a, b, [&](MpcEngine& e, const Shares& x, const Shares& y) {
    return LessThanFullRange(e, x, y);
  });
  ASSERT_TRUE(lt.ok()) << lt.status();
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ((*lt)[i].value(), a[i].value() < b[i].value() ? 1u : 0u) << i;
  }
}

TEST(ComparisonTest, Mod2mAndBitLessThanMatchPlaintext) {
  auto bed = MpcTestbed::Create(3, 1, 6).value();
  SeededRng rng(7);
  const int k = 60;
  FieldVector x = RandomBoundedVector(rng, 50, k);
  x.push_back(U(0));
  x.push_back(U(Max(k)));
  x.push_back(U(uint128{1} << 20));
  for (int m : {1, 5, 20, 59, 60}) {
    auto got = RunBinary(*bed, x, x, [&](MpcEngine& e, const Shares& v, const Shares&) {
      return Mod2m(e, v, k, m);
    });
    ASSERT_TRUE(got.ok()) << got.status();
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ((*got)[i].value(), x[i].value() & Max(m)) << "m=" << m << " i=" << i;
    }
  }
}

TEST(ComparisonTest, BitLessThanOnPublicValuesAndSharedBits) {
  auto bed = MpcTestbed::Create(3, 1, 8).value();
  const int m = 9;
  // r values, bit-shared by the dealer; c public.
  const std::vector<uint128> r = {0, 511, 256, 255, 100, 3};
  const std::vector<uint128> c = {0, 511, 255, 256, 101, 3};
  FieldVector bits;
  for (uint128 v : r) {
    for (int i = 0; i < m; ++i) bits.push_back(U((v >> i) & 1));
  }
  auto shared = bed->Share(bits);
  std::vector<Shares> out(3);
  // The engine's one key agreement (pseudo-random sharing) comes first.
  ASSERT_TRUE(bed->Run([](MpcEngine& e) { return e.Random(1).status(); }).ok());
  bed->network().ResetStats();
  ASSERT_TRUE(bed->Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(out[e.party_id()], BitLessThan(e, c, shared[e.party_id()], m));
    return absl::OkStatus();
  }).ok());
  FieldVector got = bed->Reveal(out).value();
  for (size_t i = 0; i < r.size(); ++i) EXPECT_EQ(got[i].value(), c[i] < r[i] ? 1u : 0u) << i;
  // ceil(log2 9) = 4 multiplication rounds.
  EXPECT_EQ(bed->network().Stats().rounds, 4u);
}

TEST(ComparisonTest, RoundsAreIndependentOfBatchSize) {
  for (size_t count : {1, 300}) {
    auto bed = MpcTestbed::Create(3, 1, 9).value();
    FieldVector a(count, U(3)), b(count, U(4));
    ASSERT_TRUE(RunBinary(*bed, a, b, [&](MpcEngine& e, const Shares& x, const Shares& y) {
      return LessThan(e, x, y, 32);
    }).ok());
    // Key agreement for the pseudo-random high masks (1, once per engine)
    // + masks (2) + open (1) + ceil(log2 32) = 5 tree rounds.
    EXPECT_EQ(bed->engine(0).rounds(), 9u) << count;
  }
}

TEST(ComparisonTest, PrecomputedMasksSaveTheirRounds) {
  auto bed = MpcTestbed::Create(3, 1, 10).value();
  FieldVector a = {U(1), U(9)}, b = {U(2), U(2)};
  auto sa = bed->Share(a), sb = bed->Share(b);
  std::vector<Shares> out(3);
  ASSERT_TRUE(bed->Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(auto masks, e.GenerateMasks({LessThanMaskSpec(e.config(), 2, 16),
                                                  EqualMaskSpec(e.config(), 2, 16)}));
    const uint64_t before = e.rounds();
    ASSIGN_OR_RETURN(Shares lt, LessThan(e, sa[e.party_id()], sb[e.party_id()], 16, masks[0]));
    ASSIGN_OR_RETURN(Shares eq, Equal(e, sa[e.party_id()], sb[e.party_id()], 16, masks[1]));
    if (e.rounds() - before != 10) return absl::InternalError("unexpected round count");
    lt.Append(eq);
    out[e.party_id()] = lt;
    return absl::OkStatus();
  }).ok());
  FieldVector got = bed->Reveal(out).value();
  EXPECT_EQ(got[0].value(), 1u);
  EXPECT_EQ(got[1].value(), 0u);
  EXPECT_EQ(got[2].value(), 0u);
  EXPECT_EQ(got[3].value(), 0u);
}

TEST(ComparisonTest, BadArgumentsAreRejectedWithClearMessages) {
  auto bed = MpcTestbed::Create(3, 1, 11).value();
  auto check = [&](const std::function<absl::Status(MpcEngine&)>& fn, const char* text) {
    absl::Status s = bed->Run(fn);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_THAT(s.message(), HasSubstr(text));
  };
  check([](MpcEngine& e) { return LessThan(e, Shares(2), Shares(2), 84).status(); },
        "LessThan: bit length 84 is outside [1, 83]");
  check([](MpcEngine& e) { return Equal(e, Shares(2), Shares(2), 0).status(); },
        "Equal: bit length 0");
  check([](MpcEngine& e) { return LessThan(e, Shares(2), Shares(3), 8).status(); },
        "operands have 2 and 3 elements");
  check([](MpcEngine& e) { return Mod2m(e, Shares(2), 85, 3).status(); },
        "Mod2m: need 1 <= m <= k <= 84, got k = 85");
  check([](MpcEngine& e) {
    MaskBatch wrong;
    wrong.spec = MaskSpec{2, 8, 3, true};
    return LessThan(e, Shares(2), Shares(2), 16, wrong).status();
  }, "masks were generated for 2 elements with 8 low / 3 high bits");
  check([](MpcEngine& e) {
    return BitLessThan(e, std::vector<uint128>{1, 2}, Shares(3), 2).status();
  }, "BitLessThan: 3 bit shares for 2 values of 2 bits");
}

}  // namespace
}  // namespace pplda::crypto

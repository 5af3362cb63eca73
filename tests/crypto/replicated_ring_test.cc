#include "crypto/mpc/replicated_ring.h"

#include <functional>
#include <random>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "crypto/mpc/mpc_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

constexpr int kParties = 3;

uint128 Random128(std::mt19937_64& gen) { return (uint128{gen()} << 64) | gen(); }

// Test-dealer replicated shares of `values`: [p] is party p's (x_p, x_{p+1}).
std::vector<RingShares> ShareRing(const std::vector<uint128>& values, std::mt19937_64& gen) {
  std::vector<RingShares> out(kParties);
  for (uint128 v : values) {
    const uint128 x0 = Random128(gen), x1 = Random128(gen), x2 = v - x0 - x1;
    const uint128 comp[kParties] = {x0, x1, x2};
    for (int p = 0; p < kParties; ++p) {
      out[p].own.push_back(comp[p]);
      out[p].next.push_back(comp[(p + 1) % kParties]);
    }
  }
  return out;
}

// Sum of the components, checking that each is held consistently by its two
// parties.
std::vector<uint128> RevealRing(const std::vector<RingShares>& by_party) {
  std::vector<uint128> out(by_party[0].size());
  for (size_t e = 0; e < out.size(); ++e) {
    for (int p = 0; p < kParties; ++p) {
      EXPECT_EQ(by_party[p].next[e], by_party[(p + 1) % kParties].own[e]) << "element " << e;
      out[e] += by_party[p].own[e];
    }
  }
  return out;
}

// A 3-party testbed whose engines have already agreed their pair keys
// (MpcEngine::SharedRandomness, one exchange on first use): a test that
// makes every party fail at once must not leave a peer blocked in that
// exchange, which the testbed would then abort (ABORTED instead of the
// error under test, depending on thread timing).
std::unique_ptr<MpcTestbed> Bed(uint64_t seed) {
  auto bed = MpcTestbed::Create(kParties, 1, seed);
  EXPECT_TRUE(bed.ok()) << bed.status();
  const absl::Status keys = (*bed)->Run(
      [](MpcEngine& e) -> absl::Status { return e.SharedRandomness().status(); });
  EXPECT_TRUE(keys.ok()) << keys;
  return *std::move(bed);
}

// Runs fn(ring of p, p) at every party.
absl::Status RunRing(MpcTestbed& bed,
                     const std::function<absl::Status(ReplicatedRing&, int)>& fn) {
  return bed.Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(ReplicatedRing ring, ReplicatedRing::Create(e));
    return fn(ring, e.party_id());
  });
}

TEST(ReplicatedRingTest, RefusesConfigsWithoutThreePairKeys) {
  auto five = MpcTestbed::Create(5, 2, 1);
  ASSERT_TRUE(five.ok());
  EXPECT_EQ(ReplicatedRing::Create((*five)->engine(0)).status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto dealt = MpcTestbed::Create(3, 1, 1, MpcConfig::kDefaultSigma,
                                  MpcConfig::SharedRandomness::kDealt);
  ASSERT_TRUE(dealt.ok());
  const absl::Status status = ReplicatedRing::Create((*dealt)->engine(0)).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr("dealt randomness"));
}

TEST(ReplicatedRingTest, FromFieldGivesTheSameIntegers) {
  auto bed = Bed(7);
  std::mt19937_64 gen(11);
  for (int bits : {1, 20, 64, 85}) {
    FieldVector values;
    const uint128 top = (uint128{1} << bits) - 1;
    for (uint128 v : {uint128{0}, uint128{1} & top, top, top - (top > 0 ? 1 : 0)}) {
      values.push_back(FieldElement::FromUint128(v));
    }
    for (int i = 0; i < 50; ++i) values.push_back(FieldElement::FromUint128(Random128(gen) & top));
    const std::vector<Shares> shares = bed->Share(values);
    std::vector<RingShares> ring(kParties);
    ASSERT_TRUE(RunRing(*bed, [&](ReplicatedRing& r, int p) -> absl::Status {
                  ASSIGN_OR_RETURN(ring[p], r.FromField(shares[p], bits));
                  return absl::OkStatus();
                }).ok());
    const std::vector<uint128> got = RevealRing(ring);
    for (size_t e = 0; e < values.size(); ++e) {
      EXPECT_TRUE(got[e] == values[e].value()) << "bits " << bits << " element " << e;
    }
  }
}

TEST(ReplicatedRingTest, FromFieldRejectsWidthsAndInconsistentShares) {
  auto bed = Bed(8);
  const std::vector<Shares> shares = bed->ShareIntegers({5, 6, 7});
  for (int bits : {0, 86}) {
    const absl::Status status = RunRing(*bed, [&](ReplicatedRing& r, int p) {
      return r.FromField(shares[p], bits).status();
    });
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bits;
  }
  // Party 1's share of every element is off by 2^126: the opened values
  // fall outside their range at its partners.
  auto fresh = Bed(9);
  std::vector<Shares> bad = fresh->ShareIntegers({5, 6, 7});
  for (size_t e = 0; e < 3; ++e) bad[1][e] += FieldElement::PowerOfTwo(126);
  const absl::Status status = RunRing(*fresh, [&](ReplicatedRing& r, int p) {
    return r.FromField(bad[p], 20).status();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("inconsistent shares"));
}

// The two parties of a component learn c = x + r from the shares they
// exchange; r is as wide as the mask (bits + sigma bits), so c is not x
// or a small offset of it. The third party receives nothing for it.
TEST(ReplicatedRingTest, FromFieldOpensOnlyMaskedValues) {
  auto bed = Bed(10);
  const int bits = 16, sigma = bed->config().sigma();
  const int64_t x = 1234;
  const size_t count = 300;
  const std::vector<Shares> shares = bed->ShareIntegers(std::vector<int64_t>(count, x));
  ASSERT_TRUE(bed->Run([](MpcEngine& e) { return e.Random(1).status(); }).ok());
  for (int p = 0; p < kParties; ++p) bed->recorder(p).set_recording(true);
  std::vector<RingShares> ring(kParties);
  ASSERT_TRUE(RunRing(*bed, [&](ReplicatedRing& r, int p) -> absl::Status {
                ASSIGN_OR_RETURN(ring[p], r.FromField(shares[p], bits));
                return absl::OkStatus();
              }).ok());
  // shares_from[to][from]: the shares `to` received from `from`, in order.
  std::vector<std::vector<FieldVector>> shares_from(kParties, std::vector<FieldVector>(kParties));
  for (int p = 0; p < kParties; ++p) {
    ASSERT_EQ(bed->recorder(p).received().size(), 2u) << "party " << p;
    for (const auto& message : bed->recorder(p).received()) {
      auto values = DecodeFieldVector(message.payload, message.payload.size() / 16, "test");
      ASSERT_TRUE(values.ok());
      shares_from[p][message.from] = *values;
    }
  }
  size_t wide = 0;
  for (int j = 0; j < kParties; ++j) {
    const int a = (j + 2) % kParties, b = j;  // component j's pair {j - 1, j}
    const FieldVector lambda = LagrangeCoefficients(
        std::vector<FieldElement>{ShamirScheme::PointOf(a), ShamirScheme::PointOf(b)},
        FieldElement::Zero());
    const FieldVector& share_a = shares_from[b][a];  // a's shares, as b received them
    const FieldVector& share_b = shares_from[a][b];
    ASSERT_EQ(share_a.size(), count / kParties);
    ASSERT_EQ(share_b.size(), count / kParties);
    for (size_t i = 0; i < share_a.size(); ++i) {
      const uint128 c = (lambda[0] * share_a[i] + lambda[1] * share_b[i]).value();
      ASSERT_TRUE(c >= static_cast<uint128>(x));
      const uint128 mask = c - static_cast<uint128>(x);
      EXPECT_TRUE(mask < (uint128{3} << (bits + sigma))) << "component " << j << " item " << i;
      wide += (mask >> (bits + sigma - 8)) != 0;
    }
  }
  EXPECT_GT(wide, count * 9 / 10) << "masks of bits + sigma bits (each below 2^-8 wide w.p. 2^-8)";
  for (const uint128 v : RevealRing(ring)) EXPECT_TRUE(v == static_cast<uint128>(x));
}

TEST(ReplicatedRingTest, MulIsExactModulo2To128) {
  auto bed = Bed(12);
  std::mt19937_64 gen(13);
  std::vector<uint128> a, b;
  for (int i = 0; i < 200; ++i) {
    a.push_back(Random128(gen));
    b.push_back(Random128(gen));
  }
  a.push_back(0), b.push_back(Random128(gen));
  a.push_back(~uint128{0}), b.push_back(~uint128{0});
  const std::vector<RingShares> sa = ShareRing(a, gen), sb = ShareRing(b, gen);
  std::vector<RingShares> product(kParties);
  ASSERT_TRUE(RunRing(*bed, [&](ReplicatedRing& r, int p) -> absl::Status {
                ASSIGN_OR_RETURN(product[p], r.Mul(sa[p], sb[p]));
                return absl::OkStatus();
              }).ok());
  const std::vector<uint128> got = RevealRing(product);
  for (size_t e = 0; e < a.size(); ++e) EXPECT_TRUE(got[e] == a[e] * b[e]) << e;
}

class LessThanZeroTest : public ::testing::TestWithParam<int> {};

INSTANTIATE_TEST_SUITE_P(Widths, LessThanZeroTest,
                         ::testing::Values(2, 3, 4, 5, 8, 17, 64, 65, 103, 127, 128));

// Exact against plaintext at the ends of the range, around 0 and at random;
// bits above m are ignored.
TEST_P(LessThanZeroTest, ExactForEveryValueInRange) {
  const int m = GetParam();
  auto bed = Bed(20 + m);
  std::mt19937_64 gen(m);
  const uint128 half = uint128{1} << (m - 1);  // 2^(m-1)
  const uint128 mask = m == 128 ? ~uint128{0} : (uint128{1} << m) - 1;
  std::vector<uint128> values;
  for (uint128 v : {uint128{0}, uint128{1}, half - 1, -half, -half + 1, ~uint128{0}}) {
    values.push_back(v);
  }
  for (int i = 0; i < 300; ++i) values.push_back(Random128(gen) & mask);
  std::vector<uint128> shared = values;
  std::vector<bool> expected;
  for (size_t e = 0; e < values.size(); ++e) {
    // Interpret values mod 2^m as signed m-bit integers.
    const uint128 low = values[e] & mask;
    expected.push_back(low >= half);
    if (m < 128) shared[e] = low + (Random128(gen) << m);  // garbage above m
  }
  const std::vector<RingShares> s = ShareRing(shared, gen);
  std::vector<int> receivers(values.size());
  for (size_t e = 0; e < receivers.size(); ++e) receivers[e] = static_cast<int>(e % kParties);
  std::vector<std::vector<std::optional<bool>>> got(kParties);
  ASSERT_TRUE(RunRing(*bed, [&](ReplicatedRing& r, int p) -> absl::Status {
                ASSIGN_OR_RETURN(BitShares bits, r.LessThanZero(s[p], m));
                ASSIGN_OR_RETURN(got[p], r.OpenBitsTo(bits, receivers));
                return absl::OkStatus();
              }).ok());
  const uint64_t rounds = bed->engine(0).rounds() - 1;  // the key agreement
  for (size_t e = 0; e < values.size(); ++e) {
    for (int p = 0; p < kParties; ++p) {
      if (p != receivers[e]) {
        EXPECT_FALSE(got[p][e].has_value()) << "party " << p << " bit " << e;
        continue;
      }
      ASSERT_TRUE(got[p][e].has_value());
      EXPECT_EQ(*got[p][e], expected[e]) << "m " << m << " element " << e;
    }
  }
  int tree = 0;
  while ((1 << tree) < m - 2) ++tree;
  EXPECT_EQ(rounds, static_cast<uint64_t>((m >= 3 ? 2 : 1) + tree + 1));
}

TEST(ReplicatedRingTest, RejectsBadWidthsAndReceivers) {
  auto bed = Bed(30);
  std::mt19937_64 gen(31);
  const std::vector<RingShares> s = ShareRing({1, 2}, gen);
  for (int m : {1, 129}) {
    EXPECT_EQ(RunRing(*bed, [&](ReplicatedRing& r, int p) {
                return r.LessThanZero(s[p], m).status();
              }).code(),
              absl::StatusCode::kInvalidArgument);
  }
  BitShares bits{2, {0}, {0}};
  for (std::vector<int> receivers : {std::vector<int>{0}, std::vector<int>{0, 3}}) {
    EXPECT_EQ(RunRing(*bed, [&](ReplicatedRing& r, int) {
                return r.OpenBitsTo(bits, receivers).status();
              }).code(),
              absl::StatusCode::kInvalidArgument);
  }
}

// A transport whose messages from this party lose their last byte once
// `active` is set.
class TruncatingTransport final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) override {
    if (active && !payload.empty()) payload.pop_back();
    return inner_.Send(to, round, std::move(payload));
  }
  bool active = false;
};

// A peer's message of the wrong size is refused, naming the peer, in every
// operation that receives one (FromField, Mul, And inside LessThanZero,
// OpenBitsTo).
TEST(ReplicatedRingTest, AMessageOfTheWrongSizeIsRefusedNamingThePeer) {
  using Op = std::function<absl::Status(ReplicatedRing&, int)>;
  std::mt19937_64 gen(40);
  const std::vector<RingShares> s = ShareRing({1, 2, 3, 4}, gen);
  auto config = MpcConfig::Create(kParties, 1).value();
  const FieldVector values = {FieldElement::FromUint64(5), FieldElement::FromUint64(6)};
  SeededRng dealer(41);
  const std::vector<FieldVector> field = config.shamir().Share(values, 1, dealer);
  const std::vector<std::pair<std::string, Op>> ops = {
      {"FromField", [&](ReplicatedRing& r, int p) { return r.FromField(Shares(field[p]), 8).status(); }},
      {"Mul", [&](ReplicatedRing& r, int p) { return r.Mul(s[p], s[p]).status(); }},
      {"And", [&](ReplicatedRing& r, int p) { return r.LessThanZero(s[p], 16).status(); }},
      {"OpenBitsTo", [&](ReplicatedRing& r, int p) {
         BitShares bits{4, {0}, {0}};
         return r.OpenBitsTo(bits, std::vector<int>{0, 0, 0, 0}).status();
       }}};
  for (const auto& [name, op] : ops) {
    auto network = SimulatedNetwork::Create(kParties).value();
    TruncatingTransport truncating(network->transport(1));
    std::vector<std::unique_ptr<SeededRng>> rngs;
    std::vector<std::unique_ptr<MpcEngine>> engines;
    for (int p = 0; p < kParties; ++p) {
      rngs.push_back(std::make_unique<SeededRng>(50 + p));
      PartyTransport& t = p == 1 ? truncating : network->transport(p);
      engines.push_back(MpcEngine::Create(config, t, *rngs[p]).value());
    }
    // The key agreement arrives whole; only the ring's messages are cut.
    ASSERT_TRUE(network->RunParties([&](int p) {
      return ReplicatedRing::Create(*engines[p]).status();
    }).ok());
    truncating.active = true;
    const absl::Status status = network->RunParties([&](int p) -> absl::Status {
      ASSIGN_OR_RETURN(ReplicatedRing ring, ReplicatedRing::Create(*engines[p]));
      return op(ring, p);
    });
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << name << ": " << status;
    EXPECT_THAT(status.message(), HasSubstr("party 1")) << name << ": " << status;
  }
}

}  // namespace
}  // namespace pplda::crypto

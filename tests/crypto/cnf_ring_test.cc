#include "crypto/mpc/cnf_ring.h"

#include <functional>
#include <random>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "crypto/mpc/mpc_testing.h"
#include "crypto/mpc/pseudo_random_sharing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

uint128 Random128(std::mt19937_64& gen) { return (uint128{gen()} << 64) | gen(); }

std::vector<std::vector<int>> Sets(int n) { return PseudoRandomSharing::KeySets(n, (n - 1) / 2); }

bool Holds(const std::vector<int>& set, int p) {
  return std::find(set.begin(), set.end(), p) != set.end();
}

// Test-dealer CNF shares of `values`: one uniform component per key set,
// summing to the value; party p holds those of its sets.
std::vector<CnfShares> ShareCnf(int n, const std::vector<uint128>& values, std::mt19937_64& gen) {
  const auto sets = Sets(n);
  std::vector<CnfShares> out(n);
  for (int p = 0; p < n; ++p) {
    for (const auto& set : sets) {
      if (Holds(set, p)) out[p].parts.emplace_back();
    }
  }
  for (uint128 v : values) {
    std::vector<uint128> component(sets.size());
    uint128 sum = 0;
    for (size_t s = 1; s < sets.size(); ++s) component[s] = Random128(gen), sum += component[s];
    component[0] = v - sum;
    for (int p = 0; p < n; ++p) {
      size_t h = 0;
      for (size_t s = 0; s < sets.size(); ++s) {
        if (Holds(sets[s], p)) out[p].parts[h++].push_back(component[s]);
      }
    }
  }
  return out;
}

// The sum of the components, checking that every holder of a component
// holds the same value.
std::vector<uint128> RevealCnf(int n, const std::vector<CnfShares>& by_party) {
  const auto sets = Sets(n);
  const size_t count = by_party[0].size();
  std::vector<uint128> out(count, 0);
  for (size_t s = 0; s < sets.size(); ++s) {
    std::vector<std::optional<std::vector<uint128>>> seen;
    std::optional<std::vector<uint128>> first;
    for (int p = 0; p < n; ++p) {
      if (!Holds(sets[s], p)) continue;
      size_t h = 0;
      for (size_t k = 0; k < s; ++k) h += Holds(sets[k], p);
      const std::vector<uint128>& mine = by_party[p].parts.at(h);
      if (!first.has_value()) {
        first = mine;
      } else {
        EXPECT_TRUE(*first == mine) << "set " << s << " at party " << p;
      }
    }
    for (size_t e = 0; e < count; ++e) out[e] += (*first)[e];
  }
  return out;
}

class CnfRingTest : public ::testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
  // A testbed whose engines have agreed their keys (one exchange), so
  // that a test in which every party fails at once leaves no peer waiting.
  std::unique_ptr<MpcTestbed> Bed(uint64_t seed) {
    auto bed = MpcTestbed::Create(n(), (n() - 1) / 2, seed);
    EXPECT_TRUE(bed.ok()) << bed.status();
    const absl::Status keys =
        (*bed)->Run([](MpcEngine& e) -> absl::Status { return e.SharedRandomness().status(); });
    EXPECT_TRUE(keys.ok()) << keys;
    return *std::move(bed);
  }
  static absl::Status RunRing(MpcTestbed& bed,
                              const std::function<absl::Status(CnfRing&, int)>& fn) {
    return bed.Run([&](MpcEngine& e) -> absl::Status {
      ASSIGN_OR_RETURN(CnfRing ring, CnfRing::Create(e));
      return fn(ring, e.party_id());
    });
  }
};

INSTANTIATE_TEST_SUITE_P(Committees, CnfRingTest, ::testing::Values(3, 5, 7),
                         [](const auto& info) { return absl::StrCat("n", info.param); });

TEST(CnfRingConfigTest, RefusesEvenCommitteesAndDealtRandomness) {
  auto four = MpcTestbed::Create(4, 1, 1);
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(CnfRing::Create((*four)->engine(0)).status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto dealt =
      MpcTestbed::Create(5, 2, 1, MpcConfig::kDefaultSigma, MpcConfig::SharedRandomness::kDealt);
  ASSERT_TRUE(dealt.ok());
  const absl::Status status = CnfRing::Create((*dealt)->engine(0)).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr("dealt randomness"));
}

TEST_P(CnfRingTest, FromFieldGivesTheSameIntegers) {
  auto bed = Bed(7);
  std::mt19937_64 gen(11);
  const int max_bits = CnfRing::MaxConversionBits(n(), bed->config().sigma());
  for (int bits : {1, 20, 64, max_bits}) {
    FieldVector values;
    const uint128 top = (uint128{1} << bits) - 1;
    for (uint128 v : {uint128{0}, uint128{1} & top, top, top - (top > 0 ? 1 : 0)}) {
      values.push_back(FieldElement::FromUint128(v));
    }
    for (int i = 0; i < 50; ++i) values.push_back(FieldElement::FromUint128(Random128(gen) & top));
    const std::vector<Shares> shares = bed->Share(values);
    std::vector<CnfShares> ring(n());
    ASSERT_TRUE(RunRing(*bed, [&](CnfRing& r, int p) -> absl::Status {
                  ASSIGN_OR_RETURN(ring[p], r.FromField(shares[p], bits));
                  return absl::OkStatus();
                }).ok());
    const std::vector<uint128> got = RevealCnf(n(), ring);
    for (size_t e = 0; e < values.size(); ++e) {
      EXPECT_TRUE(got[e] == values[e].value()) << "bits " << bits << " element " << e;
    }
  }
}

TEST_P(CnfRingTest, FromFieldRejectsWidthsAndInconsistentShares) {
  auto bed = Bed(8);
  const std::vector<Shares> shares = bed->ShareIntegers({5, 6, 7});
  const int max_bits = CnfRing::MaxConversionBits(n(), bed->config().sigma());
  for (int bits : {0, max_bits + 1}) {
    const absl::Status status =
        RunRing(*bed, [&](CnfRing& r, int p) { return r.FromField(shares[p], bits).status(); });
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bits;
  }
  // Party 1's share of every element is off by 2^126: the opened values
  // fall outside their range wherever it takes part in the opening.
  auto fresh = Bed(9);
  std::vector<Shares> bad = fresh->ShareIntegers(std::vector<int64_t>(40, 5));
  for (size_t e = 0; e < bad[1].size(); ++e) bad[1][e] += FieldElement::PowerOfTwo(126);
  const absl::Status status =
      RunRing(*fresh, [&](CnfRing& r, int p) { return r.FromField(bad[p], 20).status(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("inconsistent shares"));
}

// Each element's set learns c = x + r; the summands come from every set's
// key, so c is x plus a mask of about bits + sigma bits, never x itself.
TEST_P(CnfRingTest, FromFieldOpensOnlyMaskedValues) {
  auto bed = Bed(10);
  const int bits = 16, sigma = bed->config().sigma();
  const int64_t x = 1234;
  const size_t count = 200;
  const std::vector<Shares> shares = bed->ShareIntegers(std::vector<int64_t>(count, x));
  ASSERT_TRUE(bed->Run([](MpcEngine& e) { return e.Random(1).status(); }).ok());
  for (int p = 0; p < n(); ++p) bed->recorder(p).set_recording(true);
  std::vector<CnfShares> ring(n());
  ASSERT_TRUE(RunRing(*bed, [&](CnfRing& r, int p) -> absl::Status {
                ASSIGN_OR_RETURN(ring[p], r.FromField(shares[p], bits));
                return absl::OkStatus();
              }).ok());
  // shares_from[to][from]: the shares `to` received from `from`, in order.
  std::vector<std::vector<FieldVector>> shares_from(n(), std::vector<FieldVector>(n()));
  for (int p = 0; p < n(); ++p) {
    for (const auto& message : bed->recorder(p).received()) {
      auto values = DecodeFieldVector(message.payload, message.payload.size() / 16, "test");
      ASSERT_TRUE(values.ok());
      shares_from[p][message.from] = *values;
    }
  }
  // c of each element, from its set's members' shares as a peer received
  // them (member j's share reaches every other member).
  const auto sets = Sets(n());
  std::vector<std::vector<size_t>> at(n(), std::vector<size_t>(n(), 0));
  size_t wide = 0;
  for (size_t e = 0; e < count; ++e) {
    const auto& set = sets[e % sets.size()];
    std::vector<FieldElement> points;
    for (int j : set) points.push_back(ShamirScheme::PointOf(j));
    const FieldVector lambda = LagrangeCoefficients(points, FieldElement::Zero());
    FieldElement c = FieldElement::Zero();
    for (size_t k = 0; k < set.size(); ++k) {
      const int j = set[k], to = set[(k + 1) % set.size()];
      for (int other : set) {
        if (other != j) ASSERT_LT(at[other][j], shares_from[other][j].size());
      }
      c += lambda[k] * shares_from[to][j][at[to][j]];
      for (int other : set) {
        if (other != j) ++at[other][j];
      }
    }
    ASSERT_TRUE(c.value() >= static_cast<uint128>(x));
    const uint128 mask = c.value() - static_cast<uint128>(x);
    EXPECT_TRUE(mask < (uint128(sets.size()) << (bits + sigma))) << "element " << e;
    wide += (mask >> (bits + sigma - 8)) != 0;
  }
  EXPECT_GT(wide, count * 9 / 10) << "masks of bits + sigma bits (each below 2^-8 wide w.p. 2^-8)";
  for (const uint128 v : RevealCnf(n(), ring)) EXPECT_TRUE(v == static_cast<uint128>(x));
}

TEST_P(CnfRingTest, MulIsExactModulo2To128AndSendsTElementsPerParty) {
  auto bed = Bed(12);
  std::mt19937_64 gen(13);
  std::vector<uint128> a, b;
  for (int i = 0; i < 200; ++i) {
    a.push_back(Random128(gen));
    b.push_back(Random128(gen));
  }
  a.push_back(0), b.push_back(Random128(gen));
  a.push_back(~uint128{0}), b.push_back(~uint128{0});
  const std::vector<CnfShares> sa = ShareCnf(n(), a, gen), sb = ShareCnf(n(), b, gen);
  std::vector<CnfShares> product(n());
  bed->network().ResetStats();
  ASSERT_TRUE(RunRing(*bed, [&](CnfRing& r, int p) -> absl::Status {
                ASSIGN_OR_RETURN(product[p], r.Mul(sa[p], sb[p]));
                return absl::OkStatus();
              }).ok());
  const NetworkStats stats = bed->network().Stats();
  const std::vector<uint128> got = RevealCnf(n(), product);
  for (size_t e = 0; e < a.size(); ++e) EXPECT_TRUE(got[e] == a[e] * b[e]) << e;
  const uint64_t t = static_cast<uint64_t>((n() - 1) / 2);
  for (int p = 0; p < n(); ++p) {
    EXPECT_EQ(stats.parties[p].bytes_sent, t * 16 * a.size()) << "party " << p;
  }
  EXPECT_EQ(stats.rounds, 1u);
}

// A product's components look fresh: the same operands multiplied twice
// give components that differ everywhere (the zero sharing and the fresh
// values are new each time), while their sums agree.
TEST_P(CnfRingTest, MulComponentsAreFreshEachTime) {
  auto bed = Bed(14);
  std::mt19937_64 gen(15);
  const std::vector<uint128> a(50, 3), b(50, 5);
  const std::vector<CnfShares> sa = ShareCnf(n(), a, gen), sb = ShareCnf(n(), b, gen);
  std::vector<CnfShares> first(n()), second(n());
  ASSERT_TRUE(RunRing(*bed, [&](CnfRing& r, int p) -> absl::Status {
                ASSIGN_OR_RETURN(first[p], r.Mul(sa[p], sb[p]));
                ASSIGN_OR_RETURN(second[p], r.Mul(sa[p], sb[p]));
                return absl::OkStatus();
              }).ok());
  for (int p = 0; p < n(); ++p) {
    for (size_t h = 0; h < first[p].parts.size(); ++h) {
      for (size_t e = 0; e < a.size(); ++e) {
        EXPECT_FALSE(first[p].parts[h][e] == second[p].parts[h][e]) << p << " " << h << " " << e;
      }
    }
  }
  for (uint128 v : RevealCnf(n(), second)) EXPECT_TRUE(v == 15);
}

class CnfLessThanZeroTest : public ::testing::TestWithParam<std::pair<int, int>> {};

INSTANTIATE_TEST_SUITE_P(CommitteesAndWidths, CnfLessThanZeroTest,
                         ::testing::Values(std::pair{3, 2}, std::pair{3, 64}, std::pair{3, 103},
                                           std::pair{5, 2}, std::pair{5, 3}, std::pair{5, 4},
                                           std::pair{5, 17}, std::pair{5, 65}, std::pair{5, 103},
                                           std::pair{5, 128}, std::pair{7, 3}, std::pair{7, 103}),
                         [](const auto& info) {
                           return absl::StrCat("n", info.param.first, "m", info.param.second);
                         });

// Exact against plaintext at the ends of the range, around 0 and at random;
// bits above m are ignored; the rounds are SignRounds plus the opening.
TEST_P(CnfLessThanZeroTest, ExactForEveryValueInRangeOpenedToItsReceiverOnly) {
  const auto [n, m] = GetParam();
  auto bed = MpcTestbed::Create(n, (n - 1) / 2, 20 + m).value();
  ASSERT_TRUE(bed->Run([](MpcEngine& e) { return e.SharedRandomness().status(); }).ok());
  std::mt19937_64 gen(m);
  const uint128 half = uint128{1} << (m - 1);
  const uint128 mask = m == 128 ? ~uint128{0} : (uint128{1} << m) - 1;
  std::vector<uint128> values;
  for (uint128 v : {uint128{0}, uint128{1}, half - 1, -half, -half + 1, ~uint128{0}}) {
    values.push_back(v);
  }
  for (int i = 0; i < 200; ++i) values.push_back(Random128(gen) & mask);
  std::vector<uint128> shared = values;
  std::vector<bool> expected;
  for (size_t e = 0; e < values.size(); ++e) {
    const uint128 low = values[e] & mask;
    expected.push_back(low >= half);
    if (m < 128) shared[e] = low + (Random128(gen) << m);  // garbage above m
  }
  const std::vector<CnfShares> s = ShareCnf(n, shared, gen);
  std::vector<int> receivers(values.size());
  for (size_t e = 0; e < receivers.size(); ++e) receivers[e] = static_cast<int>(e % n);
  std::vector<std::vector<std::optional<bool>>> got(n);
  std::vector<std::vector<uint64_t>> client_parts(n);
  const uint64_t rounds_before = bed->engine(0).rounds();
  ASSERT_TRUE(bed->Run([&](MpcEngine& e) -> absl::Status {
                   ASSIGN_OR_RETURN(CnfRing r, CnfRing::Create(e));
                   const int p = e.party_id();
                   ASSIGN_OR_RETURN(CnfBits bits, r.LessThanZero(s[p], m));
                   client_parts[p] = r.PartForClient(bits);
                   ASSIGN_OR_RETURN(got[p], r.OpenBitsTo(bits, receivers));
                   return absl::OkStatus();
                 })
                  .ok());
  for (size_t e = 0; e < values.size(); ++e) {
    for (int p = 0; p < n; ++p) {
      if (p != receivers[e]) {
        EXPECT_FALSE(got[p][e].has_value()) << "party " << p << " bit " << e;
        continue;
      }
      ASSERT_TRUE(got[p][e].has_value());
      EXPECT_EQ(*got[p][e], expected[e]) << "n " << n << " m " << m << " element " << e;
    }
    uint64_t client = 0;
    for (int p = 0; p < n; ++p) client ^= (client_parts[p][e / 64] >> (e % 64)) & 1;
    EXPECT_EQ(client != 0, expected[e]) << "a client's XOR of the members' parts, element " << e;
  }
  EXPECT_EQ(bed->engine(0).rounds() - rounds_before,
            static_cast<uint64_t>(CnfRing::SignRounds(n, m) + 1));
}

TEST_P(CnfRingTest, AddConstantAddsOnce) {
  auto bed = Bed(16);
  std::mt19937_64 gen(17);
  std::vector<CnfShares> s = ShareCnf(n(), {10, 20}, gen);
  ASSERT_TRUE(RunRing(*bed, [&](CnfRing& r, int p) {
                r.AddConstant(s[p], ~uint128{0});  // -1
                return absl::OkStatus();
              }).ok());
  const std::vector<uint128> got = RevealCnf(n(), s);
  EXPECT_TRUE(got[0] == 9);
  EXPECT_TRUE(got[1] == 19);
}

TEST_P(CnfRingTest, RejectsBadWidthsShapesAndReceivers) {
  auto bed = Bed(30);
  std::mt19937_64 gen(31);
  const std::vector<CnfShares> s = ShareCnf(n(), {1, 2}, gen);
  for (int m : {1, 129}) {
    EXPECT_EQ(
        RunRing(*bed, [&](CnfRing& r, int p) { return r.LessThanZero(s[p], m).status(); }).code(),
        absl::StatusCode::kInvalidArgument);
  }
  EXPECT_EQ(
      RunRing(*bed, [&](CnfRing& r, int) { return r.Mul(CnfShares{}, CnfShares{{{1}}}).status(); })
          .code(),
      absl::StatusCode::kInvalidArgument);
  for (std::vector<int> receivers : {std::vector<int>{0}, std::vector<int>{0, n()}}) {
    EXPECT_EQ(RunRing(*bed,
                      [&](CnfRing& r, int) {
                        CnfBits bits{2, std::vector<std::vector<uint64_t>>(r.num_parts(), {0})};
                        return r.OpenBitsTo(bits, receivers).status();
                      })
                  .code(),
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
// operation that receives one.
TEST_P(CnfRingTest, AMessageOfTheWrongSizeIsRefusedNamingThePeer) {
  using Op = std::function<absl::Status(CnfRing&, int)>;
  std::mt19937_64 gen(40);
  const std::vector<CnfShares> s = ShareCnf(n(), std::vector<uint128>(12, 3), gen);
  auto config = MpcConfig::Create(n(), (n() - 1) / 2).value();
  FieldVector values;
  for (int i = 0; i < 12; ++i) values.push_back(FieldElement::FromUint64(5 + i));
  SeededRng dealer(41);
  const std::vector<FieldVector> field = config.shamir().Share(values, config.threshold(), dealer);
  const std::vector<std::pair<std::string, Op>> ops = {
      {"FromField", [&](CnfRing& r, int p) { return r.FromField(Shares(field[p]), 8).status(); }},
      {"Mul", [&](CnfRing& r, int p) { return r.Mul(s[p], s[p]).status(); }},
      {"And", [&](CnfRing& r, int p) { return r.LessThanZero(s[p], 16).status(); }},
      {"OpenBitsTo", [&](CnfRing& r, int) {
         CnfBits bits{12, std::vector<std::vector<uint64_t>>(r.num_parts(), {0})};
         return r.OpenBitsTo(bits, std::vector<int>(12, 0)).status();
       }}};
  for (const auto& [name, op] : ops) {
    auto network = SimulatedNetwork::Create(n()).value();
    TruncatingTransport truncating(network->transport(1));
    std::vector<std::unique_ptr<SeededRng>> rngs;
    std::vector<std::unique_ptr<MpcEngine>> engines;
    for (int p = 0; p < n(); ++p) {
      rngs.push_back(std::make_unique<SeededRng>(50 + p));
      PartyTransport& t = p == 1 ? truncating : network->transport(p);
      engines.push_back(MpcEngine::Create(config, t, *rngs[p]).value());
    }
    ASSERT_TRUE(
        network->RunParties([&](int p) { return CnfRing::Create(*engines[p]).status(); }).ok());
    truncating.active = true;
    const absl::Status status = network->RunParties([&](int p) -> absl::Status {
      ASSIGN_OR_RETURN(CnfRing ring, CnfRing::Create(*engines[p]));
      return op(ring, p);
    });
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << name << ": " << status;
    EXPECT_THAT(status.message(), HasSubstr("party 1")) << name << ": " << status;
  }
}

}  // namespace
}  // namespace pplda::crypto

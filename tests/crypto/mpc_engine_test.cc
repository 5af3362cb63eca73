#include "crypto/mpc/mpc_engine.h"

#include <mutex>

#include "absl/status/status.h"
#include "crypto/mpc/mpc_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

using Randomness = MpcConfig::SharedRandomness;

struct Setting {
  int n;
  int t;
  Randomness randomness;
};

// Every engine property holds for pseudo-random and for dealt randomness.
class MpcEngineTest : public ::testing::TestWithParam<Setting> {
 protected:
  void SetUp() override {
    bed_ = MpcTestbed::Create(GetParam().n, GetParam().t, /*seed=*/77,
                              MpcConfig::kDefaultSigma, GetParam().randomness)
               .value();
  }
  std::unique_ptr<MpcTestbed> bed_;
};

INSTANTIATE_TEST_SUITE_P(
    Parties, MpcEngineTest,
    ::testing::Values(Setting{3, 1, Randomness::kAuto}, Setting{3, 1, Randomness::kPseudoRandom},
                      Setting{5, 2, Randomness::kPseudoRandom},
                      Setting{7, 3, Randomness::kPseudoRandom}, Setting{3, 1, Randomness::kDealt},
                      Setting{5, 2, Randomness::kDealt}, Setting{7, 3, Randomness::kDealt}),
    [](const auto& info) {
      return "n" + std::to_string(info.param.n) + "t" + std::to_string(info.param.t) +
             (info.param.randomness == Randomness::kDealt  ? "Dealt"
              : info.param.randomness == Randomness::kAuto ? "Auto"
                                                           : "PseudoRandom");
    });

const std::vector<int64_t> kA = {0, 1, -1, 123456789, -987654321, 1LL << 62, 7};
const std::vector<int64_t> kB = {5, 0, -1, 1000, 3, 4, -7};

TEST_P(MpcEngineTest, MulAndInnerProductsMatchPlaintext) {
  const int n = bed_->num_parties();
  auto a = bed_->ShareIntegers(kA), b = bed_->ShareIntegers(kB);
  std::vector<Shares> prod(n), ip(n);
  ASSERT_TRUE(bed_->Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(prod[e.party_id()], e.Mul(a[e.party_id()], b[e.party_id()]));
    // Groups of 7 = one inner product of the whole vectors; also groups of 1.
    ASSIGN_OR_RETURN(ip[e.party_id()], e.InnerProducts(a[e.party_id()], b[e.party_id()], 7));
    return absl::OkStatus();
  }).ok());
  FieldVector got = bed_->Reveal(prod).value();
  int128 dot = 0;
  for (size_t i = 0; i < kA.size(); ++i) {
    const int128 want = static_cast<int128>(kA[i]) * kB[i];
    EXPECT_EQ(got[i].ToSigned(), want) << i;
    dot += want;
  }
  EXPECT_EQ(bed_->Reveal(ip).value()[0].ToSigned(), dot);
  // Two communicating calls: two rounds (after the one key agreement of
  // pseudo-random sharing).
  const uint64_t keys = bed_->config().pseudo_random_sharing() ? 1 : 0;
  EXPECT_EQ(bed_->engine(0).rounds(), 2u + keys);
}

// Each of the 2t+1 resharers sends n-1 shares per product, or n-1-t when
// pseudo-random sharing derives its t partners' shares.
TEST_P(MpcEngineTest, MultiplicationCostIsOneRoundAndResharesFrom2tPlus1Parties) {
  const int n = bed_->num_parties(), t = bed_->config().threshold();
  std::vector<int64_t> values(1000, 3);
  auto a = bed_->ShareIntegers(values);
  ASSERT_TRUE(bed_->Run([](MpcEngine& e) { return e.Random(1).status(); }).ok());
  bed_->network().ResetStats();
  ASSERT_TRUE(bed_->Run([&](MpcEngine& e) {
    return e.Mul(a[e.party_id()], a[e.party_id()]).status();
  }).ok());
  const NetworkStats stats = bed_->network().Stats();
  EXPECT_EQ(stats.rounds, 1u);
  const int sent_to = bed_->config().pseudo_random_sharing() ? n - 1 - t : n - 1;
  EXPECT_EQ(stats.total_messages(), static_cast<uint64_t>((2 * t + 1) * sent_to));
  EXPECT_EQ(stats.total_bytes(), static_cast<uint64_t>((2 * t + 1) * sent_to) * 1000 * 16);
}

TEST_P(MpcEngineTest, InputFromSeveralOwnersInOneRound) {
  const int n = bed_->num_parties();
  // Element i is owned by party i % n and has value 100 * i - 7.
  std::vector<int> owners;
  for (int i = 0; i < 11; ++i) owners.push_back(i % n);
  std::vector<Shares> out(n);
  // The engine's one key agreement (pseudo-random sharing) comes first.
  ASSERT_TRUE(bed_->Run([](MpcEngine& e) { return e.Random(1).status(); }).ok());
  bed_->network().ResetStats();
  ASSERT_TRUE(bed_->Run([&](MpcEngine& e) -> absl::Status {
    FieldVector mine;
    for (int i = 0; i < 11; ++i) {
      if (owners[i] == e.party_id()) mine.push_back(FieldElement::FromInt64(100 * i - 7));
    }
    ASSIGN_OR_RETURN(out[e.party_id()], e.Input(owners, mine));
    return absl::OkStatus();
  }).ok());
  FieldVector got = bed_->Reveal(out).value();
  for (int i = 0; i < 11; ++i) EXPECT_EQ(got[i].ToSigned(), 100 * i - 7);
  EXPECT_EQ(bed_->network().Stats().rounds, 1u);
}

TEST_P(MpcEngineTest, OpenRevealsToAll) {
  const int n = bed_->num_parties();
  auto a = bed_->ShareIntegers(kA);
  std::vector<FieldVector> opened(n);
  ASSERT_TRUE(bed_->Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(opened[e.party_id()], e.Open(a[e.party_id()]));
    return absl::OkStatus();
  }).ok());
  for (int p = 0; p < n; ++p) {
    for (size_t i = 0; i < kA.size(); ++i) EXPECT_EQ(opened[p][i].ToSigned(), kA[i]);
  }
}

TEST_P(MpcEngineTest, OpenToDeliversOnlyToTheReceiver) {
  const int n = bed_->num_parties();
  auto a = bed_->ShareIntegers(kA);
  // Elements go to party 1, except element 3 which goes to party 0.
  std::vector<int> receivers(kA.size(), 1);
  receivers[3] = 0;
  std::vector<std::vector<std::optional<FieldElement>>> got(n);
  bed_->network().ResetStats();
  ASSERT_TRUE(bed_->Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(got[e.party_id()], e.OpenTo(a[e.party_id()], receivers));
    return absl::OkStatus();
  }).ok());
  for (int p = 0; p < n; ++p) {
    for (size_t i = 0; i < kA.size(); ++i) {
      if (receivers[i] == p) {
        ASSERT_TRUE(got[p][i].has_value());
        EXPECT_EQ(got[p][i]->ToSigned(), kA[i]);
      } else {
        EXPECT_FALSE(got[p][i].has_value()) << "party " << p << " element " << i;
      }
    }
  }
  const NetworkStats stats = bed_->network().Stats();
  for (int p = 2; p < n; ++p) EXPECT_EQ(stats.parties[p].bytes_received, 0u) << p;
  EXPECT_EQ(stats.parties[0].bytes_received, static_cast<uint64_t>(n - 1) * 16);
  EXPECT_EQ(stats.parties[1].bytes_received, static_cast<uint64_t>(n - 1) * 6 * 16);
}

TEST_P(MpcEngineTest, RandomValuesAreConsistentAndDistinct) {
  const int n = bed_->num_parties();
  std::vector<Shares> r(n);
  ASSERT_TRUE(bed_->Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(r[e.party_id()], e.Random(64));
    return absl::OkStatus();
  }).ok());
  FieldVector values = bed_->Reveal(r).value();  // consistency checked
  std::sort(values.begin(), values.end(),
            [](FieldElement x, FieldElement y) { return x.value() < y.value(); });
  EXPECT_EQ(std::adjacent_find(values.begin(), values.end()), values.end());
}

TEST_P(MpcEngineTest, RandomBitsAreBitsAndBalanced) {
  const int n = bed_->num_parties();
  std::vector<Shares> bits(n);
  ASSERT_TRUE(bed_->Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(bits[e.party_id()], e.RandomBits(2000));
    return absl::OkStatus();
  }).ok());
  FieldVector values = bed_->Reveal(bits).value();
  int ones = 0;
  for (FieldElement b : values) {
    ASSERT_TRUE(b == FieldElement::Zero() || b == FieldElement::One()) << b.ToString();
    ones += b == FieldElement::One();
  }
  // Binomial(2000, 1/2): sd ~ 22.4; 5 sd bound, two-sided error < 1e-6.
  EXPECT_NEAR(ones, 1000, 112);
  // Dealt: dealing and XOR (t = 1) or squaring; pseudo-random: the key
  // agreement, then the squaring or dealing and XOR (t = 1 by default).
  const auto& config = bed_->config();
  const uint64_t want =
      config.pseudo_random_sharing() ? 1 + (config.random_bits_by_xor() ? 2 : 1) : 2;
  EXPECT_EQ(bed_->engine(0).rounds(), want);
}

// After the one key-agreement round, pseudo-random values cost nothing and
// each random bit one degree-2t opening: n-1 shares sent by every party.
TEST_P(MpcEngineTest, PseudoRandomSharingCostsOnlyTheBitOpenings) {
  if (!bed_->config().pseudo_random_sharing() || bed_->config().random_bits_by_xor()) {
    GTEST_SKIP() << "dealt random bits";
  }
  const int n = bed_->num_parties();
  ASSERT_TRUE(bed_->Run([&](MpcEngine& e) { return e.Random(1).status(); }).ok());
  EXPECT_EQ(bed_->engine(0).rounds(), 1u);
  bed_->network().ResetStats();
  std::vector<Shares> values(n);
  std::vector<std::vector<MaskBatch>> masks(n);
  const std::vector<MaskSpec> specs = {{100, 12, 30, true}, {20, 0, 50, false}};
  ASSERT_TRUE(bed_->Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(values[e.party_id()], e.Random(1000));
    ASSIGN_OR_RETURN(masks[e.party_id()], e.GenerateMasks(specs));
    return absl::OkStatus();
  }).ok());
  EXPECT_EQ(bed_->engine(0).rounds(), 2u);  // one opening of the bits' squares
  const NetworkStats stats = bed_->network().Stats();
  for (int p = 0; p < n; ++p) {
    EXPECT_EQ(stats.parties[p].bytes_sent, static_cast<uint64_t>(n - 1) * 1200 * 16) << p;
  }
  // The pseudo-random values are consistent degree-t sharings (Reveal
  // checks every share) and not constant.
  const FieldVector v = bed_->Reveal(values).value();
  EXPECT_NE(v[0], v[1]);
}

TEST_P(MpcEngineTest, MasksHaveTheirStatedRanges) {
  const int n = bed_->num_parties();
  const std::vector<MaskSpec> specs = {{50, 10, 20, true}, {30, 0, 5, true}, {40, 7, 0, false}};
  std::vector<std::vector<MaskBatch>> got(n);
  ASSERT_TRUE(bed_->Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(got[e.party_id()], e.GenerateMasks(specs));
    return absl::OkStatus();
  }).ok());
  for (size_t s = 0; s < specs.size(); ++s) {
    std::vector<Shares> low(n), high(n), bits(n);
    for (int p = 0; p < n; ++p) {
      low[p] = got[p][s].low;
      high[p] = got[p][s].high;
      bits[p] = got[p][s].bits;
    }
    const FieldVector low_v = bed_->Reveal(low).value();
    ASSERT_EQ(low_v.size(), specs[s].count);
    for (size_t e = 0; e < specs[s].count; ++e) {
      EXPECT_LT(low_v[e].value(), uint128{1} << specs[s].low_bits);
    }
    if (specs[s].keep_bits) {
      const FieldVector bit_v = bed_->Reveal(bits).value();
      for (size_t e = 0; e < specs[s].count; ++e) {
        uint128 sum = 0;
        for (int i = 0; i < specs[s].low_bits; ++i) {
          const uint128 b = bit_v[e * specs[s].low_bits + i].value();
          ASSERT_LE(b, 1u);
          sum |= b << i;
        }
        EXPECT_EQ(sum, low_v[e].value());
      }
    } else {
      EXPECT_TRUE(got[0][s].bits.empty());
    }
    if (specs[s].high_bits > 0) {
      const FieldVector high_v = bed_->Reveal(high).value();
      for (FieldElement h : high_v) {
        EXPECT_LT(h.value(),
                  static_cast<uint128>(bed_->config().mask_summands()) << specs[s].high_bits);
      }
    } else {
      EXPECT_TRUE(got[0][s].high.empty());
    }
  }
}

TEST_P(MpcEngineTest, TamperedShareIsRejectedByOpen) {
  const int n = bed_->num_parties();
  auto a = bed_->ShareIntegers(kA);
  a[n - 1][2] += FieldElement::One();  // the last party's share of element 2
  absl::Status status = bed_->Run([&](MpcEngine& e) { return e.Open(a[e.party_id()]).status(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("inconsistent shares"));
  EXPECT_THAT(status.message(), HasSubstr("element 2"));
}

TEST(MpcEngineErrorsTest, SizeMismatchAndBadOwnersAreInvalidArgument) {
  auto bed = MpcTestbed::Create(3, 1, 5).value();
  absl::Status status = bed->Run([&](MpcEngine& e) {
    return e.Mul(Shares(3), Shares(4)).status();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("Mul: operands have 3 and 4 elements"));

  bed = MpcTestbed::Create(3, 1, 5).value();
  const std::vector<int> owners = {0, 3};
  status = bed->Run([&](MpcEngine& e) { return e.Input(owners, {}).status(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("Input owners[1] = 3 is not a party id"));

  bed = MpcTestbed::Create(3, 1, 5).value();
  const std::vector<int> owners0 = {0, 0};
  status = bed->Run([&](MpcEngine& e) { return e.Input(owners0, {}).status(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("party 0 owns 2 elements but passed 0 values"));

  bed = MpcTestbed::Create(3, 1, 5).value();
  status = bed->Run([&](MpcEngine& e) {
    return e.InnerProducts(Shares(5), Shares(5), 2).status();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("do not split into groups of 2"));

  bed = MpcTestbed::Create(3, 1, 5).value();
  const std::vector<int> receivers = {0, 1};
  status = bed->Run([&](MpcEngine& e) { return e.OpenTo(Shares(3), receivers).status(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("3 elements but 2 receivers"));

  bed = MpcTestbed::Create(3, 1, 5).value();
  const std::vector<MaskSpec> bad = {{4, 128, 0, true}};
  status = bed->Run([&](MpcEngine& e) { return e.GenerateMasks(bad).status(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("spec 0 asks for 128 low bits"));
}

TEST(MpcEngineErrorsTest, CreateRejectsMismatchedTransport) {
  auto net = SimulatedNetwork::Create(4).value();
  auto config = MpcConfig::Create(3, 1).value();
  SeededRng rng(1);
  auto engine = MpcEngine::Create(config, net->transport(0), rng);
  EXPECT_EQ(engine.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(engine.status().message(), HasSubstr("transport connects 4 parties"));
}

// A broken random source that only produces zero bytes.
class ZeroRng final : public SecureRng {
 public:
  void Fill(absl::Span<uint8_t> out) override { std::fill(out.begin(), out.end(), 0); }
};

// With t >= 2 random bits come from squaring a random r, which a zero
// source makes zero every time.
TEST(MpcEngineErrorsTest, ZeroRandomnessIsDetectedInRandomBits) {
  auto config = MpcConfig::Create(5, 2, MpcConfig::kDefaultSigma, Randomness::kDealt).value();
  auto net = SimulatedNetwork::Create(5).value();
  ZeroRng rngs[5];
  std::vector<std::unique_ptr<MpcEngine>> engines;
  for (int p = 0; p < 5; ++p) {
    engines.push_back(
        MpcEngine::Create(config, net->transport(p), rngs[p], MpcEngine::Randomness::kDirect)
            .value());
  }
  absl::Status status = net->RunParties([&](int p) {
    return engines[p]->RandomBits(4).status();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(status.message(), HasSubstr("SecureRng of some party is not random"));
  // First attempt (2 rounds) plus 3 redraws of 2 rounds each.
  EXPECT_EQ(engines[0]->rounds(), 2u + 2u * (MpcEngine::kMaxBitAttempts - 1));
}

// Forwards to another transport, cutting one byte off every payload sent in
// round 1 (the key agreement: party 0 sends party 1 their set's key and its
// pairwise key, 64 bytes).
class TruncatingTransport final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) override {
    if (round == 1 && !payload.empty()) payload.pop_back();
    return inner_.Send(to, round, std::move(payload));
  }
};

TEST(MpcEngineErrorsTest, MalformedPseudoRandomKeysAreRefused) {
  auto config = MpcConfig::Create(3, 1).value();
  auto net = SimulatedNetwork::Create(3).value();
  SeededRng rngs[3] = {SeededRng(1), SeededRng(2), SeededRng(3)};
  TruncatingTransport truncating(net->transport(0));
  std::vector<std::unique_ptr<MpcEngine>> engines;
  for (int p = 0; p < 3; ++p) {
    PartyTransport& transport = p == 0 ? static_cast<PartyTransport&>(truncating)
                                       : net->transport(p);
    engines.push_back(MpcEngine::Create(config, transport, rngs[p]).value());
  }
  absl::Status status = net->RunParties([&](int p) { return engines[p]->Random(4).status(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(status.message(),
              HasSubstr("pseudo-random sharing keys (round 1) from party 0: 63 bytes, expected 64"));
}

TEST(MpcConfigTest, ValidatesSigmaAndReportsBitBudget) {
  auto config = MpcConfig::Create(3, 1).value();
  EXPECT_EQ(config.sigma(), 40);
  EXPECT_TRUE(config.pseudo_random_sharing());
  // t = 1: random bits by the XOR of two dealers' bits (no square roots).
  EXPECT_TRUE(config.random_bits_by_xor());
  EXPECT_EQ(config.mask_rounds(), 2);
  auto squares = MpcConfig::Create(3, 1, 40, Randomness::kPseudoRandom).value();
  EXPECT_FALSE(squares.random_bits_by_xor());
  EXPECT_EQ(squares.mask_rounds(), 1);
  EXPECT_FALSE(MpcConfig::Create(5, 2).value().random_bits_by_xor());
  // 2^(k+1) + S 2^(k+41) <= 2^127 - 1 with S = 3 keys: k = 84.
  EXPECT_EQ(config.mask_summands(), 3);
  EXPECT_EQ(config.max_masked_bits(), 84);
  EXPECT_EQ(config.max_comparison_bits(), 83);
  // Dealt: S = t + 1 = 2, the same k.
  auto dealt = MpcConfig::Create(3, 1, 40, Randomness::kDealt).value();
  EXPECT_FALSE(dealt.pseudo_random_sharing());
  EXPECT_EQ(dealt.mask_summands(), 2);
  EXPECT_EQ(dealt.max_masked_bits(), 84);
  // n = 5, t = 2: 10 keys cost two bits against 3 dealers.
  EXPECT_EQ(MpcConfig::Create(5, 2).value().max_masked_bits(), 82);
  EXPECT_EQ(MpcConfig::Create(5, 2, 40, Randomness::kDealt).value().max_masked_bits(), 84);
  // The budget is tight: one more bit wraps for the largest masks.
  for (const MpcConfig& c : {config, dealt, MpcConfig::Create(5, 2).value()}) {
    const int k = c.max_masked_bits();
    const auto bound = [&](int bits) {
      return (uint128{2} << bits) + (static_cast<uint128>(c.mask_summands()) << (bits + 41));
    };
    EXPECT_LE(bound(k), FieldElement::kModulus);
    EXPECT_GT(bound(k + 1), FieldElement::kModulus);
  }
  // 64 choose 31 keys are too many: auto falls back to dealing, and asking
  // for pseudo-random sharing is refused.
  EXPECT_FALSE(MpcConfig::Create(64, 31).value().pseudo_random_sharing());
  auto too_many = MpcConfig::Create(64, 31, 40, Randomness::kPseudoRandom);
  EXPECT_EQ(too_many.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(too_many.status().message(), HasSubstr("more than 128 keys"));
  auto bad = MpcConfig::Create(3, 1, 10);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("sigma = 10"));
}

}  // namespace
}  // namespace pplda::crypto

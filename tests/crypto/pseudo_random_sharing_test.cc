#include "crypto/mpc/pseudo_random_sharing.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

struct Setting {
  int n;
  int t;
};

class PseudoRandomSharingTest : public ::testing::TestWithParam<Setting> {
 protected:
  void SetUp() override {
    shamir_ =
        std::make_unique<ShamirScheme>(ShamirScheme::Create(GetParam().n, GetParam().t).value());
    SeededRng rng(11);
    keys_.resize(PseudoRandomSharing::KeySets(GetParam().n, GetParam().t).size());
    for (PrssKey& key : keys_) rng.Fill(absl::MakeSpan(key));
    for (int p = 0; p < GetParam().n; ++p) {
      // A party's copy holds only its own sets' keys: zero the others.
      std::vector<PrssKey> mine = keys_;
      const auto sets = PseudoRandomSharing::KeySets(GetParam().n, GetParam().t);
      for (size_t s = 0; s < sets.size(); ++s) {
        if (std::find(sets[s].begin(), sets[s].end(), p) == sets[s].end()) mine[s] = PrssKey{};
      }
      parties_.push_back(PseudoRandomSharing::Create(*shamir_, p, mine).value());
    }
  }

  std::vector<FieldVector> Draw(const std::function<FieldVector(PseudoRandomSharing&)>& draw) {
    std::vector<FieldVector> out;
    for (auto& party : parties_) out.push_back(draw(*party));
    return out;
  }

  std::unique_ptr<ShamirScheme> shamir_;
  std::vector<PrssKey> keys_;
  std::vector<std::unique_ptr<PseudoRandomSharing>> parties_;
};

INSTANTIATE_TEST_SUITE_P(Parties, PseudoRandomSharingTest,
                         ::testing::Values(Setting{3, 1}, Setting{5, 2}, Setting{7, 3}),
                         [](const auto& info) {
                           return "n" + std::to_string(info.param.n) + "t" +
                                  std::to_string(info.param.t);
                         });

TEST(PseudoRandomSharingSetsTest, KeySetsAreTheSetsOfNMinusTParties) {
  const auto sets = PseudoRandomSharing::KeySets(3, 1);
  EXPECT_EQ(sets, (std::vector<std::vector<int>>{{0, 1}, {0, 2}, {1, 2}}));
  EXPECT_EQ(PseudoRandomSharing::KeySets(5, 2).size(), 10u);
  EXPECT_EQ(PseudoRandomSharing::KeySets(7, 3).size(), 35u);
  EXPECT_EQ(PseudoRandomSharing::KeySets(7, 3).back(), (std::vector<int>{3, 4, 5, 6}));
}

// Random: consistent degree-t sharings (Reconstruct checks all n shares
// against the polynomial through the first t+1) of distinct values.
TEST_P(PseudoRandomSharingTest, RandomIsAConsistentDegreeTSharing) {
  const auto shares = Draw([](PseudoRandomSharing& p) { return p.Random(500); });
  const FieldVector values = shamir_->Reconstruct(shares, GetParam().t).value();
  for (size_t i = 1; i < values.size(); ++i) EXPECT_NE(values[i], values[i - 1]) << i;
  // Not degree t - 1: t shares alone do not fix the value.
  EXPECT_FALSE(shamir_->Reconstruct(shares, GetParam().t - 1).ok());
}

// Zero: consistent degree-2t sharings of 0 that are not degree t.
TEST_P(PseudoRandomSharingTest, ZeroIsADegreeTwoTSharingOfZero) {
  const auto shares = Draw([](PseudoRandomSharing& p) { return p.Zero(300); });
  const FieldVector values = shamir_->Reconstruct(shares, 2 * GetParam().t).value();
  for (FieldElement v : values) EXPECT_TRUE(v.IsZero());
  EXPECT_FALSE(shamir_->Reconstruct(shares, GetParam().t).ok());
}

// Bounded: integers below (n choose t) 2^bits whose mean is the sum of the
// keys' uniform means. 2000 draws of a sum of S uniforms on [0, 2^20):
// sd of the mean = 2^20 sqrt(S / 12 / 2000); 6 sd bound, error < 2e-9.
TEST_P(PseudoRandomSharingTest, BoundedIsASumOfUniformIntegersPerKey) {
  constexpr int kBits = 20, kCount = 2000;
  const auto shares = Draw([](PseudoRandomSharing& p) { return p.Bounded(kCount, kBits); });
  const FieldVector values = shamir_->Reconstruct(shares, GetParam().t).value();
  const double keys = static_cast<double>(keys_.size());
  double sum = 0;
  for (FieldElement v : values) {
    ASSERT_LT(v.value(), static_cast<uint128>(keys_.size()) << kBits);
    sum += static_cast<double>(v.value());
  }
  const double unit = static_cast<double>(1 << kBits);
  const double mean = sum / kCount, want = keys * (unit - 1) / 2;
  EXPECT_NEAR(mean, want, 6 * unit * std::sqrt(keys / 12 / kCount));
}

// The parties outside a key's set get nothing from it: a coalition of t
// parties holds no key of the set that excludes it, so replacing that key
// (everything else equal) changes the value but not the coalition's shares.
TEST_P(PseudoRandomSharingTest, TPartiesDoNotDependOnTheKeyOfTheSetExcludingThem) {
  const int n = GetParam().n, t = GetParam().t;
  const auto sets = PseudoRandomSharing::KeySets(n, t);
  const size_t excluded = sets.size() - 1;  // {t, ..., n-1}: excludes parties 0..t-1
  std::vector<PrssKey> other = keys_;
  other[excluded][0] ^= 1;
  for (int p = 0; p < t; ++p) {
    auto changed = PseudoRandomSharing::Create(*shamir_, p, other).value();
    EXPECT_EQ(changed->Random(50), parties_[p]->Random(50)) << p;
    EXPECT_EQ(changed->Zero(50), parties_[p]->Zero(50)) << p;
  }
  auto changed = PseudoRandomSharing::Create(*shamir_, n - 1, other).value();
  EXPECT_NE(changed->Random(50), parties_[n - 1]->Random(50));
}

// The pairwise stream d -> j is the same at d (Outgoing(j)) and at j
// (Incoming(d)), and differs from j -> d.
TEST(PseudoRandomSharingPairwiseTest, OutgoingAtTheDealerIsIncomingAtThePartner) {
  const ShamirScheme shamir = ShamirScheme::Create(3, 1).value();
  SeededRng rng(5);
  std::vector<PrssKey> set_keys(3), pair(9);  // pair[d * 3 + j]: key of d -> j
  for (PrssKey& key : set_keys) rng.Fill(absl::MakeSpan(key));
  for (PrssKey& key : pair) rng.Fill(absl::MakeSpan(key));
  std::vector<std::unique_ptr<PseudoRandomSharing>> parties;
  for (int p = 0; p < 3; ++p) {
    std::vector<PrssKey> outgoing(3), incoming(3);
    for (int j = 0; j < 3; ++j) {
      outgoing[j] = pair[p * 3 + j];
      incoming[j] = pair[j * 3 + p];
    }
    parties.push_back(PseudoRandomSharing::Create(shamir, p, set_keys, outgoing, incoming).value());
    EXPECT_TRUE(parties.back()->has_pairwise_streams());
  }
  const FieldVector at_dealer = RandomFieldVector(parties[0]->Outgoing(1), 10);
  EXPECT_EQ(RandomFieldVector(parties[1]->Incoming(0), 10), at_dealer);
  EXPECT_NE(RandomFieldVector(parties[1]->Outgoing(0), 10), at_dealer);
  auto bad = PseudoRandomSharing::Create(shamir, 0, set_keys, std::vector<PrssKey>(2),
                                         std::vector<PrssKey>(2));
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(PseudoRandomSharingErrorsTest, RefusesAWrongKeyCountOrParty) {
  const ShamirScheme shamir = ShamirScheme::Create(3, 1).value();
  auto few = PseudoRandomSharing::Create(shamir, 0, std::vector<PrssKey>(2));
  EXPECT_EQ(few.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(few.status().message(), HasSubstr("2 keys for 3 key sets"));
  auto party = PseudoRandomSharing::Create(shamir, 3, std::vector<PrssKey>(3));
  EXPECT_EQ(party.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pplda::crypto

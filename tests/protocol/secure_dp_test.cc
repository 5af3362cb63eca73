// DP training in the secure protocol (protocol/secure_dp_noise.h,
// protocol/encrypted_counts.h, party/lda_party.h DP mode), decrypting in the
// test with the dealt test key:
//  - SecureDpNoise validation and the shifted schedule; one party's shares
//    stay within B and its noise totals are the column sums;
//  - the plan widens its values for the noise and keeps the zero guard on;
//  - exactness: after every fold, the noisy copy decrypts to the exact
//    counts plus the sum of the parties' decrypted noise rows (and totals),
//    the exact matrix stays exact (no noise enters it), and each release's
//    noise is fresh;
//  - the published model is the last release with negative cells set to 0,
//    never the exact counts;
//  - the fold refuses an update without its noise, or with noise for an
//    iteration that has no release, naming the party;
//  - RunLocalConsortium refuses bad DP options, naming the flag.
#include <memory>

#include "coordinator/lda_coordinator.h"
#include "coordinator/run_driver.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "party/party_randomness.h"
#include "protocol/encrypted_counts.h"
#include "protocol/secure_dp_noise.h"
#include "simulation/in_process_party_group.h"
#include "simulation/local_consortium.h"

namespace pplda {
namespace {

using ::testing::HasSubstr;

protocol::SecureDpNoise Noise(int iterations, std::vector<int> noisy) {
  protocol::SecureDpNoise dp;
  dp.iterations = iterations;
  dp.noisy_iterations = std::move(noisy);
  dp.share_variance = 9;
  dp.share_bound = 40;
  return dp;
}

TEST(SecureDpTest, NoiseParametersValidate) {
  EXPECT_TRUE(Noise(3, {1, 3}).Validate().ok());
  EXPECT_THAT(std::string(Noise(0, {1}).Validate().message()), HasSubstr("at least one iteration"));
  EXPECT_THAT(std::string(Noise(3, {}).Validate().message()), HasSubstr("noisy iteration"));
  EXPECT_THAT(std::string(Noise(3, {2, 2}).Validate().message()), HasSubstr("not increasing"));
  EXPECT_THAT(std::string(Noise(3, {4}).Validate().message()), HasSubstr("not increasing"));
  protocol::SecureDpNoise low = Noise(3, {1});
  low.share_variance = mpq_class(1, 2);
  EXPECT_THAT(std::string(low.Validate().message()), HasSubstr("at least 1"));
  protocol::SecureDpNoise unbounded = Noise(3, {1});
  unbounded.share_bound = 0;
  EXPECT_THAT(std::string(unbounded.Validate().message()), HasSubstr("share bound"));
  // The twin's 0-based schedule, shifted.
  privacy::DistributedNoise d;
  d.share_variance = 5;
  d.share_bound = 33;
  const protocol::SecureDpNoise made = protocol::MakeSecureDpNoise(d, {0, 4, 9}, 10);
  EXPECT_EQ(made.noisy_iterations, (std::vector<int>{1, 5, 10}));
  EXPECT_TRUE(made.IsNoisy(5));
  EXPECT_FALSE(made.IsNoisy(6));
  EXPECT_EQ(made.share_bound, 33);
}

TEST(SecureDpTest, SharesAreBoundedAndTotalsAreColumnSums) {
  crypto::SeededRng rng(3);
  auto noise = protocol::NoiseForRelease(Noise(2, {1}), 50, 4, rng);
  ASSERT_TRUE(noise.ok()) << noise.status();
  std::vector<int64_t> sums(4, 0);
  int64_t nonzero = 0;
  for (size_t i = 0; i < noise->term_major.size(); ++i) {
    EXPECT_LE(std::abs(noise->term_major[i]), 40);
    sums[i % 4] += noise->term_major[i];
    nonzero += noise->term_major[i] != 0;
  }
  EXPECT_EQ(noise->totals, sums);
  EXPECT_GT(nonzero, 100);
}

struct Consortium {
  crypto::DealtKey key;
  std::unique_ptr<crypto::MpcConfig> config;
  std::unique_ptr<protocol::SecureLdaPlan> plan;
  std::unique_ptr<simulation::InProcessPartyGroup> group;
  std::unique_ptr<coordinator::LdaCoordinator> coordinator;
};

const std::vector<std::vector<std::vector<lda::TermId>>>& Docs() {
  static const std::vector<std::vector<std::vector<lda::TermId>>> docs = {
      {{0, 1, 1}}, {{3, 1}}, {{2}}};
  return docs;
}

// Three parties, K = 3, V = 4, fixed documents and initial topics, DP
// releases at the start of the given iterations. With `holders` the
// documents are three data holders', served by a committee of three
// without documents.
Consortium Make(int iterations, std::vector<int> noisy, bool holders = false) {
  Consortium c;
  c.key = *crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2, 3);
  c.config = std::make_unique<crypto::MpcConfig>(*crypto::MpcConfig::Create(3, 1));
  protocol::SecureLdaOptions o;
  o.num_topics = 3;
  o.dp = Noise(iterations, std::move(noisy));
  const std::vector<int64_t> tokens = {3, 2, 1};
  c.plan = std::make_unique<protocol::SecureLdaPlan>(
      holders ? *protocol::SecureLdaPlan::Create(o, 4, {0, 0, 0}, c.key.public_key->paillier(),
                                                 *c.config, tokens)
              : *protocol::SecureLdaPlan::Create(o, 4, tokens, c.key.public_key->paillier(),
                                                 *c.config));
  std::vector<simulation::InProcessPartyInput> owners = {
      {Docs()[0], {{0, 2, 2}}}, {Docs()[1], {{1, 2}}}, {Docs()[2], {{0}}}};
  std::vector<simulation::InProcessPartyInput> members(3);
  if (!holders) members = std::move(owners);
  auto rngs = [](int party,
                 party::PartyRandomSource source) -> std::unique_ptr<crypto::SecureRng> {
    return std::make_unique<crypto::SeededRng>(700 + 10 * party + static_cast<int>(source));
  };
  c.group = *simulation::InProcessPartyGroup::Create(
      std::move(members), "r", *c.plan, *c.config, c.key, rngs, nullptr,
      holders ? std::move(owners) : std::vector<simulation::InProcessPartyInput>{});
  c.coordinator = *coordinator::LdaCoordinator::Create("r", *c.plan, c.key.public_key, nullptr);
  return c;
}

lda::Vocabulary Vocab() { return *lda::Vocabulary::FromTerms({"a", "b", "c", "d"}); }

// Decrypts packed matrix ciphertexts to term-major V x K values.
std::vector<int64_t> DecryptMatrix(const Consortium& c,
                                   const std::vector<crypto::Ciphertext>& matrix) {
  std::vector<mpz_class> plain;
  for (const crypto::Ciphertext& ct : matrix) plain.push_back(*crypto::DecryptForTest(c.key, ct));
  const size_t s = c.plan->layout().slots();
  std::vector<int64_t> slots = *c.plan->layout().UnpackInt64(plain, matrix.size() * s);
  const int K = c.plan->num_topics();
  std::vector<int64_t> out(static_cast<size_t>(c.plan->num_terms()) * K);
  for (int32_t t = 0; t < c.plan->num_terms(); ++t) {
    for (int k = 0; k < K; ++k) {
      const int h = k / c.plan->chunk_width();
      out[static_cast<size_t>(t) * K + k] =
          slots[(static_cast<size_t>(t) * c.plan->chunks() + h) * s + (k - h * c.plan->chunk_width())];
    }
  }
  return out;
}

std::vector<int64_t> DecryptTotals(const Consortium& c,
                                   const std::vector<crypto::Ciphertext>& totals) {
  std::vector<mpz_class> plain;
  for (const crypto::Ciphertext& ct : totals) plain.push_back(*crypto::DecryptForTest(c.key, ct));
  return *c.plan->layout().UnpackInt64(plain, c.plan->num_topics());
}

// Term-major exact counts of the owners' current assignments (the data
// holders' when there are any).
std::vector<int64_t> ExactCounts(const Consortium& c) {
  std::vector<int64_t> out(4 * 3, 0);
  const bool holders = c.plan->num_holders() > 0;
  for (int p = 0; p < 3; ++p) {
    const auto topics =
        holders ? c.group->holder(p).Assignments() : c.group->party(p).Assignments();
    for (size_t m = 0; m < topics.size(); ++m) {
      for (size_t i = 0; i < topics[m].size(); ++i) ++out[Docs()[p][m][i] * 3 + topics[m][i]];
    }
  }
  return out;
}

TEST(SecureDpTest, PlanWidensValuesAndKeepsTheZeroGuard) {
  Consortium c = Make(2, {1, 2});
  EXPECT_TRUE(c.plan->dp());
  EXPECT_TRUE(c.plan->zero_topic_guard());
  EXPECT_TRUE(c.plan->NoisyIteration(2));
  EXPECT_FALSE(c.plan->NoisyIteration(3));
  // T + n V B + 1 = 6 + 3 * 4 * 40 + 1 = 487: 9 bits.
  EXPECT_EQ(c.plan->value_bits(), 9);
  protocol::SecureLdaOptions huge;
  huge.num_topics = 3;
  huge.dp = Noise(2, {1});
  huge.dp->share_bound = int64_t{1} << 50;
  auto plan = protocol::SecureLdaPlan::Create(huge, 100000, {3, 2, 1}, c.key.public_key->paillier(),
                                              *c.config);
  EXPECT_EQ(plan.status().code(), absl::StatusCode::kInvalidArgument);
}

// Every fold: noisy copy = exact + sum of the compute parties' noise; the
// exact matrix holds no noise; releases are fresh; publication is the last
// one. With data holders (true) the committee's members add all the noise
// and the holders' updates carry none.
class SecureDpReleaseTest : public ::testing::TestWithParam<bool> {};

INSTANTIATE_TEST_SUITE_P(Roles, SecureDpReleaseTest, ::testing::Bool());

TEST_P(SecureDpReleaseTest, NoisyCopyIsExactCountsPlusEveryComputePartysNoise) {
  const bool holders = GetParam();
  Consortium c = Make(2, {1, 2}, holders);
  protocol::EncryptedCounts own("r", *c.plan, c.key.public_key, nullptr);
  auto updates = c.group->InitialCounts();
  ASSERT_TRUE(updates.ok()) << updates.status();
  std::vector<int64_t> previous_noise;
  for (int it = 0; it <= 2; ++it) {
    ASSERT_TRUE(own.Fold(*updates, it).ok()) << it;
    ASSERT_TRUE(c.coordinator->Fold(*updates, it).ok()) << it;
    if (it < 2) {
      std::vector<int64_t> noise(12, 0), noise_totals(3, 0);
      ASSERT_EQ(updates->size(), holders ? 6u : 3u);
      for (const protocol::CountUpdate& u : *updates) {
        if (u.party >= 3) {
          EXPECT_TRUE(u.noise_matrix.empty() && u.noise_totals.empty()) << "holder " << u.party;
          continue;
        }
        ASSERT_EQ(u.noise_matrix.size(), c.plan->MatrixCiphertexts()) << "party " << u.party;
        const std::vector<int64_t> z = DecryptMatrix(c, u.noise_matrix);
        const std::vector<int64_t> zt = DecryptTotals(c, u.noise_totals);
        std::vector<int64_t> column(3, 0);
        for (size_t i = 0; i < z.size(); ++i) {
          EXPECT_LE(std::abs(z[i]), 40);
          noise[i] += z[i];
          column[i % 3] += z[i];
        }
        EXPECT_EQ(zt, column) << "party " << u.party;
        for (int k = 0; k < 3; ++k) noise_totals[k] += zt[k];
      }
      EXPECT_NE(noise, previous_noise);  // fresh per release
      previous_noise = noise;
      // Exact counts after the fold of iteration `it` (before it + 1 runs).
      const std::vector<int64_t> exact = ExactCounts(c);
      EXPECT_EQ(DecryptMatrix(c, own.matrix()), exact) << it;
      std::vector<int64_t> expected(12);
      std::vector<int64_t> expected_totals(3, 0);
      for (size_t i = 0; i < 12; ++i) {
        expected[i] = exact[i] + noise[i];
        expected_totals[i % 3] += exact[i];
      }
      for (int k = 0; k < 3; ++k) expected_totals[k] += noise_totals[k];
      EXPECT_EQ(DecryptMatrix(c, own.draw_matrix()), expected) << it;
      EXPECT_EQ(DecryptTotals(c, own.draw_totals()), expected_totals) << it;
      EXPECT_EQ(own.release_iteration(), it + 1);
      auto out = c.group->Iterate(it + 1, *updates, own.draw_matrix());
      ASSERT_TRUE(out.ok()) << out.status();
      *updates = out->updates;
    } else {
      for (const protocol::CountUpdate& u : *updates) EXPECT_TRUE(u.noise_matrix.empty());
      EXPECT_EQ(own.release_iteration(), 2);  // no release after the last iteration
    }
  }
  // Publication: the last release (iteration 2's), clamped at 0.
  const std::vector<int64_t> release = DecryptMatrix(c, own.draw_matrix());
  auto shares = c.group->Publish(*updates, c.coordinator->digest(), 2);
  ASSERT_TRUE(shares.ok()) << shares.status();
  auto model = c.coordinator->Publish(*shares, Vocab());
  ASSERT_TRUE(model.ok()) << model.status();
  std::vector<int64_t> expected(12);
  for (int k = 0; k < 3; ++k) {
    for (int t = 0; t < 4; ++t) expected[k * 4 + t] = std::max<int64_t>(release[t * 3 + k], 0);
  }
  EXPECT_EQ(model->topic_term_counts, expected);
  std::vector<int64_t> exact_kv(12);
  const std::vector<int64_t> exact = ExactCounts(c);
  for (int k = 0; k < 3; ++k) {
    for (int t = 0; t < 4; ++t) exact_kv[k * 4 + t] = exact[t * 3 + k];
  }
  EXPECT_NE(model->topic_term_counts, exact_kv);
}

TEST(SecureDpTest, FoldRefusesMissingOrUnexpectedNoise) {
  Consortium c = Make(3, {1, 3});
  protocol::EncryptedCounts own("r", *c.plan, c.key.public_key, nullptr);
  auto updates = c.group->InitialCounts();
  ASSERT_TRUE(updates.ok());
  std::vector<protocol::CountUpdate> stripped = *updates;
  stripped[1].noise_matrix.clear();
  absl::Status s = own.Fold(stripped, 0);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("party 1"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("starts with a DP release"));
  ASSERT_TRUE(own.Fold(*updates, 0).ok());
  // Iteration 2 has no release: noise with the updates of iteration 1 is refused.
  auto out = c.group->Iterate(1, *updates, {});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<protocol::CountUpdate> extra = out->updates;
  for (const protocol::CountUpdate& u : extra) EXPECT_TRUE(u.noise_matrix.empty());
  extra[2].noise_matrix = (*updates)[2].noise_matrix;
  extra[2].noise_totals = (*updates)[2].noise_totals;
  s = own.Fold(extra, 1);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("party 2 carries DP noise"));
  EXPECT_TRUE(own.Fold(out->updates, 1).ok());
}

TEST(SecureDpTest, LocalConsortiumRefusesBadDpOptions) {
  crypto::DealtKey key = *crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2, 3);
  auto run = [&](privacy::DpCountOptions dp, int iterations,
                 std::vector<std::vector<lda::TermId>> first) {
    std::vector<simulation::ConsortiumParty> parties = {
        {"a", first, {}}, {"b", {{3, 1}}, {}}, {"c", {{2}}, {}}};
    simulation::LocalConsortiumOptions o;
    o.lda.num_topics = 2;
    o.iterations = iterations;
    o.threads = 1;
    o.dp = dp;
    return simulation::RunLocalConsortium(parties, Vocab(), key, party::OsRng, o).status();
  };
  const privacy::DpCountOptions good{4, 1e-5, privacy::DocumentCaps{4, 2}, 0};
  privacy::DpCountOptions bad = good;
  bad.epsilon = 0;
  absl::Status s = run(bad, 2, {{0, 1}});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("--dp-epsilon"));
  bad = good;
  bad.noisy_iterations = 1;
  s = run(bad, 3, {{0, 1}});
  EXPECT_THAT(std::string(s.message()), HasSubstr("--dp-noisy-iterations"));
  bad = good;
  bad.caps.max_per_term = 0;
  s = run(bad, 2, {{0, 1}});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  // A document over the caps (three tokens of term 1, c = 2).
  s = run(good, 2, {{0, 1, 1, 1}});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("party a, document 0 exceeds the DP caps"));
}

}  // namespace
}  // namespace pplda

// Exact values of the public plan (hand-computed), the party's and the
// coordinator's checks of bad input (status code and message), and the
// packed layout round trip through encryption and publication.
#include "protocol/secure_lda_plan.h"

#include "coordinator/lda_coordinator.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "party/lda_party.h"

namespace pplda {
namespace {

using ::testing::HasSubstr;

struct Fixture {
  crypto::DealtKey key;
  crypto::MpcConfig config;
};

Fixture Make(int n = 3) {
  auto key = crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, n, (n - 1) / 2 + 1, 3);
  auto config = crypto::MpcConfig::Create(n, (n - 1) / 2);
  return Fixture{*std::move(key), *config};
}

absl::StatusOr<protocol::SecureLdaPlan> Plan(const Fixture& f, int K, int32_t V,
                                             std::vector<int64_t> tokens, double alpha = 0.1,
                                             double beta = 0.01) {
  protocol::SecureLdaOptions o;
  o.num_topics = K;
  o.alpha = alpha;
  o.beta = beta;
  return protocol::SecureLdaPlan::Create(o, V, std::move(tokens), f.key.public_key->paillier(),
                                         f.config);
}

TEST(SecureLdaPlanTest, HandComputedWidthsAndSlots) {
  Fixture f = Make();
  auto plan = Plan(f, 5, 1500, {1000, 1000, 1000});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->scale(), 100);
  EXPECT_EQ(plan->alpha_scaled(), 10);
  EXPECT_EQ(plan->beta_scaled(), 1);
  EXPECT_EQ(plan->value_bits(), 12);              // 3000 < 4096
  EXPECT_EQ(plan->layout().slot_bits(), 55);      // 12 + 1 + 40 + 2
  EXPECT_EQ(plan->layout().slots(), 18u);         // floor(1022 / 55)
  EXPECT_EQ(plan->chunks(), 1);
  EXPECT_EQ(plan->chunk_width(), 5);
  EXPECT_EQ(plan->items_per_ciphertext(), 3u);
  EXPECT_EQ(plan->reciprocal_bits(), 19);         // 301500 < 2^19
  EXPECT_EQ(plan->reciprocal_scale(), 40);
  EXPECT_EQ(plan->draw().weight_bits, 60);        // 40 + bit_width(300050) + 1
  EXPECT_EQ(plan->SelectionSlot(1, 2), 7u);       // token 1: slots 5..9
  EXPECT_EQ(plan->SelectionSlot(3, 0), 18u);      // token 3: ciphertext 1
  EXPECT_EQ(plan->SelectionCiphertexts(1000), 334u);
  EXPECT_EQ(plan->token_offset(2), 2000);
  EXPECT_EQ(plan->PartialDecryptionsPerIteration(2), (3 * 334u + 1) * 2);
  EXPECT_EQ(plan->PartialDecryptionsForPublication(2), (1500u + 1) * 2);
}

TEST(SecureLdaPlanTest, TopicsWiderThanACiphertextAreChunked) {
  Fixture f = Make();
  auto plan = Plan(f, 20, 30, {2000, 2000, 0});  // 18 slots of 55 bits
  ASSERT_TRUE(plan.ok()) << plan.status();
  // Cost sum_p ceil(2000 chunks / floor(18 / C)) + 30 chunks / 16 is
  // smallest at C = 2 (10 chunks, 9 per ciphertext: 2 x 2223 + 18.75).
  EXPECT_EQ(plan->chunk_width(), 2);
  EXPECT_EQ(plan->chunks(), 10);
  EXPECT_EQ(plan->ChunkTopics(9), 2);
  EXPECT_EQ(plan->items_per_ciphertext(), 9u);
  EXPECT_EQ(plan->SelectionSlot(0, 13), 13u);  // item 6, slot 6 * 2 + 1
  EXPECT_EQ(plan->SelectionSlot(1, 0), 20u);  // item 10: ciphertext 1, slot 2
  EXPECT_EQ(plan->SelectionCiphertexts(2000), 2223u);
  EXPECT_EQ(plan->MatrixCiphertexts(), 300u);
  EXPECT_EQ(plan->TotalsCiphertexts(), 2u);
}

TEST(SecureLdaPlanTest, DoublingTopicsSplitsThemIntoCheapChunks) {
  Fixture f = Make();
  // K = 10, T = 3,000, V = 2,280, 18 slots: C = 6 and C = 5 both cost
  // 3 x 667 + 2280 x 2 / 16 = 2286 (ties keep 6); C = 10 costs 3 x 1000 +
  // 142.5, C = 2 3 x 556 + 712.5.
  auto plan = Plan(f, 10, 2280, {1000, 1000, 1000});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->chunk_width(), 6);
  EXPECT_EQ(plan->chunks(), 2);
  EXPECT_EQ(plan->ChunkTopics(1), 4);
  EXPECT_EQ(plan->items_per_ciphertext(), 3u);
  EXPECT_EQ(plan->SelectionSlot(0, 7), 7u);  // item 1 (chunk 1), slot 6 + 1
}

// A committee of three with no documents serving four data holders: the
// same public widths as three parties holding the same 3,000 tokens, the
// holders' tokens after the committee's in the global order.
TEST(SecureLdaPlanTest, DataHoldersOwnTokensAfterTheCommittee) {
  Fixture f = Make();
  protocol::SecureLdaOptions o;
  o.num_topics = 5;
  auto plan = protocol::SecureLdaPlan::Create(o, 1500, {0, 0, 0}, f.key.public_key->paillier(),
                                              f.config, {1000, 500, 1000, 500});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->num_parties(), 3);
  EXPECT_EQ(plan->num_holders(), 4);
  EXPECT_EQ(plan->num_owners(), 7);
  EXPECT_EQ(plan->HolderOwner(2), 5);
  EXPECT_EQ(plan->total_tokens(), 3000);
  EXPECT_EQ(plan->tokens_of(plan->HolderOwner(1)), 500);
  EXPECT_EQ(plan->token_offset(plan->HolderOwner(0)), 0);
  EXPECT_EQ(plan->token_offset(plan->HolderOwner(3)), 2500);
  auto same = Plan(f, 5, 1500, {1000, 1000, 1000});
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(plan->value_bits(), same->value_bits());
  EXPECT_EQ(plan->layout().slot_bits(), same->layout().slot_bits());  // masks of 3 parties
  EXPECT_EQ(plan->draw().weight_bits, same->draw().weight_bits);
  EXPECT_EQ(plan->PartialDecryptionsPerIteration(2), (2 * 334u + 2 * 167u + 1) * 2);

  auto negative = protocol::SecureLdaPlan::Create(o, 1500, {1, 1, 1}, f.key.public_key->paillier(),
                                                  f.config, {5, -1});
  EXPECT_EQ(negative.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(negative.status().message(), HasSubstr("data holder 1 has -1 tokens"));
}

TEST(SecureLdaPlanTest, RejectsBadParameters) {
  Fixture f = Make();
  auto bad_alpha = Plan(f, 5, 10, {1, 1, 1}, 0.1234567);
  EXPECT_EQ(bad_alpha.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad_alpha.status().message(), HasSubstr("alpha"));
  auto bad_k = Plan(f, 0, 10, {1, 1, 1});
  EXPECT_EQ(bad_k.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad_k.status().message(), HasSubstr("num_topics"));
  auto no_tokens = Plan(f, 5, 10, {0, 0, 0});
  EXPECT_EQ(no_tokens.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(no_tokens.status().message(), HasSubstr("T = 0"));
  auto wrong_parties = Plan(f, 5, 10, {1, 1});
  EXPECT_EQ(wrong_parties.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(wrong_parties.status().message(), HasSubstr("tokens_per_party"));
  auto no_terms = Plan(f, 5, 0, {1, 1, 1});
  EXPECT_THAT(no_terms.status().message(), HasSubstr("vocabulary is empty"));
}

TEST(LdaPartyTest, RejectsBadDocuments) {
  Fixture f = Make();
  auto plan = Plan(f, 3, 4, {2, 1, 1});
  ASSERT_TRUE(plan.ok());
  crypto::SeededRng rng(1);
  auto enc = crypto::PaillierEncryptor::Create(f.key.public_key->paillier(), rng);
  ASSERT_TRUE(enc.ok());
  auto bad_term = party::LdaParty::Create(0, "r", *plan, {{0, 7}}, {{0, 0}}, f.key.shares[0],
                                          **enc, rng, nullptr);
  EXPECT_EQ(bad_term.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad_term.status().message(), HasSubstr("term id 7"));
  auto bad_topic = party::LdaParty::Create(0, "r", *plan, {{0, 1}}, {{0, 3}}, f.key.shares[0],
                                           **enc, rng, nullptr);
  EXPECT_THAT(bad_topic.status().message(), HasSubstr("topic 3"));
  auto wrong_count = party::LdaParty::Create(0, "r", *plan, {{0}}, {{0}}, f.key.shares[0], **enc,
                                             rng, nullptr);
  EXPECT_THAT(wrong_count.status().message(), HasSubstr("the plan says 2"));
  auto mismatch = party::LdaParty::Create(0, "r", *plan, {{0, 1}}, {{0}}, f.key.shares[0], **enc,
                                          rng, nullptr);
  EXPECT_THAT(mismatch.status().message(), HasSubstr("document 0"));
}

}  // namespace
}  // namespace pplda

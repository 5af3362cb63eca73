// The parties do not trust the coordinator (docs/protocol.md, "Untrusted
// coordinator"): publication through the run driver's PartyGroup gives the
// exact counts; a relay that alters a party's own update, relays different
// updates to different parties, or a request to decrypt anything but the
// agreed fold is refused, each with its own status and message; the
// coordinator refuses a decryption share whose proofs fail.
#include <memory>

#include "coordinator/lda_coordinator.h"
#include "coordinator/run_driver.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "party/party_randomness.h"
#include "simulation/in_process_party_group.h"

namespace pplda {
namespace {

using ::testing::HasSubstr;

struct Consortium {
  crypto::DealtKey key;
  std::unique_ptr<protocol::SecureLdaPlan> plan;
  std::unique_ptr<simulation::InProcessPartyGroup> group;
  std::unique_ptr<coordinator::LdaCoordinator> coordinator;
};

// Three parties, K = 3, V = 4, fixed documents and initial topics.
Consortium Make() {
  Consortium c;
  c.key = *crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2, 3);
  auto config = crypto::MpcConfig::Create(3, 1);
  protocol::SecureLdaOptions o;
  o.num_topics = 3;
  c.plan = std::make_unique<protocol::SecureLdaPlan>(
      *protocol::SecureLdaPlan::Create(o, 4, {3, 2, 1}, c.key.public_key->paillier(), *config));
  std::vector<simulation::InProcessPartyInput> inputs = {
      {{{0, 1, 1}}, {{0, 2, 2}}}, {{{3, 1}}, {{1, 2}}}, {{{2}}, {{0}}}};
  auto rngs = [](int party,
                 party::PartyRandomSource source) -> std::unique_ptr<crypto::SecureRng> {
    return std::make_unique<crypto::SeededRng>(500 + 3 * party + static_cast<int>(source));
  };
  c.group = *simulation::InProcessPartyGroup::Create(std::move(inputs), "r", *c.plan, *config,
                                                     c.key, rngs, nullptr);
  c.coordinator = *coordinator::LdaCoordinator::Create("r", *c.plan, c.key.public_key, nullptr);
  return c;
}

lda::Vocabulary Vocab() { return *lda::Vocabulary::FromTerms({"a", "b", "c", "d"}); }

TEST(UntrustedCoordinatorTest, PublishesTheExactInitialCounts) {
  Consortium c = Make();
  auto updates = c.group->InitialCounts();
  ASSERT_TRUE(updates.ok()) << updates.status();
  ASSERT_TRUE(c.coordinator->Fold(*updates, 0).ok());
  auto shares = c.group->Publish(*updates, c.coordinator->digest(), 2);
  ASSERT_TRUE(shares.ok()) << shares.status();
  ASSERT_EQ(shares->size(), 2u);
  EXPECT_FALSE((*shares)[0].partials.proofs.empty());
  auto model = c.coordinator->Publish(*shares, Vocab());
  ASSERT_TRUE(model.ok()) << model.status();
  // n_k(t), K x V: topic 0 has a, c; topic 1 has d; topic 2 has b, b, b.
  EXPECT_EQ(model->topic_term_counts, (std::vector<int64_t>{1, 0, 1, 0, 0, 0, 0, 1, 0, 3, 0, 0}));
}

TEST(UntrustedCoordinatorTest, DriverRunsIterationsAndPublishesConsistentCounts) {
  Consortium c = Make();
  coordinator::RunDriverOptions options;
  options.iterations = 2;
  int steps = 0;
  options.on_step = [&](const coordinator::IterationReport&) { ++steps; };
  auto run = coordinator::DriveRun(*c.coordinator, *c.group, Vocab(), options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(steps, 4);  // initialisation, 2 iterations, publication
  // The published counts are the parties' assignments, exactly.
  std::vector<int64_t> expected(3 * 4, 0);
  const std::vector<std::vector<std::vector<lda::TermId>>> docs = {{{0, 1, 1}}, {{3, 1}}, {{2}}};
  for (int p = 0; p < 3; ++p) {
    const auto topics = c.group->party(p).Assignments();
    for (size_t i = 0; i < docs[p][0].size(); ++i) ++expected[topics[0][i] * 4 + docs[p][0][i]];
  }
  EXPECT_EQ(run->model.topic_term_counts, expected);
}

TEST(UntrustedCoordinatorTest, PartyRefusesAnAlteredOwnUpdate) {
  Consortium c = Make();
  auto updates = *c.group->InitialCounts();
  auto altered = updates;
  std::swap(altered[0].matrix[0], altered[0].matrix[1]);
  absl::Status status = c.group->party(0).AcceptUpdates(altered);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("is not the one it sent"));
  // Nothing changed: the genuine relay is still accepted.
  EXPECT_TRUE(c.group->party(0).AcceptUpdates(updates).ok());
}

TEST(UntrustedCoordinatorTest, PartiesDetectDifferentRelaysToDifferentParties) {
  Consortium c = Make();
  auto updates = *c.group->InitialCounts();
  ASSERT_TRUE(c.coordinator->Fold(updates, 0).ok());
  // Party 2 is given a party-1 update whose ciphertexts are swapped: it
  // cannot tell alone, but the digests differ.
  auto forged = updates;
  std::swap(forged[1].matrix[0], forged[1].matrix[2]);
  ASSERT_TRUE(c.group->party(0).AcceptUpdates(updates).ok());
  ASSERT_TRUE(c.group->party(1).AcceptUpdates(updates).ok());
  ASSERT_TRUE(c.group->party(2).AcceptUpdates(forged).ok());
  absl::Status status = c.group->network().RunParties([&](int p) {
    return c.group->party(p).ConfirmCounts(c.group->engine(p));
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr("folded different updates"));
}

TEST(UntrustedCoordinatorTest, PartyRefusesToDecryptAnythingButTheAgreedFold) {
  Consortium c = Make();
  auto updates = *c.group->InitialCounts();
  ASSERT_TRUE(c.coordinator->Fold(updates, 0).ok());
  protocol::CountsDigest other = c.coordinator->digest();
  other[0] ^= 1;
  auto shares = c.group->Publish(updates, other, 2);
  EXPECT_EQ(shares.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(shares.status().message(), HasSubstr("refusing to decrypt"));
  // Before the parties confirmed the fold, a party decrypts nothing.
  Consortium d = Make();
  auto fresh = *d.group->InitialCounts();
  ASSERT_TRUE(d.group->party(0).AcceptUpdates(fresh).ok());
  EXPECT_EQ(d.group->party(0).DecryptModel(d.group->party(0).counts_digest()).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(UntrustedCoordinatorTest, CoordinatorRefusesAShareWithAFailingProof) {
  Consortium c = Make();
  auto updates = *c.group->InitialCounts();
  ASSERT_TRUE(c.coordinator->Fold(updates, 0).ok());
  auto shares = *c.group->Publish(updates, c.coordinator->digest(), 2);
  shares[1].partials.values[0] = shares[0].partials.values[0];
  auto model = c.coordinator->Publish(shares, Vocab());
  EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(model.status().message(), HasSubstr("party 1"));
}

}  // namespace
}  // namespace pplda

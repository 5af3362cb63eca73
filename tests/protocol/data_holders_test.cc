// A committee serving data holders outside it (party/data_holder.h), in one
// process: the published counts are exactly the counts of the holders'
// final topics; a holder receives nothing but the committee's attestations
// and its own tokens' topics (beside the public draw matrix); a holder
// handed another matrix than the committee agreed on refuses it.
#include <algorithm>
#include <memory>
#include <vector>

#include "coordinator/lda_coordinator.h"
#include "crypto/paillier/paillier_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "protocol/data_holder_rounds.h"
#include "simulation/in_process_party_group.h"
#include "simulation/local_consortium.h"
#include "tests/protocol/protocol_test_util.h"

namespace pplda {
namespace {

using ::testing::HasSubstr;

constexpr int kTopics = 4;

// The SOTU slice's 24 windows as `holders` data holders of about equal
// documents.
std::vector<simulation::ConsortiumParty> Holders(const lda::Corpus& corpus, int holders) {
  std::vector<int> docs(holders, corpus.num_documents() / holders);
  docs.back() += corpus.num_documents() % holders;
  std::vector<simulation::ConsortiumParty> parties = protocol_testing::SplitParties(corpus, docs);
  for (int i = 0; i < holders; ++i) parties[i].name = "holder" + std::to_string(i);
  return parties;
}

simulation::LocalConsortiumOptions Options(int committee) {
  simulation::LocalConsortiumOptions o;
  o.lda.num_topics = kTopics;
  o.iterations = 2;
  o.seed = 5;
  o.threads = 2;
  o.committee = committee;
  return o;
}

class DataHoldersTest : public ::testing::TestWithParam<int> {};

INSTANTIATE_TEST_SUITE_P(Committees, DataHoldersTest, ::testing::Values(3, 5));

TEST_P(DataHoldersTest, TheModelIsTheCountsOfTheHoldersTopics) {
  const int n = GetParam(), holders = 4;
  auto slice = protocol_testing::SotuSlice(8, 20, 0);
  ASSERT_TRUE(slice.ok()) << slice.status();
  const std::vector<simulation::ConsortiumParty> parties = Holders(slice->train, holders);
  auto key = crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, n, (n - 1) / 2 + 1, 7);
  ASSERT_TRUE(key.ok()) << key.status();
  auto result = simulation::RunLocalConsortium(parties, slice->train.vocabulary, *key,
                                               protocol_testing::SeededRngs(11), Options(n));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->num_parties, n);
  EXPECT_EQ(result->num_holders, holders);
  ASSERT_EQ(result->party_names.size(), static_cast<size_t>(n + holders));
  EXPECT_EQ(result->party_names[0], "committee-0");
  EXPECT_EQ(result->party_names[n], "holder0");

  // Published counts = the counts of every holder's final topics.
  const size_t V = slice->train.vocabulary.size();
  std::vector<int64_t> expected(kTopics * V, 0);
  for (int i = 0; i < holders; ++i) {
    const auto& topics = result->assignments[n + i];
    ASSERT_EQ(topics.size(), parties[i].documents.size());
    for (size_t m = 0; m < topics.size(); ++m) {
      ASSERT_EQ(topics[m].size(), parties[i].documents[m].size());
      for (size_t j = 0; j < topics[m].size(); ++j) {
        ++expected[static_cast<size_t>(topics[m][j]) * V + parties[i].documents[m][j]];
      }
    }
    ASSERT_EQ(result->mixtures[n + i].size(), parties[i].documents.size());
  }
  EXPECT_EQ(result->model.topic_term_counts, expected);
  for (int p = 0; p < n; ++p) EXPECT_TRUE(result->assignments[p].empty());

  // What each holder received on its links: from every member, per
  // iteration, the 32-byte attestation and its tokens' topics (its part
  // of K - 1 replicated bits per token in 64-bit words, for n = 3 and 5
  // alike). Nothing else reaches it.
  for (int i = 0; i < holders; ++i) {
    int64_t tokens = 0;
    for (const auto& d : parties[i].documents) tokens += static_cast<int64_t>(d.size());
    const uint64_t reveal = 8 * ((tokens * (kTopics - 1) + 63) / 64);
    EXPECT_EQ(result->stats.link_bytes_received[n + i], 2u * n * (32 + reveal)) << "holder " << i;
  }
}

// A committee of 3 without documents serving 2 data holders (their
// initial topics all 0), its initial counts folded by a coordinator.
struct HolderGroup {
  std::optional<crypto::DealtKey> key;
  std::optional<protocol::SecureLdaPlan> plan;
  std::unique_ptr<simulation::InProcessPartyGroup> group;
  std::vector<protocol::CountUpdate> initial;
  std::unique_ptr<coordinator::LdaCoordinator> coordinator;

  void Start() {
    auto slice = protocol_testing::SotuSlice(4, 10, 0);
    ASSERT_TRUE(slice.ok()) << slice.status();
    const std::vector<simulation::ConsortiumParty> parties = Holders(slice->train, 2);
    auto dealt = crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2, 9);
    ASSERT_TRUE(dealt.ok()) << dealt.status();
    key = *std::move(dealt);
    protocol::SecureLdaOptions lda;
    lda.num_topics = kTopics;
    auto config = crypto::MpcConfig::Create(3, 1).value();
    std::vector<int64_t> holder_tokens;
    std::vector<simulation::InProcessPartyInput> inputs(3), holder_inputs;
    for (const auto& p : parties) {
      int64_t t = 0;
      std::vector<std::vector<int>> topics;
      for (const auto& d : p.documents) {
        t += static_cast<int64_t>(d.size());
        topics.emplace_back(d.size(), 0);
      }
      holder_tokens.push_back(t);
      holder_inputs.push_back(simulation::InProcessPartyInput{p.documents, topics});
    }
    auto made = protocol::SecureLdaPlan::Create(lda, slice->train.vocabulary.size(), {0, 0, 0},
                                                key->public_key->paillier(), config, holder_tokens);
    ASSERT_TRUE(made.ok()) << made.status();
    plan = *std::move(made);
    auto created = simulation::InProcessPartyGroup::Create(inputs, "run", *plan, config, *key,
                                                           protocol_testing::SeededRngs(3), nullptr,
                                                           holder_inputs);
    ASSERT_TRUE(created.ok()) << created.status();
    group = *std::move(created);
    auto counts = group->InitialCounts();
    ASSERT_TRUE(counts.ok()) << counts.status();
    initial = *std::move(counts);
    auto c = coordinator::LdaCoordinator::Create("run", *plan, key->public_key, nullptr);
    ASSERT_TRUE(c.ok());
    coordinator = *std::move(c);
    ASSERT_TRUE(coordinator->Fold(initial, 0).ok());
  }
};

// The coordinator hands data holder 0 a matrix other than the committee's
// fold (one party's counts are folded twice): the holder refuses before
// selecting from it, naming a committee member.
TEST(DataHoldersRefusalTest, AHolderRefusesAMatrixTheCommitteeDidNotAgreeOn) {
  HolderGroup g;
  ASSERT_NO_FATAL_FAILURE(g.Start());
  auto& key = g.key;
  auto& plan = g.plan;
  auto& group = g.group;
  auto& initial = g.initial;
  auto& coordinator = g.coordinator;
  std::vector<crypto::Ciphertext> tampered = coordinator->fold().draw_matrix();
  const crypto::PaillierEvaluator evaluator(key->public_key->paillier());
  tampered = evaluator.AddBatch(tampered, initial[3].matrix, nullptr).value();
  auto out = group->Iterate(1, initial, tampered);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition) << out.status();
  EXPECT_THAT(out.status().message(), HasSubstr("are not the ones committee member"));
  EXPECT_THAT(out.status().message(), HasSubstr("handed it a different matrix"));
}

// From iteration 1 on a data holder's deltas reach the committee as
// shares (party/holder_delta_shares.h): its update is empty, every
// member's (data-less too) is full, and the coordinator folds them.
TEST(DataHoldersTest, HoldersSendSharesAndMembersEncryptTheSum) {
  HolderGroup g;
  ASSERT_NO_FATAL_FAILURE(g.Start());
  auto& key = g.key;
  auto& plan = g.plan;
  auto& group = g.group;
  auto& initial = g.initial;
  auto& coordinator = g.coordinator;
  // The holders' initial counts are their own encryptions.
  for (int h = 3; h < 5; ++h) EXPECT_EQ(initial[h].matrix.size(), plan->MatrixCiphertexts());
  auto out = group->Iterate(1, initial, coordinator->fold().draw_matrix());
  ASSERT_TRUE(out.ok()) << out.status();
  for (int p = 0; p < 3; ++p) {
    EXPECT_EQ(out->updates[p].matrix.size(), plan->MatrixCiphertexts()) << "member " << p;
    EXPECT_EQ(out->updates[p].totals.size(), plan->TotalsCiphertexts()) << "member " << p;
  }
  for (int h = 3; h < 5; ++h) {
    EXPECT_TRUE(out->updates[h].matrix.empty() && out->updates[h].totals.empty()) << h;
  }
  EXPECT_TRUE(coordinator->Fold(out->updates, 1).ok());
  // A holder update that carries ciphertexts after iteration 0 is refused.
  std::vector<protocol::CountUpdate> forged = out->updates;
  forged[3].matrix = out->updates[0].matrix;
  forged[3].totals = out->updates[0].totals;
  auto other = coordinator::LdaCoordinator::Create("run", *plan, key->public_key, nullptr);
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE((*other)->Fold(initial, 0).ok());
  const absl::Status refused = (*other)->Fold(forged, 1);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument) << refused;
  EXPECT_THAT(refused.message(), HasSubstr("go to the committee as shares"));
}

TEST(DataHoldersRefusalTest, AnEvenOrTooSmallCommitteeIsRefused) {
  auto slice = protocol_testing::SotuSlice(4, 10, 0);
  ASSERT_TRUE(slice.ok()) << slice.status();
  auto key = crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2, 9);
  ASSERT_TRUE(key.ok()) << key.status();
  for (int committee : {1, 4}) {
    auto result =
        simulation::RunLocalConsortium(Holders(slice->train, 3), slice->train.vocabulary, *key,
                                       protocol_testing::SeededRngs(1), Options(committee));
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(result.status().message(), HasSubstr("an odd number, 3 or more"));
  }
}

}  // namespace
}  // namespace pplda

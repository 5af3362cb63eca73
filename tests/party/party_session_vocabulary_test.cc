// PartySession's secure DP vocabulary steps: a DP vocabulary
// needs DP training and leaves it part of the budget (refused at Join
// otherwise, naming the flag); the three steps run in order, each once, and
// an out-of-order step is refused without failing the run; Prepare waits for
// the selection; a data holder with a privacy budget debits the run's whole
// budget at its contribution, once. (The steps end to end, over the
// network: tests/e2e/consortium_run_test.cc.)
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "crypto/mpc/transport.h"
#include "crypto/paillier/paillier_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lda/corpus.h"
#include "party/party_randomness.h"
#include "party/party_session.h"
#include "party/privacy_ledger.h"
#include "proto/party_control_service.pb.h"
#include "tests/party/unused_transport.h"

namespace pplda::party {
namespace {

using ::testing::HasSubstr;

using testing::UnusedTransport;

const crypto::DealtKey& TestKey() {
  static const crypto::DealtKey* const key =
      new crypto::DealtKey(crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2).value());
  return *key;
}

pplda::v1::RunParameters DpVocabularyParameters(double epsilon, double vocab_epsilon) {
  pplda::v1::RunParameters p;
  p.set_num_topics(2);
  p.set_alpha(0.5);
  p.set_beta(0.1);
  p.set_iterations(2);
  p.set_draw_method("binary");
  p.set_vocabulary_sha256("v");
  if (epsilon > 0) {
    p.set_dp_epsilon(epsilon);
    p.set_dp_delta(1e-5);
    p.set_dp_max_tokens(10);
    p.set_dp_max_term_count(2);
  }
  p.set_dp_vocab_epsilon(vocab_epsilon);
  p.set_dp_vocab_delta(5e-6);
  p.set_dp_vocab_max_terms(vocab_epsilon > 0 ? 20 : 0);
  return p;
}

class PartySessionVocabularyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* term : {"river", "water", "boat"}) corpus_.vocabulary.Add(term);
    corpus_.documents.push_back(lda::Document{"d", {0, 1, 2}});
    resources_.num_parties = 3;
    resources_.key_share = &TestKey().shares[0];
    resources_.corpus = &corpus_;
    resources_.vocabulary_sha256 = "v";
    resources_.rng_factory = [](PartyRandomSource source) { return OsRng(0, source); };
    dir_ = std::filesystem::temp_directory_path() /
           ("pplda-session-vocabulary-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    resources_.state_dir = dir_;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  absl::StatusOr<std::unique_ptr<PartySession>> Join(const pplda::v1::RunParameters& p) {
    return PartySession::Create("run-v", p, resources_, transport_);
  }

  static pplda::v1::VocabularyRequest Step(char step) {
    pplda::v1::VocabularyRequest r;
    if (step == 'c') r.mutable_contribute();
    if (step == 'd') r.mutable_decrypt();
    if (step == 's') r.mutable_select();
    return r;
  }

  lda::Corpus corpus_;
  PartyResources resources_;
  UnusedTransport transport_;
  std::filesystem::path dir_;
};

TEST_F(PartySessionVocabularyTest, ADpVocabularyNeedsDpTrainingAndRoomForIt) {
  const absl::Status alone = Join(DpVocabularyParameters(0, 1)).status();
  EXPECT_EQ(alone.code(), absl::StatusCode::kInvalidArgument) << alone;
  EXPECT_THAT(alone.message(), HasSubstr("add --dp-epsilon"));
  const absl::Status whole = Join(DpVocabularyParameters(2, 2)).status();
  EXPECT_EQ(whole.code(), absl::StatusCode::kInvalidArgument) << whole;
  EXPECT_THAT(whole.message(), HasSubstr("must be below the run's"));
  pplda::v1::RunParameters stray = DpVocabularyParameters(2, 0);
  stray.set_dp_vocab_threshold(4);
  const absl::Status threshold = Join(stray).status();
  EXPECT_EQ(threshold.code(), absl::StatusCode::kInvalidArgument) << threshold;
  EXPECT_THAT(threshold.message(), HasSubstr("set dp_vocab_epsilon"));
  EXPECT_TRUE(Join(DpVocabularyParameters(2, 1)).ok());
}

// Join reveals only whether the party holds documents in a DP-vocabulary
// run (its totals over the candidates against those over the selection
// would count the dropped terms' tokens); the totals otherwise.
TEST_F(PartySessionVocabularyTest, JoinRevealsOnlyWhetherThePartyHoldsDocuments) {
  absl::StatusOr<std::unique_ptr<PartySession>> dp_vocabulary = Join(DpVocabularyParameters(2, 1));
  ASSERT_TRUE(dp_vocabulary.ok()) << dp_vocabulary.status();
  EXPECT_EQ((*dp_vocabulary)->join_tokens(), 1);
  EXPECT_EQ((*dp_vocabulary)->join_documents(), 0);
  EXPECT_EQ((*dp_vocabulary)->tokens(), 3);
  absl::StatusOr<std::unique_ptr<PartySession>> plain = Join(DpVocabularyParameters(2, 0));
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ((*plain)->join_tokens(), 3);
  EXPECT_EQ((*plain)->join_documents(), 1);
  corpus_.documents.clear();
  absl::StatusOr<std::unique_ptr<PartySession>> helper = Join(DpVocabularyParameters(2, 1));
  ASSERT_TRUE(helper.ok()) << helper.status();
  EXPECT_EQ((*helper)->join_tokens(), 0);
}

TEST_F(PartySessionVocabularyTest, ARunWithoutADpVocabularyRefusesTheSteps) {
  absl::StatusOr<std::unique_ptr<PartySession>> session = Join(DpVocabularyParameters(2, 0));
  ASSERT_TRUE(session.ok()) << session.status();
  const absl::Status s = (*session)->Vocabulary(Step('c')).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(s.message(), HasSubstr("has no DP vocabulary"));
}

TEST_F(PartySessionVocabularyTest, StepsOutOfOrderAreRefusedWithoutFailingTheRun) {
  absl::StatusOr<std::unique_ptr<PartySession>> session = Join(DpVocabularyParameters(2, 1));
  ASSERT_TRUE(session.ok()) << session.status();
  PartySession& run = **session;
  for (char step : {'d', 's'}) {
    const absl::Status s = run.Vocabulary(Step(step)).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
    EXPECT_THAT(s.message(), HasSubstr("asked after 0 of its 3 steps"));
  }
  const absl::Status none = run.Vocabulary(pplda::v1::VocabularyRequest()).status();
  EXPECT_EQ(none.code(), absl::StatusCode::kInvalidArgument) << none;
  pplda::v1::PrepareRequest prepare;
  for (int p = 0; p < 3; ++p) prepare.add_tokens_per_party(3);
  const absl::Status early = run.Prepare(prepare).status();
  EXPECT_EQ(early.code(), absl::StatusCode::kFailedPrecondition) << early;
  EXPECT_THAT(early.message(), HasSubstr("selects its vocabulary by DP first"));
  EXPECT_FALSE(run.failed());

  absl::StatusOr<pplda::v1::VocabularyReply> contribution = run.Vocabulary(Step('c'));
  ASSERT_TRUE(contribution.ok()) << contribution.status();
  EXPECT_GT(contribution->contribution().ciphertexts_size(), 0);
  EXPECT_EQ(run.state(), "DP vocabulary step 1 of 3");
  const absl::Status again = run.Vocabulary(Step('c')).status();
  EXPECT_EQ(again.code(), absl::StatusCode::kFailedPrecondition) << again;
  EXPECT_THAT(again.message(), HasSubstr("'contribute' asked after 1"));
  // The decrypt step needs every party's contribution (none here): refused,
  // and the run is over at this party.
  const absl::Status decrypt = run.Vocabulary(Step('d')).status();
  EXPECT_EQ(decrypt.code(), absl::StatusCode::kInvalidArgument) << decrypt;
  EXPECT_TRUE(run.failed());
}

TEST_F(PartySessionVocabularyTest, ADataHolderDebitsTheWholeRunBudgetAtItsContributionOnce) {
  resources_.privacy_budget = PrivacyBudget{3.0, 1e-4};
  absl::StatusOr<std::unique_ptr<PartySession>> session = Join(DpVocabularyParameters(2, 1));
  ASSERT_TRUE(session.ok()) << session.status();
  ASSERT_TRUE((*session)->Vocabulary(Step('c')).ok());
  absl::StatusOr<PrivacyLedger> ledger = PrivacyLedger::Load(dir_);
  ASSERT_TRUE(ledger.ok()) << ledger.status();
  ASSERT_EQ(ledger->entries().size(), 1u);
  EXPECT_EQ(ledger->entries()[0].run_id, "run-v");
  EXPECT_DOUBLE_EQ(ledger->Spent().epsilon, 2.0) << "the run's whole budget, vocabulary included";
  // Over what is left: refused before anything is encrypted.
  absl::StatusOr<std::unique_ptr<PartySession>> over =
      PartySession::Create("run-w", DpVocabularyParameters(2, 1), resources_, transport_);
  ASSERT_TRUE(over.ok()) << over.status();
  const absl::StatusOr<pplda::v1::VocabularyReply> refused = (*over)->Vocabulary(Step('c'));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition) << refused.status();
  EXPECT_FALSE(refused.ok());
}

}  // namespace
}  // namespace pplda::party

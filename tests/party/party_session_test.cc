// PartySession::Create: the run id names the party's folder
// state_dir/runs/<run id>/ (its mixtures.csv), so an id that would leave that
// folder ('/', '\\', "." or "..", a control character, empty) is refused with
// InvalidArgument naming header.run_id, before anything else is looked at; a
// plain id (even one holding "..") goes on to the parameter checks.
#include "party/party_session.h"

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "base/atomic_file.h"
#include "crypto/mpc/transport.h"
#include "crypto/paillier/paillier_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lda/corpus.h"
#include "party/party_randomness.h"
#include "party/privacy_ledger.h"
#include "proto/party_control_service.pb.h"
#include "protocol/run_state_file.h"
#include "tests/party/unused_transport.h"

namespace pplda::party {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using testing::UnusedTransport;

absl::Status CreateWithRunId(const std::string& run_id) {
  UnusedTransport transport;
  PartyResources resources;
  pplda::v1::RunParameters parameters;  // num_topics 0: refused after the run id
  return PartySession::Create(run_id, parameters, resources, transport).status();
}

TEST(PartySessionTest, RefusesARunIdThatLeavesTheRunsFolder) {
  for (const std::string& run_id : std::vector<std::string>{
           "../escape", "..", ".", "runs/../../etc", "a/b", "/absolute", "a\\b", "tab\there",
           std::string("nul\0x", 5), ""}) {
    const absl::Status s = CreateWithRunId(run_id);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << run_id << ": " << s;
    EXPECT_THAT(s.message(), HasSubstr("header.run_id")) << run_id;
  }
}

TEST(PartySessionTest, RefusesAnOverlongRunId) {
  const absl::Status s = CreateWithRunId(std::string(256, 'r'));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("header.run_id"));
  EXPECT_THAT(s.message(), HasSubstr("at most 255"));
}

TEST(PartySessionTest, APlainRunIdGoesOnToTheParameterChecks) {
  for (const std::string& run_id :
       std::vector<std::string>{"run-20261124-0001", "a..b", "...", std::string(255, 'r')}) {
    const absl::Status s = CreateWithRunId(run_id);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << run_id << ": " << s;
    EXPECT_THAT(s.message(), Not(HasSubstr("header.run_id"))) << run_id;
    EXPECT_THAT(s.message(), HasSubstr("parameters.num_topics")) << run_id;
  }
}

// Prepare with this party (index 0, 3 tokens) and the others' totals:
// Prepare's first error. With UnusedTransport a run that gets past the
// two-holder check fails at the plan comparison, the first MPC round.
// A compute party's resources over `corpus`: party 0 of 3 with the test
// key's share, vocabulary hash "v", OS randomness.
PartyResources ComputePartyResources(const lda::Corpus& corpus) {
  static const crypto::DealtKey* const key =
      new crypto::DealtKey(crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2).value());
  PartyResources resources;
  resources.num_parties = 3;
  resources.key_share = &key->shares[0];
  resources.corpus = &corpus;
  resources.vocabulary_sha256 = "v";
  resources.rng_factory = [](PartyRandomSource source) { return OsRng(0, source); };
  return resources;
}

absl::Status PrepareWith(const std::vector<uint64_t>& others, bool accepted, double dp_epsilon,
                         std::optional<PrivacyBudget> budget = std::nullopt,
                         const std::filesystem::path& state_dir = {},
                         const std::string& run_id = "run-1",
                         PrivacyBudget ceiling = kDefaultRunDpCeiling, double dp_delta = 1e-5) {
  lda::Corpus corpus;
  for (const char* term : {"river", "water", "boat"}) corpus.vocabulary.Add(term);
  corpus.documents.push_back(lda::Document{"d", {0, 1, 2}});
  UnusedTransport transport;
  PartyResources resources = ComputePartyResources(corpus);
  resources.accept_two_holder_disclosure = accepted;
  resources.privacy_budget = budget;
  resources.run_dp_ceiling = ceiling;
  resources.state_dir = state_dir;
  pplda::v1::RunParameters parameters;
  parameters.set_num_topics(2);
  parameters.set_alpha(0.5);
  parameters.set_beta(0.1);
  parameters.set_iterations(2);
  parameters.set_draw_method("binary");
  parameters.set_vocabulary_sha256("v");
  if (dp_epsilon > 0) {
    parameters.set_dp_epsilon(dp_epsilon);
    parameters.set_dp_delta(dp_delta);
    parameters.set_dp_max_tokens(10);
    parameters.set_dp_max_term_count(2);
  }
  absl::StatusOr<std::unique_ptr<PartySession>> session =
      PartySession::Create(run_id, parameters, resources, transport);
  if (!session.ok()) return session.status();
  pplda::v1::PrepareRequest request;
  request.add_tokens_per_party(3);
  for (uint64_t t : others) request.add_tokens_per_party(t);
  return (*session)->Prepare(request).status();
}

// A data holder refuses a run with exactly two data holders and no DP unless
// its own config accepts it (the coordinator's flag is not its consent); a
// DP run, a third holder, or the acceptance gets past the check.
TEST(PartySessionTest, TwoHoldersWithoutDpAreRefusedUnlessThisPartyAccepts) {
  const absl::Status refused = PrepareWith({5, 0}, false, 0);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_THAT(refused.message(), HasSubstr("accept_two_holder_disclosure = true in this "
                                           "party's party.toml"));
  for (const absl::Status& past : {PrepareWith({5, 0}, true, 0), PrepareWith({5, 4}, false, 0),
                                   PrepareWith({5, 0}, false, 1.0)}) {
    EXPECT_THAT(past.message(), Not(HasSubstr("two data holders"))) << past;
    EXPECT_THAT(past.message(), HasSubstr("UnusedTransport")) << past;
  }
}

// With a privacy budget in party.toml, a data holder refuses runs without
// DP, debits every DP run it prepares in its state folder, refuses a run id
// it has already debited and the run that would take it over the budget.
TEST(PartySessionTest, APrivacyBudgetRefusesRunsWithoutDpAndRunsOverIt) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pplda-ledger-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const PrivacyBudget budget{2.0, 1e-4};
  auto past_the_budget = [](const absl::Status& s) {
    return s.message().find("UnusedTransport") != std::string_view::npos;
  };
  EXPECT_TRUE(past_the_budget(PrepareWith({5, 4}, false, 1.5, budget, dir, "run-a")));
  // An untrusted coordinator reusing a debited run id is refused.
  const absl::Status reused = PrepareWith({5, 4}, false, 0.1, budget, dir, "run-a");
  EXPECT_EQ(reused.code(), absl::StatusCode::kFailedPrecondition) << reused;
  EXPECT_THAT(reused.message(), HasSubstr("run run-a was already debited"));
  const absl::Status over = PrepareWith({5, 4}, false, 1.0, budget, dir, "run-b");
  EXPECT_EQ(over.code(), absl::StatusCode::kFailedPrecondition) << over;
  EXPECT_THAT(over.message(), HasSubstr("already spent (epsilon 1.5, delta 1e-05) in 1 run(s)"));
  EXPECT_THAT(over.message(), HasSubstr("budget in party.toml is (epsilon 2, delta 0.0001)"));
  EXPECT_TRUE(past_the_budget(PrepareWith({5, 4}, false, 0.5, budget, dir, "run-c")))
      << "exactly the rest of the budget fits";
  const absl::Status no_dp = PrepareWith({5, 4}, false, 0, budget, dir, "run-d");
  EXPECT_EQ(no_dp.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(no_dp.message(), HasSubstr("has no differential privacy"));
  const absl::StatusOr<PrivacyLedger> ledger = PrivacyLedger::Load(dir);
  ASSERT_TRUE(ledger.ok()) << ledger.status();
  ASSERT_EQ(ledger->entries().size(), 2u);
  EXPECT_EQ(ledger->entries()[0].run_id, "run-a");
  EXPECT_EQ(ledger->entries()[1].run_id, "run-c");
  EXPECT_DOUBLE_EQ(ledger->Spent().epsilon, 2.0);
  EXPECT_EQ(std::filesystem::status(dir / PrivacyLedger::kFileName).permissions() &
                std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  // Without a budget nothing is checked or written.
  const std::filesystem::path free_dir = dir / "free";
  std::filesystem::create_directories(free_dir);
  EXPECT_TRUE(past_the_budget(PrepareWith({5, 4}, false, 0, std::nullopt, free_dir, "run-e")));
  EXPECT_FALSE(std::filesystem::exists(free_dir / PrivacyLedger::kFileName));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pplda::party

namespace pplda::party {
namespace {

// PartySession::Resume's refusals, each before anything is rebuilt: no state
// after the iteration asked (NotFound, naming what there is), a damaged
// file (its own code, naming it), a state of another plan, and a run with a
// DP vocabulary.
class PartySessionResumeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pplda-resume-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "runs" / "run-1");
    static const crypto::DealtKey* const key = new crypto::DealtKey(
        crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2).value());
    for (const char* term : {"river", "water", "boat"}) corpus_.vocabulary.Add(term);
    corpus_.documents.push_back(lda::Document{"d", {0, 1, 2}});
    resources_.num_parties = 3;
    resources_.key_share = &key->shares[0];
    resources_.corpus = &corpus_;
    resources_.vocabulary_sha256 = "v";
    resources_.participant = "p0";
    resources_.state_dir = dir_;
    resources_.rng_factory = [](PartyRandomSource source) { return OsRng(0, source); };
    parameters_.set_num_topics(2);
    parameters_.set_alpha(0.5);
    parameters_.set_beta(0.1);
    parameters_.set_iterations(4);
    parameters_.set_draw_method("binary");
    parameters_.set_vocabulary_sha256("v");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  absl::Status Resume(int iteration) {
    testing::UnusedTransport transport;
    return PartySession::Resume("run-1", parameters_, resources_, transport, iteration).status();
  }
  // A state of this party after `iteration` iterations, with `digest` as
  // its plan.
  void WriteState(const std::filesystem::path& path, int iteration, const std::string& digest) {
    pplda::v1::PartyRunState state;
    state.mutable_header()->set_run_id("run-1");
    state.mutable_header()->set_participant("p0");
    state.mutable_header()->set_iteration(iteration);
    state.mutable_header()->set_plan_digest(digest);
    for (uint64_t t : {3, 4, 5}) state.add_tokens_per_party(t);
    ASSERT_TRUE(protocol::WriteRunState(path, state).ok());
  }

  std::filesystem::path dir_;
  lda::Corpus corpus_;
  PartyResources resources_;
  pplda::v1::RunParameters parameters_;
};

TEST_F(PartySessionResumeTest, WithoutAStateAfterTheIterationItIsNotFound) {
  absl::Status none = Resume(2);
  EXPECT_EQ(none.code(), absl::StatusCode::kNotFound) << none;
  EXPECT_THAT(none.message(), HasSubstr("no saved state after 2 iterations"));
  EXPECT_THAT(none.message(), HasSubstr("run-state.pb"));
  const protocol::PlanDigest plan =
      protocol::ComputePlanDigest("run-1", parameters_, std::vector<int64_t>{3, 4, 5});
  WriteState(protocol::RunStatePath(dir_, "run-1"), 3, std::string(plan.begin(), plan.end()));
  absl::Status other = Resume(2);
  EXPECT_EQ(other.code(), absl::StatusCode::kNotFound) << other;
  EXPECT_THAT(other.message(), HasSubstr("iteration 3"));
}

TEST_F(PartySessionResumeTest, ADamagedFileIsNamedWithItsOwnCode) {
  const std::filesystem::path path = protocol::RunStatePath(dir_, "run-1");
  {
    std::ofstream out(path, std::ios::binary);
    out << "not a run state";
  }
  absl::Status damaged = Resume(1);
  EXPECT_EQ(damaged.code(), absl::StatusCode::kDataLoss) << damaged;
  EXPECT_THAT(damaged.message(), HasSubstr(path.string()));
}

// After this party published, only its publication resumes (at the last
// iteration): never an iteration, whatever the coordinator asks.
TEST_F(PartySessionResumeTest, APublishedRunResumesOnlyItsPublication) {
  EXPECT_TRUE(PartySession::CheckResumable(dir_, "run-1", parameters_, 2).ok());
  ASSERT_TRUE(WriteFileAtomically(dir_ / "runs" / "run-1" / "published", "run-1\n").ok());
  for (int iteration : {0, 2, 3, 5}) {
    absl::Status refused = PartySession::CheckResumable(dir_, "run-1", parameters_, iteration);
    EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
    EXPECT_THAT(refused.message(), HasSubstr("only its publication can be resumed"));
    EXPECT_EQ(Resume(iteration).code(), absl::StatusCode::kFailedPrecondition);
  }
  EXPECT_TRUE(PartySession::CheckResumable(dir_, "run-1", parameters_, 4).ok());
  // Past the check, the state file decides (none here).
  EXPECT_EQ(Resume(4).code(), absl::StatusCode::kNotFound);
}

TEST_F(PartySessionResumeTest, AStateOfAnotherPlanIsRefused) {
  WriteState(protocol::PreviousRunStatePath(dir_, "run-1"), 1, std::string(32, 'x'));
  absl::Status refused = Resume(1);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_THAT(refused.message(), HasSubstr("not the run's saved plan"));
}

// A DP-vocabulary run's state must hold the selected terms: increasing ids
// of the candidate vocabulary.
TEST_F(PartySessionResumeTest, ADpVocabularyRunNeedsItsSelectedTerms) {
  parameters_.set_dp_epsilon(4);
  parameters_.set_dp_delta(1e-5);
  parameters_.set_dp_max_tokens(10);
  parameters_.set_dp_max_term_count(2);
  parameters_.set_dp_vocab_epsilon(1);
  parameters_.set_dp_vocab_delta(5e-6);
  parameters_.set_dp_vocab_max_terms(20);
  const std::filesystem::path path = protocol::RunStatePath(dir_, "run-1");
  WriteState(path, 1, std::string(32, 'x'));
  absl::Status none = Resume(1);
  EXPECT_EQ(none.code(), absl::StatusCode::kFailedPrecondition) << none;
  EXPECT_THAT(none.message(), HasSubstr("no selected vocabulary"));
  for (const std::vector<uint32_t>& bad :
       std::vector<std::vector<uint32_t>>{{1, 1}, {2, 0}, {0, 3}}) {
    absl::StatusOr<pplda::v1::PartyRunState> state =
        protocol::ReadPartyRunState(path, "run-1", "p0");
    ASSERT_TRUE(state.ok());
    state->clear_selected_terms();
    for (uint32_t t : bad) state->add_selected_terms(t);
    ASSERT_TRUE(protocol::WriteRunState(path, *state).ok());
    absl::Status refused = Resume(1);
    EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
    EXPECT_THAT(refused.message(), HasSubstr("not increasing ids below 3"));
  }
}

// A party's own ceiling per run (party.toml max_run_epsilon, max_run_delta)
// refuses a DP run asking more at Join, whatever the coordinator picked,
// naming both figures; a run at the ceiling, or without DP, goes on.
TEST(PartySessionTest, ARunAboveThePartysCeilingIsRefusedAtJoin) {
  auto past_join = [](const absl::Status& s) {
    return s.message().find("UnusedTransport") != std::string_view::npos;
  };
  const PrivacyBudget ceiling{4.0, 1e-6};
  const absl::Status over =
      PrepareWith({5, 4}, false, 8.0, std::nullopt, {}, "run-1", ceiling, 1e-6);
  EXPECT_EQ(over.code(), absl::StatusCode::kFailedPrecondition) << over;
  EXPECT_THAT(over.message(), HasSubstr("asks (epsilon 8, delta 1e-06) of this party's documents, "
                                        "above its ceiling per run (epsilon 4, delta 1e-06"));
  EXPECT_THAT(over.message(), HasSubstr("max_run_epsilon and max_run_delta in party.toml"));
  const absl::Status delta =
      PrepareWith({5, 4}, false, 2.0, std::nullopt, {}, "run-1", ceiling, 1e-5);
  EXPECT_EQ(delta.code(), absl::StatusCode::kFailedPrecondition) << delta;
  EXPECT_THAT(delta.message(), HasSubstr("delta 1e-05"));
  EXPECT_TRUE(past_join(PrepareWith({5, 4}, false, 4.0, std::nullopt, {}, "run-1", ceiling, 1e-6)))
      << "a run at the ceiling goes on";
  EXPECT_TRUE(past_join(PrepareWith({5, 4}, false, 0, std::nullopt, {}, "run-1", ceiling)));
  // The default ceiling (epsilon 10, delta 1e-5) refuses what a coordinator
  // may otherwise ask (up to epsilon 1000).
  const absl::Status nominal = PrepareWith({5, 4}, false, 1000.0);
  EXPECT_EQ(nominal.code(), absl::StatusCode::kFailedPrecondition) << nominal;
  EXPECT_THAT(nominal.message(), HasSubstr("ceiling per run (epsilon 10, delta 1e-05"));
}

// Whoever asks, a run that would make the party hold more than
// kMaxRunCells topic-term or document-topic cells is refused at Join.
TEST(PartySessionTest, ARunLargerThanThePartyHoldsIsRefusedAtJoin) {
  auto create = [](int terms, int documents, int topics) {
    lda::Corpus corpus;
    for (int t = 0; t < terms; ++t) corpus.vocabulary.Add("t" + std::to_string(t));
    for (int m = 0; m < documents; ++m) corpus.documents.push_back(lda::Document{"d", {0}});
    UnusedTransport transport;
    const PartyResources resources = ComputePartyResources(corpus);
    pplda::v1::RunParameters parameters;
    parameters.set_num_topics(topics);
    parameters.set_alpha(0.5);
    parameters.set_beta(0.1);
    parameters.set_iterations(2);
    parameters.set_draw_method("binary");
    parameters.set_vocabulary_sha256("v");
    return PartySession::Create("run-1", parameters, resources, transport).status();
  };
  // 2,100 x 65,535 = 137,623,500 cells > 2^27 = 134,217,728.
  const absl::Status terms = create(2100, 1, 65535);
  EXPECT_EQ(terms.code(), absl::StatusCode::kResourceExhausted) << terms;
  EXPECT_THAT(terms.message(), HasSubstr("137623500 topic-term cells"));
  const absl::Status documents = create(1, 2100, 65535);
  EXPECT_EQ(documents.code(), absl::StatusCode::kResourceExhausted) << documents;
  EXPECT_THAT(documents.message(), HasSubstr("document-topic cells"));
  EXPECT_TRUE(create(2000, 2000, 65535).ok()) << create(2000, 2000, 65535);
}

}  // namespace
}  // namespace pplda::party

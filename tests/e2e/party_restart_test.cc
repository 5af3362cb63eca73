// Runs survive a restart of a party (docs/protocol.md,
// "Restarts"): a party daemon is killed with SIGKILL at a random moment of a
// run and started again. The coordinator shows the run "waiting" for it,
// then tells every party to rebuild its session from its own run state file
// at the coordinator's last saved boundary (the Resume call, on new links),
// and the run goes on. Every party's randomness of an iteration derives from
// its run key and the iteration (party/iteration_randomness.h), so the
// iteration that was interrupted is run again exactly; with every party's
// sources from one INSECURE deterministic seed the whole protocol is
// deterministic, so each interrupted run's model must equal the
// uninterrupted run's. Each trial's party and kill time are drawn from a
// fixed seed, over the whole run (Join, Prepare, iterations and
// publication); a kill before the first boundary (Join, Prepare), which
// leaves nothing to resume from, starts the run over from Join under a new
// id at the parties, and since the parties' sources restart with every run,
// that run too must publish the uninterrupted model.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "party/party_randomness.h"
#include "protocol/run_state_file.h"
#include "tests/e2e/e2e_test_util.h"
#include "tests/e2e/party_control_test_util.h"

namespace pplda::e2e::testing {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

constexpr int kIterations = 4;

class PartyRestartTest : public ConsortiumTest {
 protected:
  absl::StatusOr<std::string> Start(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {
        "run",      "start", "--config", consortium_.coordinator_config().string(),
        "--topics", "3",     "--alpha",  "0.1",
        "--beta",   "0.01"};
    args.insert(args.end(), extra.begin(), extra.end());
    if (std::find(extra.begin(), extra.end(), "--iterations") == extra.end()) {
      args.push_back("--iterations");
      args.push_back(std::to_string(kIterations));
    }
    CommandResult start = RunPplda(args);
    if (start.exit_code != 0) return absl::InternalError("pplda run start: " + start.Describe());
    return start.output.substr(0, start.output.find('\n'));
  }
  // The published model of `run_id`, or why there is none.
  absl::StatusOr<nlohmann::json> Model(const std::string& run_id, const std::string& out) {
    const std::string config = consortium_.coordinator_config().string();
    RunStatusLine s = PollStatus(consortium_, run_id, RunEnded, std::chrono::seconds(300));
    if (s.state != "published") return absl::InternalError("run ended: " + s.command.Describe());
    const std::filesystem::path path = consortium_.dir() / out;
    CommandResult result = RunPplda(
        {"run", "result", "--config", config, "--run", run_id, "--out", path.string()});
    if (result.exit_code != 0) return absl::InternalError("pplda run result: " + result.Describe());
    nlohmann::json model = nlohmann::json::parse(ReadText(path), nullptr, false);
    if (!model.is_object()) return absl::InternalError("no model in " + path.string());
    return model;
  }
  // Once run `run_id` has completed `min_iteration` iterations, kills
  // party `victim` and waits until the run shows "waiting" (in *waiting).
  void KillDuringIteration(const std::string& run_id, int min_iteration, int victim,
                           RunStatusLine* waiting) {
    RunStatusLine s = PollStatus(
        consortium_, run_id,
        [&](const RunStatusLine& s) {
          return (s.state == "iterating" && s.iteration >= min_iteration) || RunEnded(s);
        },
        std::chrono::seconds(120));
    ASSERT_EQ(s.state, "iterating") << s.command.Describe();
    consortium_.party(victim).Kill();
    *waiting = PollStatus(
        consortium_, run_id,
        [](const RunStatusLine& s) { return s.state == "waiting" || RunEnded(s); },
        std::chrono::seconds(60));
    ASSERT_EQ(waiting->state, "waiting") << waiting->command.Describe();
  }
};

TEST_F(PartyRestartTest, AKilledPartyRestartsAndTheRunPublishesTheSameModel) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON";
  }
  ConsortiumOptions options;
  options.initial_topics_seed = 7;
  options.insecure_deterministic_rng_seed = 20261125;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  const auto begin = std::chrono::steady_clock::now();
  absl::StatusOr<std::string> baseline_id = Start();
  ASSERT_TRUE(baseline_id.ok()) << baseline_id.status();
  absl::StatusOr<nlohmann::json> baseline = Model(*baseline_id, "baseline.json");
  ASSERT_TRUE(baseline.ok()) << baseline.status() << consortium_.Logs();
  const double run_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();

  // The coordinator's end of the published run reached every party: the
  // state files (their run keys and topics) are gone, a marker is left, and
  // a Resume before the last iteration is refused, as is one that repeats
  // an attempt number.
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    EXPECT_FALSE(
        std::filesystem::exists(protocol::RunStatePath(consortium_.state(i), *baseline_id)));
    EXPECT_FALSE(std::filesystem::exists(
        protocol::PreviousRunStatePath(consortium_.state(i), *baseline_id)));
    EXPECT_TRUE(
        std::filesystem::exists(consortium_.state(i) / "runs" / *baseline_id / "published"));
  }
  {
    absl::StatusOr<std::unique_ptr<PartyControlClient>> client =
        PartyControlClient::Create(consortium_, "coordinator");
    ASSERT_TRUE(client.ok()) << client.status();
    pplda::v1::ResumeRequest resume;
    *resume.mutable_header() = (*client)->Header(*baseline_id, kIterations - 1);
    *resume.mutable_parameters() = (*client)->Join(*baseline_id, kIterations).parameters();
    resume.set_attempt(5);
    pplda::v1::ResumeReply reply;
    grpc::Status published =
        (*client)->party(0).Resume(PartyControlClient::Context().get(), resume, &reply);
    EXPECT_EQ(published.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_THAT(published.error_message(), HasSubstr("was published at this party"));
    grpc::Status repeated =
        (*client)->party(0).Resume(PartyControlClient::Context().get(), resume, &reply);
    EXPECT_EQ(repeated.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_THAT(repeated.error_message(), HasSubstr("is not after the last one"));
  }

  std::mt19937_64 rng(20261126);
  int resumed = 0, started_over = 0, seen_waiting = 0;
  const int trials = KillTrials();
  for (int trial = 0; trial < trials; ++trial) {
    const int victim = trial % LocalConsortium::kParties;
    const std::string name = LocalConsortium::kPartyNames[victim];
    SCOPED_TRACE(absl::StrCat("trial ", trial, ": party ", name));
    absl::StatusOr<std::string> run_id = Start();
    ASSERT_TRUE(run_id.ok()) << run_id.status();
    // run_seconds includes starting and polling the run: kills over its
    // first 60% fall inside the run (Join to the last iterations).
    const double delay = std::uniform_real_distribution<double>(0.0, 0.6)(rng) * run_seconds;
    std::this_thread::sleep_for(std::chrono::duration<double>(delay));
    consortium_.party(victim).Kill();
    // The run waits for it, naming it, and says where it resumes.
    RunStatusLine waiting = PollStatus(
        consortium_, *run_id,
        [](const RunStatusLine& s) { return s.state == "waiting" || RunEnded(s); },
        std::chrono::seconds(60));
    if (waiting.state == "waiting") {
      ++seen_waiting;
      EXPECT_THAT(waiting.command.output,
                  ContainsRegex("for a restarted party: the run (resumes after iteration|had "
                                "not reached its first saved boundary, so it starts over)"))
          << waiting.command.Describe();
      EXPECT_THAT(waiting.command.output, ContainsRegex("waiting for: .*" + name))
          << waiting.command.Describe();
    }
    E2E_ASSERT_OK(consortium_.StartParty(victim));
    absl::StatusOr<nlohmann::json> model = Model(*run_id, absl::StrCat("trial", trial, ".json"));
    ASSERT_TRUE(model.ok()) << model.status() << " (" << name << " killed after " << delay
                            << " s)\n"
                            << consortium_.Logs();
    EXPECT_EQ((*model)["topic_term_counts"], (*baseline)["topic_term_counts"])
        << "the resumed run published another model (" << name << " killed after " << delay
        << " s)\n"
        << consortium_.Logs();
    const nlohmann::json& training = (*model)["metadata"]["training"];
    const bool was_resumed = training.contains("resumed_after_iteration");
    const bool was_started_over = training.contains("start");
    if (was_resumed) ++resumed;
    if (was_started_over) {
      ++started_over;
      EXPECT_EQ(training["session_id"],
                absl::StrCat(*run_id, ".start", training["start"].get<int>()));
    }
    std::string what = "not resumed (the kill came after the run)";
    if (was_resumed) {
      what =
          absl::StrCat("resumed after iteration ", training["resumed_after_iteration"].get<int>());
    } else if (was_started_over) {
      what = absl::StrCat("started over from Join (start ", training["start"].get<int>(), ")");
    }
    std::printf("trial %d: %s killed after %.2f s of a %.2f s run; %s\n", trial, name.c_str(),
                delay, run_seconds, what.c_str());
  }
  EXPECT_GT(resumed + started_over, trials / 2)
      << "too few trials resumed or started over a run: the kills missed the run";
  EXPECT_GT(seen_waiting, 0);
}

// A party lost during Join (before the first saved boundary): the run
// waits for it, saying it starts over, then runs from Join under its next
// start's id and publishes; the model says which start it is.
TEST_F(PartyRestartTest, ALossBeforeTheFirstBoundaryStartsTheRunOver) {
  ConsortiumOptions options;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  // Stopped, the party holds the Join call until it is killed.
  consortium_.party(1).Signal(SIGSTOP);
  absl::StatusOr<std::string> run_id = Start();
  ASSERT_TRUE(run_id.ok()) << run_id.status();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  consortium_.party(1).Kill();
  RunStatusLine waiting = PollStatus(
      consortium_, *run_id,
      [](const RunStatusLine& s) { return s.state == "waiting" || RunEnded(s); },
      std::chrono::seconds(60));
  ASSERT_EQ(waiting.state, "waiting") << waiting.command.Describe();
  EXPECT_THAT(waiting.command.output, HasSubstr("so it starts over from Join"))
      << waiting.command.Describe();
  EXPECT_THAT(waiting.command.output, ContainsRegex("waiting for: .*middle"))
      << waiting.command.Describe();
  E2E_ASSERT_OK(consortium_.StartParty(1));
  absl::StatusOr<nlohmann::json> model = Model(*run_id, "started-over.json");
  ASSERT_TRUE(model.ok()) << model.status() << consortium_.Logs();
  const nlohmann::json& training = (*model)["metadata"]["training"];
  ASSERT_TRUE(training.contains("start")) << training.dump();
  EXPECT_GE(training["start"].get<int>(), 2);
  EXPECT_EQ(training["run_id"], *run_id);
  EXPECT_EQ(training["session_id"], absl::StrCat(*run_id, ".start", training["start"].get<int>()));
  EXPECT_THAT(consortium_.coordinator().LogText(), HasSubstr("starting over from Join"));
}

// A decryptor lost during publication, after another party published (it
// confirmed the fold and, not decrypting, finished at once): the parties
// kept their last boundary when they published, so every party rebuilds
// there and the publication runs again: the same agreed fold decrypted,
// the same model. Once the coordinator published, the parties drop that
// boundary.
TEST_F(PartyRestartTest, ALossDuringPublicationRunsThePublicationAgain) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON";
  }
  ConsortiumOptions options;
  options.initial_topics_seed = 7;
  options.insecure_deterministic_rng_seed = 20261125;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  absl::StatusOr<std::string> baseline_id = Start();
  ASSERT_TRUE(baseline_id.ok()) << baseline_id.status();
  absl::StatusOr<nlohmann::json> baseline = Model(*baseline_id, "baseline.json");
  ASSERT_TRUE(baseline.ok()) << baseline.status() << consortium_.Logs();

  // early's partial decryptions take far longer than the poll, but a kill
  // can still come after them: up to 3 tries for one that interrupts them.
  bool resumed = false;
  for (int attempt = 0; attempt < 3 && !resumed; ++attempt) {
    absl::StatusOr<std::string> run_id = Start();
    ASSERT_TRUE(run_id.ok()) << run_id.status();
    // modern (compute party 2) does not decrypt: it publishes while early
    // and middle still compute their partial decryptions.
    E2E_ASSERT_OK(consortium_.party(2).WaitForLog(absl::StrCat("run ", *run_id, ": published ("),
                                                  std::chrono::seconds(120)));
    consortium_.party(0).Kill();
    E2E_ASSERT_OK(consortium_.StartParty(0));
    absl::StatusOr<nlohmann::json> model = Model(*run_id, absl::StrCat("again", attempt, ".json"));
    ASSERT_TRUE(model.ok()) << model.status() << consortium_.Logs();
    EXPECT_EQ((*model)["topic_term_counts"], (*baseline)["topic_term_counts"]);
    const nlohmann::json& training = (*model)["metadata"]["training"];
    resumed = training.contains("resumed_after_iteration");
    if (resumed) {
      EXPECT_EQ(training["resumed_after_iteration"], kIterations);
      EXPECT_THAT(
          consortium_.party(2).LogText(),
          HasSubstr(absl::StrCat("run ", *run_id, ": resumed after iteration ", kIterations)));
    }
    // Over: no party keeps the run's state.
    for (int i = 0; i < LocalConsortium::kParties; ++i) {
      EXPECT_FALSE(std::filesystem::exists(protocol::RunStatePath(consortium_.state(i), *run_id)));
      EXPECT_FALSE(
          std::filesystem::exists(protocol::PreviousRunStatePath(consortium_.state(i), *run_id)));
    }
  }
  EXPECT_TRUE(resumed) << "no kill interrupted early's partial decryptions in 3 tries";
}

// Two losses in a row: a party is killed, restarted, and as soon as the run
// resumed another party is killed (in the iteration being run again, or
// the next); the run resumes a second time, with a new attempt number, and
// publishes the uninterrupted model.
TEST_F(PartyRestartTest, TwoLossesInARowResumeTwice) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON";
  }
  ConsortiumOptions options;
  options.initial_topics_seed = 7;
  options.insecure_deterministic_rng_seed = 20261128;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  const std::vector<std::string> longer = {"--iterations", "12"};
  absl::StatusOr<std::string> baseline_id = Start(longer);
  ASSERT_TRUE(baseline_id.ok()) << baseline_id.status();
  absl::StatusOr<nlohmann::json> baseline = Model(*baseline_id, "baseline.json");
  ASSERT_TRUE(baseline.ok()) << baseline.status() << consortium_.Logs();

  absl::StatusOr<std::string> run_id = Start(longer);
  ASSERT_TRUE(run_id.ok()) << run_id.status();
  RunStatusLine waiting;
  ASSERT_NO_FATAL_FAILURE(KillDuringIteration(*run_id, 2, 0, &waiting));
  E2E_ASSERT_OK(consortium_.StartParty(0));
  // The second loss as soon as the run resumed.
  E2E_ASSERT_OK(consortium_.coordinator().WaitForLog("every party resumed after iteration",
                                                     std::chrono::seconds(60)));
  consortium_.party(2).Kill();
  E2E_ASSERT_OK(consortium_.StartParty(2));
  absl::StatusOr<nlohmann::json> model = Model(*run_id, "resumed.json");
  ASSERT_TRUE(model.ok()) << model.status() << consortium_.Logs();
  EXPECT_EQ((*model)["topic_term_counts"], (*baseline)["topic_term_counts"]) << consortium_.Logs();
}

// Relay mode: the parties' links go through the coordinator's relay. A
// killed party comes back by dialling the relay again; the resumed attempt's
// sealed frames are bound to the attempt's link id.
TEST_F(PartyRestartTest, ARelayModeRunResumesAfterAPartyRestart) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON";
  }
  ConsortiumOptions options;
  options.relay = true;
  options.initial_topics_seed = 7;
  options.insecure_deterministic_rng_seed = 20261129;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  absl::StatusOr<std::string> baseline_id = Start();
  ASSERT_TRUE(baseline_id.ok()) << baseline_id.status();
  absl::StatusOr<nlohmann::json> baseline = Model(*baseline_id, "baseline.json");
  ASSERT_TRUE(baseline.ok()) << baseline.status() << consortium_.Logs();

  absl::StatusOr<std::string> run_id = Start();
  ASSERT_TRUE(run_id.ok()) << run_id.status();
  RunStatusLine waiting;
  ASSERT_NO_FATAL_FAILURE(KillDuringIteration(*run_id, 1, 2, &waiting));
  E2E_ASSERT_OK(consortium_.StartParty(2));
  absl::StatusOr<nlohmann::json> model = Model(*run_id, "resumed.json");
  ASSERT_TRUE(model.ok()) << model.status() << consortium_.Logs();
  EXPECT_EQ((*model)["topic_term_counts"], (*baseline)["topic_term_counts"]);
  EXPECT_TRUE((*model)["metadata"]["training"].contains("resumed_after_iteration"));
}

// A DP run with a DP-selected vocabulary and verified conversions: the
// restarted party rebuilds its
// documents over the selected terms from its state, and the model is the
// uninterrupted run's (noise shares included: they are drawn from the
// iteration's streams too, so none is drawn twice).
TEST_F(PartyRestartTest, ADpVocabularyRunResumesAfterAPartyRestart) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON";
  }
  ConsortiumOptions options;
  options.insecure_deterministic_rng_seed = 20261127;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  // With proofs of correct decryption in every conversion too (their
  // nonces are fresh in the iteration run again).
  const std::vector<std::string> dp = {"--dp-epsilon",         "8",  "--dp-vocab-epsilon", "4",
                                       "--dp-vocab-max-terms", "50", "--dp-max-tokens",    "3",
                                       "--dp-max-term-count",  "2",  "--verify-conversion"};
  absl::StatusOr<std::string> baseline_id = Start(dp);
  ASSERT_TRUE(baseline_id.ok()) << baseline_id.status();
  absl::StatusOr<nlohmann::json> baseline = Model(*baseline_id, "baseline.json");
  ASSERT_TRUE(baseline.ok()) << baseline.status() << consortium_.Logs();

  absl::StatusOr<std::string> run_id = Start(dp);
  ASSERT_TRUE(run_id.ok()) << run_id.status();
  RunStatusLine waiting;
  ASSERT_NO_FATAL_FAILURE(KillDuringIteration(*run_id, 1, 1, &waiting));
  EXPECT_THAT(waiting.command.output, ContainsRegex("waiting for: .*middle"))
      << waiting.command.Describe();
  E2E_ASSERT_OK(consortium_.StartParty(1));
  absl::StatusOr<nlohmann::json> model = Model(*run_id, "resumed.json");
  ASSERT_TRUE(model.ok()) << model.status() << consortium_.Logs();
  EXPECT_EQ((*model)["vocabulary"], (*baseline)["vocabulary"]);
  EXPECT_EQ((*model)["topic_term_counts"], (*baseline)["topic_term_counts"]);
  EXPECT_TRUE((*model)["metadata"]["training"].contains("resumed_after_iteration"));
}

}  // namespace
}  // namespace pplda::e2e::testing

// Runs survive a restart of the coordinator (docs/protocol.md,
// "Restarts"): the coordinator daemon is killed with SIGKILL at a random
// moment of a run and started again; it resumes the run from its last saved
// iteration boundary (its run state file: the fold, the updates to relay,
// the hash chain), the parties, which kept their sessions, answer a step
// they had already completed with the reply they gave, and the run
// publishes. With every party's randomness from one INSECURE deterministic
// seed the protocol is deterministic, so each interrupted run's model must
// equal the uninterrupted run's exactly; each trial's kill time is drawn
// from a fixed seed, over the whole run (Join, Prepare, iterations and
// publication). A kill before the first boundary leaves nothing to resume
// from: the restarted coordinator starts the run over from Join under a new
// id at the parties, which must publish the same model too (the parties'
// sources restart with every run). SIGTERM pauses a run the same way
// instead of cancelling it.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "party/party_randomness.h"
#include "tests/e2e/e2e_test_util.h"

namespace pplda::e2e::testing {
namespace {

using ::testing::HasSubstr;

constexpr int kIterations = 4;

class CoordinatorRestartTest : public ConsortiumTest {
 protected:
  std::vector<std::string> StartArgs() const {
    return {"run",          "start", "--config", consortium_.coordinator_config().string(),
            "--topics",     "3",     "--alpha",  "0.1",
            "--beta",       "0.01",  "--iterations", std::to_string(kIterations)};
  }
  // `pplda run watch` then `pplda run result` for `run_id`.
  absl::StatusOr<nlohmann::json> WaitForModel(const std::string& run_id, const std::string& out) {
    const std::string config = consortium_.coordinator_config().string();
    CommandResult watch = RunPplda({"run", "watch", "--config", config, "--run", run_id},
                                   std::chrono::seconds(300));
    if (watch.exit_code != 0) return absl::InternalError("pplda run watch: " + watch.Describe());
    const std::filesystem::path path = consortium_.dir() / out;
    CommandResult result = RunPplda(
        {"run", "result", "--config", config, "--run", run_id, "--out", path.string()});
    if (result.exit_code != 0) return absl::InternalError("pplda run result: " + result.Describe());
    nlohmann::json model = nlohmann::json::parse(ReadText(path), nullptr, false);
    if (!model.is_object()) return absl::InternalError("no model in " + path.string());
    return model;
  }
  absl::StatusOr<std::string> Start() {
    CommandResult start = RunPplda(StartArgs());
    if (start.exit_code != 0) return absl::InternalError("pplda run start: " + start.Describe());
    return start.output.substr(0, start.output.find('\n'));
  }
};

TEST_F(CoordinatorRestartTest, AKilledCoordinatorResumesAndPublishesTheSameModel) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON";
  }
  ConsortiumOptions options;
  options.initial_topics_seed = 7;
  options.insecure_deterministic_rng_seed = 20261125;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  // The uninterrupted run, timed: kill times are drawn over its length.
  const auto begin = std::chrono::steady_clock::now();
  absl::StatusOr<std::string> baseline_id = Start();
  ASSERT_TRUE(baseline_id.ok()) << baseline_id.status();
  absl::StatusOr<nlohmann::json> baseline = WaitForModel(*baseline_id, "baseline.json");
  ASSERT_TRUE(baseline.ok()) << baseline.status();
  const double run_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();

  std::mt19937_64 rng(20261125);
  int resumed = 0, started_over = 0;
  const int trials = KillTrials();
  for (int trial = 0; trial < trials; ++trial) {
    SCOPED_TRACE(absl::StrCat("trial ", trial));
    absl::StatusOr<std::string> run_id = Start();
    ASSERT_TRUE(run_id.ok()) << run_id.status();
    const double delay = std::uniform_real_distribution<double>(0.0, 0.9)(rng) * run_seconds;
    std::this_thread::sleep_for(std::chrono::duration<double>(delay));
    consortium_.coordinator().Kill();
    E2E_ASSERT_OK(consortium_.StartCoordinator());
    absl::StatusOr<nlohmann::json> model = WaitForModel(*run_id, absl::StrCat("trial", trial, ".json"));
    ASSERT_TRUE(model.ok()) << model.status() << " (killed after " << delay << " s)\n"
                            << consortium_.Logs();
    EXPECT_EQ((*model)["topic_term_counts"], (*baseline)["topic_term_counts"])
        << "the resumed run published another model (killed after " << delay << " s)";
    const nlohmann::json& training = (*model)["metadata"]["training"];
    std::string what = "the run had ended before the kill";
    if (training.contains("resumed_after_iteration")) {
      ++resumed;
      what =
          absl::StrCat("resumed after iteration ", training["resumed_after_iteration"].get<int>());
    } else if (training.contains("start")) {
      ++started_over;
      what = absl::StrCat("started over from Join (start ", training["start"].get<int>(), ")");
    }
    std::printf("trial %d: killed after %.2f s of a %.2f s run; %s\n", trial, delay, run_seconds,
                what.c_str());
  }
  std::printf("%d trials resumed a run, %d started one over\n", resumed, started_over);
  EXPECT_GT(resumed, 0) << "no trial resumed a run: the kills all missed the iterations";

  // SIGTERM (systemctl stop or restart) pauses the run instead of
  // cancelling it: the daemon exits by itself and the run resumes.
  absl::StatusOr<std::string> paused = Start();
  ASSERT_TRUE(paused.ok()) << paused.status();
  // Its own line: earlier runs' "iteration 1 done" are in the same log.
  E2E_ASSERT_OK(consortium_.coordinator().WaitForLog(
      absl::StrCat("run ", *paused, ": iteration 1 done"), std::chrono::seconds(60)));
  EXPECT_TRUE(consortium_.coordinator().Stop()) << "SIGTERM did not end the coordinator";
  EXPECT_THAT(consortium_.coordinator().LogText(),
              HasSubstr(absl::StrCat("run ", *paused, ": paused after iteration ")));
  E2E_ASSERT_OK(consortium_.StartCoordinator());
  absl::StatusOr<nlohmann::json> model = WaitForModel(*paused, "paused.json");
  ASSERT_TRUE(model.ok()) << model.status() << consortium_.Logs();
  EXPECT_EQ((*model)["topic_term_counts"], (*baseline)["topic_term_counts"]);
  EXPECT_TRUE((*model)["metadata"]["training"].contains("resumed_after_iteration"));

  // The coordinator and a party killed together mid-run, both started
  // again: the restarted coordinator finds the party without a session
  // ("has not joined run"), waits for it as for any restarted party, and
  // every party rebuilds from its state file; the same model again.
  absl::StatusOr<std::string> both = Start();
  ASSERT_TRUE(both.ok()) << both.status();
  E2E_ASSERT_OK(consortium_.coordinator().WaitForLog(
      absl::StrCat("run ", *both, ": iteration 2 done"), std::chrono::seconds(60)));
  consortium_.coordinator().Kill();
  consortium_.party(1).Kill();
  E2E_ASSERT_OK(consortium_.StartParty(1));
  E2E_ASSERT_OK(consortium_.StartCoordinator());
  model = WaitForModel(*both, "both.json");
  ASSERT_TRUE(model.ok()) << model.status() << consortium_.Logs();
  EXPECT_EQ((*model)["topic_term_counts"], (*baseline)["topic_term_counts"]);
  EXPECT_TRUE((*model)["metadata"]["training"].contains("resumed_after_iteration"));
}

TEST_F(CoordinatorRestartTest, AKillBeforeTheFirstBoundaryStartsTheRunOver) {
  ConsortiumOptions options;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  // SIGSTOP one party so that the run cannot get past Join/Prepare.
  consortium_.party(2).Signal(SIGSTOP);
  absl::StatusOr<std::string> run_id = Start();
  ASSERT_TRUE(run_id.ok()) << run_id.status();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  consortium_.coordinator().Kill();
  consortium_.party(2).Signal(SIGCONT);
  E2E_ASSERT_OK(consortium_.StartCoordinator());
  absl::StatusOr<nlohmann::json> model = WaitForModel(*run_id, "started-over.json");
  ASSERT_TRUE(model.ok()) << model.status() << consortium_.Logs();
  const nlohmann::json& training = (*model)["metadata"]["training"];
  EXPECT_EQ(training.value("start", 0), 2) << training.dump();
  EXPECT_EQ(training.value("session_id", ""), *run_id + ".start2");
  EXPECT_THAT(consortium_.coordinator().LogText(), HasSubstr("starting over from Join (start 2"));
  // The next run goes through.
  absl::StatusOr<std::string> next = Start();
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_TRUE(WaitForModel(*next, "next.json").ok()) << consortium_.Logs();
}

}  // namespace
}  // namespace pplda::e2e::testing

// End-to-end: a party daemon that dies or stops in the middle of a run.
//  - SIGKILL while the run iterates, with party_restart_wait_seconds = 0
//    (the run does not wait for a restart: party_restart_test.cc covers
//    the default): the run ends as failed within a bound
//    far below the parties' 600 s receive timeout (the survivors see the
//    dead party's links close, the coordinator's call to it fails, and it
//    aborts the others), `pplda run status` names the dead party in the
//    error, every participant's run state file of the last iteration
//    boundary stays on disk (what a resume needs), the surviving daemons
//    live on and accept a new Join, and with the dead party restarted the
//    consortium publishes again.
//  - SIGSTOP while the run iterates: `pplda run status` lists the stopped
//    party under "waiting for" while the run waits; after SIGCONT the run
//    goes on to publication.
#include <signal.h>

#include <chrono>
#include <string>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "protocol/run_state_file.h"
#include "tests/e2e/e2e_test_util.h"
#include "tests/e2e/party_control_test_util.h"

namespace pplda::e2e::testing {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

constexpr int kMiddle = 1;  // the party the tests kill or stop
constexpr int kModern = 2;

class PartyFailureTest : public ConsortiumTest {
 protected:
  // Starts a run and waits until its first iteration is done (the second
  // is under way).
  void StartAndWaitForIteration(int iterations, std::string* run_id) {
    absl::StatusOr<std::string> id = StartRun(consortium_, 3, iterations);
    ASSERT_TRUE(id.ok()) << id.status();
    *run_id = *id;
    RunStatusLine s = PollStatus(
        consortium_, *run_id,
        [](const RunStatusLine& s) {
          return (s.state == "iterating" && s.iteration >= 1) || RunEnded(s);
        },
        std::chrono::seconds(180));
    ASSERT_EQ(s.state, "iterating") << s.command.Describe();
  }
};

TEST_F(PartyFailureTest, KilledPartyFailsTheRunPromptlyAndIsNamed) {
  ConsortiumOptions options;
  options.party_restart_wait_seconds = 0;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  std::string run_id;
  // Far more iterations than the kill needs: a fast machine must not finish
  // the run between the poll that saw iteration 1 and the kill.
  constexpr int kIterations = 40;
  ASSERT_NO_FATAL_FAILURE(StartAndWaitForIteration(kIterations, &run_id));

  consortium_.party(kMiddle).Kill();
  const Clock::time_point killed_at = Clock::now();
  RunStatusLine s = PollStatus(consortium_, run_id, RunEnded, std::chrono::seconds(300));
  const double seconds = std::chrono::duration<double>(Clock::now() - killed_at).count();
  EXPECT_EQ(s.state, "failed") << s.command.Describe();
  EXPECT_LT(seconds, 60) << "the run took " << seconds << " s to fail (receive timeout: 600 s)";
  EXPECT_LT(s.iteration, kIterations);
  EXPECT_THAT(s.command.output, ContainsRegex("error: .*middle")) << s.command.Describe();
  // The dead party leads the error (the survivors' link failures name it).
  EXPECT_THAT(s.command.output, ContainsRegex("error: [a-z0-9 ]*: party middle")) << s.command.Describe();
  CommandResult watch = RunPplda(
      {"run", "watch", "--config", consortium_.coordinator_config().string(), "--run", run_id});
  EXPECT_NE(watch.exit_code, 0) << watch.Describe();
  EXPECT_THAT(watch.output, HasSubstr("failed"));

  // The state a resume needs stays on disk: every participant's run state
  // file (protocol/run_state_file.h) of the last iteration boundary it
  // reached, 0600, of this run and plan; the parties are at the
  // coordinator's boundary or one past it (they may finish an iteration the
  // coordinator never collected).
  absl::StatusOr<pplda::v1::CoordinatorRunState> coordinator_state =
      protocol::ReadCoordinatorRunState(protocol::RunStatePath(consortium_.state(-1), run_id),
                                        run_id, "coordinator");
  ASSERT_TRUE(coordinator_state.ok()) << coordinator_state.status();
  const int boundary = coordinator_state->header().iteration();
  EXPECT_GE(boundary, 1);
  EXPECT_LT(boundary, kIterations);
  EXPECT_EQ(coordinator_state->last_updates_size(), LocalConsortium::kParties);
  EXPECT_EQ(coordinator_state->header().plan_digest().size(), 32u);
  EXPECT_EQ(FileMode(protocol::RunStatePath(consortium_.state(-1), run_id)), 0600u);
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    const std::string name = LocalConsortium::kPartyNames[i];
    const std::filesystem::path path = protocol::RunStatePath(consortium_.state(i), run_id);
    absl::StatusOr<pplda::v1::PartyRunState> state =
        protocol::ReadPartyRunState(path, run_id, name);
    ASSERT_TRUE(state.ok()) << name << ": " << state.status();
    EXPECT_EQ(FileMode(path), 0600u) << name;
    EXPECT_GE(state->header().iteration(), boundary) << name;
    EXPECT_LE(state->header().iteration(), boundary + 1) << name;
    EXPECT_EQ(state->header().plan_digest(), coordinator_state->header().plan_digest()) << name;
    ASSERT_EQ(state->tokens_per_party_size(), LocalConsortium::kParties);
    EXPECT_EQ(static_cast<uint64_t>(state->topics_size()), state->tokens_per_party(i)) << name;
    for (uint32_t k : state->topics()) ASSERT_LT(k, 3u) << name;
    EXPECT_EQ(state->sent().iteration(), state->header().iteration()) << name;
    EXPECT_EQ(state->folded(), state->header().iteration() - 1) << name;
  }

  // The survivors live and take a new run.
  ASSERT_TRUE(consortium_.coordinator().Running());
  absl::StatusOr<std::unique_ptr<PartyControlClient>> client =
      PartyControlClient::Create(consortium_, "coordinator");
  ASSERT_TRUE(client.ok()) << client.status();
  for (int i : {0, kModern}) {
    ASSERT_TRUE(consortium_.party(i).Running()) << LocalConsortium::kPartyNames[i];
    pplda::v1::JoinReply reply;
    const grpc::Status join = (*client)->party(i).Join(
        PartyControlClient::Context().get(), (*client)->Join("after-the-kill", 1), &reply);
    EXPECT_TRUE(join.ok()) << LocalConsortium::kPartyNames[i] << ": " << join.error_message();
    pplda::v1::AbortRequest abort;
    *abort.mutable_header() = (*client)->Header("after-the-kill", 0);
    abort.set_reason("e2e test: the survivors took a new run");
    pplda::v1::AbortReply aborted;
    const grpc::Status a =
        (*client)->party(i).Abort(PartyControlClient::Context().get(), abort, &aborted);
    EXPECT_TRUE(a.ok()) << a.error_message();
  }
  // The dead party restarted, the consortium publishes again.
  E2E_ASSERT_OK(consortium_.StartParty(kMiddle));
  CommandResult start =
      RunPplda({"run", "start", "--config", consortium_.coordinator_config().string(), "--topics",
                "3", "--iterations", "0", "--watch"},
               std::chrono::seconds(300));
  EXPECT_EQ(start.exit_code, 0) << start.Describe();
}

// A party that is killed and never comes back: the run waits for it
// (state "waiting", the party named) for party_restart_wait_seconds, then
// fails naming it.
TEST_F(PartyFailureTest, APartyThatNeverComesBackFailsTheRunAfterTheWait) {
  ConsortiumOptions options;
  options.party_restart_wait_seconds = 4;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  std::string run_id;
  ASSERT_NO_FATAL_FAILURE(StartAndWaitForIteration(40, &run_id));
  consortium_.party(kMiddle).Kill();
  RunStatusLine waiting = PollStatus(
      consortium_, run_id,
      [](const RunStatusLine& s) { return s.state == "waiting" || RunEnded(s); },
      std::chrono::seconds(60));
  EXPECT_EQ(waiting.state, "waiting") << waiting.command.Describe();
  EXPECT_THAT(waiting.command.output, ContainsRegex("waiting for: .*middle"))
      << waiting.command.Describe();
  const Clock::time_point waited_from = Clock::now();
  RunStatusLine s = PollStatus(consortium_, run_id, RunEnded, std::chrono::seconds(120));
  const double seconds = std::chrono::duration<double>(Clock::now() - waited_from).count();
  EXPECT_EQ(s.state, "failed") << s.command.Describe();
  EXPECT_LT(seconds, 60) << "the run waited " << seconds << " s (party_restart_wait_seconds = 4)";
  EXPECT_THAT(s.command.output, ContainsRegex("error: .*middle")) << s.command.Describe();
}

TEST_F(PartyFailureTest, StoppedPartyIsListedAsWaitedForAndTheRunResumes) {
  E2E_ASSERT_OK(SetUpConsortium());
  E2E_ASSERT_OK(consortium_.StartAll());
  std::string run_id;
  ASSERT_NO_FATAL_FAILURE(StartAndWaitForIteration(3, &run_id));

  consortium_.party(kModern).Signal(SIGSTOP);
  // Give the others time to finish what they can without it.
  std::this_thread::sleep_for(std::chrono::seconds(3));
  RunStatusLine first = RunStatusOf(consortium_, run_id);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  RunStatusLine second = RunStatusOf(consortium_, run_id);
  for (const RunStatusLine* s : {&first, &second}) {
    EXPECT_TRUE(s->state == "iterating" || s->state == "publishing") << s->command.Describe();
    EXPECT_THAT(s->command.output, ContainsRegex("waiting for: .*modern")) << s->command.Describe();
  }
  EXPECT_EQ(first.iteration, second.iteration) << "the run went on without the stopped party";

  consortium_.party(kModern).Signal(SIGCONT);
  RunStatusLine s = PollStatus(consortium_, run_id, RunEnded, std::chrono::seconds(300));
  EXPECT_EQ(s.state, "published") << s.command.Describe();
}

}  // namespace
}  // namespace pplda::e2e::testing

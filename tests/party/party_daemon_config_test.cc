// PartyDaemonConfig: insecure_deterministic_rng_seed and
// insecure_capture_sent_payloads are read in a build with
// PPLDA_INSECURE_TEST_RANDOMNESS and refused, naming the file and the key, in
// one without (the gate is injected, so both are checked in any build).
#include "party/daemon/party_daemon_config.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "party/party_randomness.h"

namespace pplda::party {
namespace {

using ::testing::HasSubstr;

class PartyDaemonConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("party_daemon_config_test." + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A valid party.toml, with `extra` appended to its [party] table.
  std::filesystem::path Write(const std::string& extra) {
    const std::filesystem::path path = dir_ / "party.toml";
    std::ofstream(path) << "[party]\nname = \"alpha\"\nconsortium = \"consortium.toml\"\n"
                           "vocabulary = \"vocabulary.txt\"\nkey_share = \"alpha.key\"\n"
                           "state_dir = \"state\"\nlisten = \"127.0.0.1:7101\"\n"
                        << extra
                        << "[tls]\nca = \"ca.crt\"\ncert = \"alpha.crt\"\nkey = \"alpha.key\"\n";
    return path;
  }

  std::filesystem::path dir_;
};

TEST_F(PartyDaemonConfigTest, ReadsTheInsecureSeedWhenTheBuildAllowsIt) {
  absl::StatusOr<PartyDaemonConfig> c =
      LoadPartyDaemonConfig(Write("insecure_deterministic_rng_seed = 42\n"),
                            /*insecure_test_randomness_allowed=*/true);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->insecure_deterministic_rng_seed, uint64_t{42});
}

TEST_F(PartyDaemonConfigTest, RefusesTheInsecureSeedWhenTheBuildDoesNotAllowIt) {
  const std::filesystem::path path = Write("insecure_deterministic_rng_seed = 42\n");
  absl::StatusOr<PartyDaemonConfig> c =
      LoadPartyDaemonConfig(path, /*insecure_test_randomness_allowed=*/false);
  ASSERT_FALSE(c.ok()) << "a build without PPLDA_INSECURE_TEST_RANDOMNESS took the seed";
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(c.status().message()),
            path.string() + ": party.insecure_deterministic_rng_seed: this build does not allow "
                            "insecure test randomness (built with "
                            "PPLDA_INSECURE_TEST_RANDOMNESS=OFF, the default for Release "
                            "builds); remove the key");
  // Seed 0 is a seed too: refused, not taken for "unset".
  EXPECT_FALSE(LoadPartyDaemonConfig(Write("insecure_deterministic_rng_seed = 0\n"), false).ok());
}

TEST_F(PartyDaemonConfigTest, ThePayloadCaptureIsReadOnlyWhenTheBuildAllowsIt) {
  const std::filesystem::path path = Write("insecure_capture_sent_payloads = \"sent.capture\"\n");
  absl::StatusOr<PartyDaemonConfig> c = LoadPartyDaemonConfig(path, true);
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(c->insecure_capture_sent_payloads.has_value());
  EXPECT_EQ(c->insecure_capture_sent_payloads->filename(), "sent.capture");
  c = LoadPartyDaemonConfig(path, false);
  ASSERT_FALSE(c.ok()) << "a build without PPLDA_INSECURE_TEST_RANDOMNESS took the capture";
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(c.status().message()),
              HasSubstr(path.string() + ": party.insecure_capture_sent_payloads: this build does "
                                        "not allow insecure test randomness"));
}

TEST_F(PartyDaemonConfigTest, WithoutTheKeyEveryBuildLoadsTheConfig) {
  for (bool allowed : {true, false}) {
    absl::StatusOr<PartyDaemonConfig> c = LoadPartyDaemonConfig(Write(""), allowed);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_FALSE(c->insecure_deterministic_rng_seed.has_value());
    EXPECT_FALSE(c->insecure_capture_sent_payloads.has_value());
  }
}

TEST_F(PartyDaemonConfigTest, ABadSeedIsNamedAsSuchInEveryBuild) {
  for (bool allowed : {true, false}) {
    absl::StatusOr<PartyDaemonConfig> c =
        LoadPartyDaemonConfig(Write("insecure_deterministic_rng_seed = -5\n"), allowed);
    EXPECT_THAT(std::string(c.status().message()),
                HasSubstr("party.insecure_deterministic_rng_seed: -5 is outside"));
  }
}

// The two-holder acceptance is off unless the file says true; anything but a
// TOML boolean is refused naming the key.
TEST_F(PartyDaemonConfigTest, TheTwoHolderAcceptanceIsABooleanThatDefaultsToFalse) {
  absl::StatusOr<PartyDaemonConfig> c = LoadPartyDaemonConfig(Write(""), false);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_FALSE(c->accept_two_holder_disclosure);
  c = LoadPartyDaemonConfig(Write("accept_two_holder_disclosure = true\n"), false);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->accept_two_holder_disclosure);
  for (const char* bad : {"\"yes\"", "1"}) {
    c = LoadPartyDaemonConfig(Write(std::string("accept_two_holder_disclosure = ") + bad + "\n"),
                              false);
    ASSERT_FALSE(c.ok()) << bad;
    EXPECT_THAT(std::string(c.status().message()),
                HasSubstr("party.accept_two_holder_disclosure: must be true or false"));
  }
}

TEST_F(PartyDaemonConfigTest, ThePrivacyBudgetTakesBothKeysInRange) {
  absl::StatusOr<PartyDaemonConfig> c = LoadPartyDaemonConfig(Write(""), false);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_FALSE(c->privacy_budget.has_value());
  c = LoadPartyDaemonConfig(
      Write("privacy_budget_epsilon = 8\nprivacy_budget_delta = 1e-5\n"), false);
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(c->privacy_budget.has_value());
  EXPECT_EQ(c->privacy_budget->epsilon, 8.0);
  EXPECT_EQ(c->privacy_budget->delta, 1e-5);
  const std::pair<const char*, const char*> bad[] = {
      {"privacy_budget_epsilon = 8\n", "party.privacy_budget_delta: missing"},
      {"privacy_budget_delta = 1e-5\n", "party.privacy_budget_epsilon: missing"},
      {"privacy_budget_epsilon = 0\nprivacy_budget_delta = 1e-5\n",
       "party.privacy_budget_epsilon: 0 is outside"},
      {"privacy_budget_epsilon = 1\nprivacy_budget_delta = 0.9\n",
       "party.privacy_budget_delta: 0.9 is outside"},
      {"privacy_budget_epsilon = \"8\"\nprivacy_budget_delta = 1e-5\n",
       "party.privacy_budget_epsilon: must be a number"}};
  for (const auto& [text, message] : bad) {
    c = LoadPartyDaemonConfig(Write(text), false);
    ASSERT_FALSE(c.ok()) << text;
    EXPECT_THAT(std::string(c.status().message()), HasSubstr(message)) << text;
  }
}

// The ceiling per run: the defaults without keys, each key in range.
TEST_F(PartyDaemonConfigTest, TheCeilingPerRunHasDefaultsAndTakesEachKeyInRange) {
  absl::StatusOr<PartyDaemonConfig> c = LoadPartyDaemonConfig(Write(""), false);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->run_dp_ceiling.epsilon, 10.0);
  EXPECT_EQ(c->run_dp_ceiling.delta, 1e-5);
  c = LoadPartyDaemonConfig(Write("max_run_epsilon = 2\nmax_run_delta = 1e-7\n"), false);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->run_dp_ceiling.epsilon, 2.0);
  EXPECT_EQ(c->run_dp_ceiling.delta, 1e-7);
  const std::pair<const char*, const char*> bad[] = {
      {"max_run_epsilon = 0\n", "party.max_run_epsilon: 0 is outside"},
      {"max_run_epsilon = 5000\n", "party.max_run_epsilon: 5000 is outside"},
      {"max_run_delta = 0.9\n", "party.max_run_delta: 0.9 is outside"},
      {"max_run_delta = \"small\"\n", "party.max_run_delta: must be a number"}};
  for (const auto& [text, message] : bad) {
    c = LoadPartyDaemonConfig(Write(text), false);
    ASSERT_FALSE(c.ok()) << text;
    EXPECT_THAT(std::string(c.status().message()), HasSubstr(message)) << text;
  }
}

TEST_F(PartyDaemonConfigTest, TheDaemonsLoaderFollowsThisBuildsGate) {
  absl::StatusOr<PartyDaemonConfig> c =
      LoadPartyDaemonConfig(Write("insecure_deterministic_rng_seed = 42\n"));
  if (InsecureTestRandomnessAllowed()) {
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->insecure_deterministic_rng_seed, uint64_t{42});
  } else {
    EXPECT_THAT(std::string(c.status().message()),
                HasSubstr("party.insecure_deterministic_rng_seed: this build does not allow"));
  }
}

}  // namespace
}  // namespace pplda::party

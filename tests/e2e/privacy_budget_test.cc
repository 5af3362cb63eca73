// Data holders with a privacy budget in party.toml (party/privacy_ledger.h),
// over the real daemons: a run without DP is refused at Prepare by every
// holder, and so is a DP run that costs more than the budget; nothing is
// debited by a refused run.
#include <chrono>
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "party/privacy_ledger.h"
#include "tests/e2e/e2e_test_util.h"

namespace pplda::e2e::testing {
namespace {

using ::testing::HasSubstr;

class PrivacyBudgetTest : public ConsortiumTest {
 protected:
  CommandResult Run(const std::vector<std::string>& dp) {
    std::vector<std::string> args = {"run",      "start", "--config",
                                     consortium_.coordinator_config().string(),
                                     "--topics", "3",     "--iterations",
                                     "1",        "--watch"};
    args.insert(args.end(), dp.begin(), dp.end());
    return RunPplda(args, std::chrono::seconds(300));
  }
};

TEST_F(PrivacyBudgetTest, HoldersRefuseRunsWithoutDpAndRunsOverTheirBudget) {
  ConsortiumOptions options;
  options.privacy_budget = std::make_pair(1.0, 1e-5);
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());

  const CommandResult exact = Run({});
  EXPECT_NE(exact.exit_code, 0) << exact.Describe();
  EXPECT_THAT(exact.output, HasSubstr("has no differential privacy"));
  EXPECT_THAT(exact.output, HasSubstr("start the run with --dp-epsilon"));

  const CommandResult over = Run({"--dp-epsilon", "2", "--dp-delta", "1e-6", "--dp-max-tokens",
                                  "3", "--dp-max-term-count", "2"});
  EXPECT_NE(over.exit_code, 0) << over.Describe();
  EXPECT_THAT(over.output, HasSubstr("would spend (epsilon 2, delta 1e-06)"));
  EXPECT_THAT(over.output, HasSubstr("the budget in party.toml is (epsilon 1, delta 1e-05)"));

  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    const std::filesystem::path ledger = consortium_.party_config(i).parent_path() / "state" /
                                         LocalConsortium::kPartyNames[i] /
                                         party::PrivacyLedger::kFileName;
    EXPECT_FALSE(std::filesystem::exists(ledger)) << ledger << ": a refused run is not debited";
  }
}

}  // namespace
}  // namespace pplda::e2e::testing

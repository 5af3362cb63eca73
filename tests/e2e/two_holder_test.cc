// Two data holders (early, middle) and a data-less helper (modern), no DP:
// each holder could subtract its own counts from the published exact counts
// and learn the other's (protocol/two_holder_disclosure.h). Over the real
// daemons such a run is refused by the coordinator after Join unless `pplda
// run start --accept-two-holder-disclosure`, and then by each holder at
// Prepare unless its own party.toml accepts it; with both it publishes, and
// the model's leakage statement says what each holder learns.
#include <chrono>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lda/model_file.h"
#include "tests/e2e/e2e_test_util.h"

namespace pplda::e2e::testing {
namespace {

using ::testing::HasSubstr;

class TwoHolderTest : public ConsortiumTest {
 protected:
  CommandResult Run(bool accept) {
    std::vector<std::string> args = {"run",      "start", "--config",
                                     consortium_.coordinator_config().string(),
                                     "--topics", "3",     "--iterations",
                                     "1",        "--watch"};
    if (accept) args.push_back("--accept-two-holder-disclosure");
    return RunPplda(args, std::chrono::seconds(300));
  }
};

TEST_F(TwoHolderTest, TheCoordinatorAndEachHolderRefuseUnlessTheyAccept) {
  ConsortiumOptions options;
  options.last_party_is_helper = true;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());

  const CommandResult coordinator_refused = Run(false);
  EXPECT_NE(coordinator_refused.exit_code, 0) << coordinator_refused.Describe();
  EXPECT_THAT(coordinator_refused.output,
              HasSubstr("two data holders and no differential privacy"));
  EXPECT_THAT(coordinator_refused.output,
              HasSubstr("pplda run start --accept-two-holder-disclosure"));

  // The launcher's flag is not a holder's consent.
  const CommandResult party_refused = Run(true);
  EXPECT_NE(party_refused.exit_code, 0) << party_refused.Describe();
  EXPECT_THAT(party_refused.output,
              HasSubstr("accept_two_holder_disclosure = true in this party's party.toml"));
}

TEST_F(TwoHolderTest, AcceptedByAllItPublishesAndTheModelSaysWhatEachLearns) {
  ConsortiumOptions options;
  options.last_party_is_helper = true;
  options.accept_two_holder_disclosure = true;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());

  const CommandResult published = Run(true);
  ASSERT_EQ(published.exit_code, 0) << published.Describe();
  const std::string model_path = (dir() / "model.json").string();
  const CommandResult result = RunPplda(
      {"run", "result", "--config", consortium_.coordinator_config().string(), "--out",
       model_path});
  ASSERT_EQ(result.exit_code, 0) << result.Describe();
  // run result shows the privacy the model records, as `pplda topics` does.
  EXPECT_THAT(result.output, HasSubstr("the model has NO DP guarantee"));
  absl::StatusOr<lda::LdaModel> model = lda::ReadModelFile(model_path);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->metadata["privacy"]["data_holders"], 2);
  EXPECT_THAT(model->metadata["privacy"]["leakage"].get<std::string>(),
              HasSubstr("each holder learns the other's topic-term counts"));
}

}  // namespace
}  // namespace pplda::e2e::testing

// protocol/run_parameters.h: the one check of a run's parameters and the
// one derivation of its plan, which the coordinator daemon, every party
// session and the simulation call.
#include "protocol/run_parameters.h"

#include <vector>

#include "crypto/paillier/paillier_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "protocol/consortium_policy.h"

namespace pplda::protocol {
namespace {

using ::testing::HasSubstr;

pplda::v1::RunParameters Valid() {
  pplda::v1::RunParameters p;
  p.set_num_topics(5);
  p.set_alpha(0.1);
  p.set_beta(0.01);
  p.set_iterations(3);
  p.set_draw_method("cdf");
  return p;
}

TEST(RunParametersTest, ValidParametersPass) { EXPECT_TRUE(CheckRunParameters(Valid()).ok()); }

TEST(RunParametersTest, EveryBadFieldIsRefusedByName) {
  struct Case {
    void (*set)(pplda::v1::RunParameters&);
    const char* field;
  };
  const std::vector<Case> cases = {
      {[](pplda::v1::RunParameters& p) { p.set_num_topics(0); }, "parameters.num_topics"},
      {[](pplda::v1::RunParameters& p) { p.set_num_topics(65536); }, "parameters.num_topics"},
      {[](pplda::v1::RunParameters& p) { p.set_alpha(0); }, "parameters.alpha"},
      {[](pplda::v1::RunParameters& p) { p.set_alpha(2e6); }, "parameters.alpha"},
      {[](pplda::v1::RunParameters& p) { p.set_beta(-1); }, "parameters.beta"},
      {[](pplda::v1::RunParameters& p) { p.set_iterations(1000001); }, "parameters.iterations"},
      {[](pplda::v1::RunParameters& p) { p.set_draw_method("coin"); }, "parameters.draw_method"},
  };
  for (const Case& c : cases) {
    pplda::v1::RunParameters p = Valid();
    c.set(p);
    const absl::Status s = CheckRunParameters(p);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.field;
    EXPECT_THAT(s.message(), HasSubstr(c.field));
  }
}

TEST(RunParametersTest, BadDpOptionsAreRefused) {
  pplda::v1::RunParameters p = Valid();
  p.set_dp_epsilon(8);
  p.set_dp_delta(2);  // not a probability
  EXPECT_EQ(CheckRunParameters(p).code(), absl::StatusCode::kInvalidArgument);
}

TEST(RunParametersTest, InputsAreReadOffTheMessage) {
  auto inputs = RunPlanInputsFromParameters(Valid(), std::nullopt, 3);
  ASSERT_TRUE(inputs.ok()) << inputs.status();
  EXPECT_EQ(inputs->lda.num_topics, 5);
  EXPECT_DOUBLE_EQ(inputs->lda.alpha, 0.1);
  EXPECT_DOUBLE_EQ(inputs->lda.beta, 0.01);
  EXPECT_EQ(inputs->lda.draw_method, DrawMethod::kInverseCdf);
  EXPECT_EQ(inputs->iterations, 3);
  EXPECT_EQ(inputs->compute_parties, 3);
  EXPECT_FALSE(inputs->dp.has_value());
}

TEST(RunParametersTest, ThePlanUsesTheConsortiumsThresholdAndTheTokens) {
  for (int n : {3, 5}) {
    auto key = crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, n,
                                   PaillierThreshold(n), 3);
    ASSERT_TRUE(key.ok()) << key.status();
    auto inputs = RunPlanInputsFromParameters(Valid(), std::nullopt, n);
    ASSERT_TRUE(inputs.ok());
    const std::vector<int64_t> tokens(n, 100);
    auto plan = DeriveRunPlan(*inputs, 50, tokens, key->public_key->paillier());
    ASSERT_TRUE(plan.ok()) << plan.status();
    EXPECT_EQ(plan->mpc.num_parties(), n);
    EXPECT_EQ(plan->mpc.threshold(), MpcThreshold(n));
    EXPECT_EQ(plan->lda.num_parties(), n);
    EXPECT_EQ(plan->lda.total_tokens(), 100 * n);
    EXPECT_EQ(plan->lda.num_terms(), 50);
    EXPECT_FALSE(plan->lda.dp());
    EXPECT_FALSE(plan->dp.has_value());
  }
}

TEST(RunParametersTest, DpTrainingSetsUpTheNoiseOfThePlan) {
  pplda::v1::RunParameters p = Valid();
  p.set_dp_epsilon(8);
  p.set_dp_delta(1e-5);
  p.set_dp_max_tokens(20);
  p.set_dp_max_term_count(1);
  ASSERT_TRUE(CheckRunParameters(p).ok()) << CheckRunParameters(p);
  auto key = crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2, 3);
  ASSERT_TRUE(key.ok());
  auto inputs = RunPlanInputsFromParameters(p, std::nullopt, 3);
  ASSERT_TRUE(inputs.ok());
  ASSERT_TRUE(inputs->dp.has_value());
  auto plan = DeriveRunPlan(*inputs, 50, {100, 100, 100}, key->public_key->paillier());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_TRUE(plan->dp.has_value());
  EXPECT_TRUE(plan->lda.dp());
  EXPECT_EQ(plan->lda.options().dp->share_bound, plan->dp->noise.share_bound);
  EXPECT_LE(plan->dp->accountant.epsilon(), 8.0);
}

}  // namespace
}  // namespace pplda::protocol

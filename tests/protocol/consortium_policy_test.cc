#include "protocol/consortium_policy.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::coordinator {
namespace {

using ::testing::HasSubstr;

protocol::LeakageContext Dealt(int data_holders, int compute_parties) {
  protocol::LeakageContext c;
  c.setting = "test";
  c.key_origin = "trusted dealer";
  c.data_holders = data_holders;
  c.compute_parties = compute_parties;
  c.modulus_bits = 2048;
  return c;
}

TEST(ConsortiumPolicyTest, ThresholdsAreAnHonestMajority) {
  EXPECT_EQ(protocol::MpcThreshold(3), 1);
  EXPECT_EQ(protocol::PaillierThreshold(3), 2);
  EXPECT_EQ(protocol::MpcThreshold(5), 2);
  EXPECT_EQ(protocol::PaillierThreshold(5), 3);
}

// The statement says what "not revealed" rests on and what it does not
// cover, labels a dealt key, and spends no DP budget.
TEST(ConsortiumPolicyTest, LeakageStatementStatesItsModelAndLimits) {
  const nlohmann::json out = protocol::LeakageStatement(Dealt(3, 3));
  const std::string hiding = out["hiding"].get<std::string>();
  EXPECT_THAT(hiding, HasSubstr("semi-honest"));
  EXPECT_THAT(hiding, HasSubstr("within 2^-40"));
  EXPECT_THAT(hiding, HasSubstr("add up over a run"));
  EXPECT_THAT(hiding, HasSubstr("Not covered: malicious parties"));
  EXPECT_THAT(out["leakage"].get<std::string>(), HasSubstr("each party's total token count"));
  EXPECT_EQ(out["key_origin"], "trusted dealer");
  EXPECT_THAT(out["key"].get<std::string>(), HasSubstr("TRUSTED DEALER"));
  EXPECT_EQ(out["mpc_threshold"], 1);
  EXPECT_EQ(out["paillier_threshold"], 2);
  EXPECT_TRUE(out["epsilon"].is_null());
  EXPECT_FALSE(out.contains("randomness"));
  EXPECT_FALSE(out.contains("helper"));
}

TEST(ConsortiumPolicyTest, TwoDataHoldersLearnEachOthersCountsAndAHelperIsNamed) {
  const nlohmann::json out = protocol::LeakageStatement(Dealt(2, 3));
  EXPECT_THAT(out["leakage"].get<std::string>(),
              HasSubstr("each holder learns the other's topic-term counts"));
  EXPECT_TRUE(out.contains("helper"));
}

TEST(ConsortiumPolicyTest, DataHoldersOutsideTheCommitteeAreStated) {
  protocol::LeakageContext c = Dealt(10, 3);
  c.holders_outside_committee = 10;
  const nlohmann::json out = protocol::LeakageStatement(c);
  const std::string leakage = out["leakage"].get<std::string>();
  EXPECT_THAT(leakage, HasSubstr("additive shares mod N of its count deltas"));
  EXPECT_THAT(leakage, HasSubstr("holds no key share and decrypts nothing"));
  EXPECT_THAT(leakage, HasSubstr("at most t committee members collude"));
  EXPECT_THAT(protocol::LeakageStatement(Dealt(3, 3))["leakage"].get<std::string>(),
              ::testing::Not(HasSubstr("Data holders outside the committee")));
}

TEST(ConsortiumPolicyTest, DeterministicRandomnessIsLabelledInsecure) {
  protocol::LeakageContext c = Dealt(3, 3);
  c.insecure_deterministic_rng_seed = 42;
  const nlohmann::json out = protocol::LeakageStatement(c);
  EXPECT_THAT(out["randomness"].get<std::string>(), HasSubstr("INSECURE"));
  EXPECT_THAT(out["randomness"].get<std::string>(), HasSubstr("seed 42"));
}

TEST(ConsortiumPolicyTest, DistributedKeyIsNotLabelledDealt) {
  protocol::LeakageContext c = Dealt(3, 3);
  c.key_origin = "distributed";
  const nlohmann::json out = protocol::LeakageStatement(c);
  EXPECT_EQ(out["key_origin"], "distributed");
  EXPECT_FALSE(out.contains("key"));
}

}  // namespace
}  // namespace pplda::coordinator

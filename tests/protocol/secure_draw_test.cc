#include "protocol/secure_draw.h"

#include <thread>
#include <tuple>

#include "absl/status/status.h"
#include "base/status_macros.h"
#include "crypto/mpc/committee_links.h"
#include "crypto/mpc/mpc_testing.h"
#include "crypto/mpc/simulated_network.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::protocol {
namespace {

using ::testing::HasSubstr;

struct DrawOutput {
  // topics[p][tau]: what party p learned about token tau.
  std::vector<std::vector<std::optional<int>>> topics;
  uint64_t rounds = 0;
};

absl::StatusOr<DrawOutput> RunDraw(crypto::MpcTestbed& bed, const std::vector<int64_t>& weights,
                                   const std::vector<int>& owners,
                                   const SecureDrawOptions& options) {
  auto shares = bed.ShareIntegers(weights);
  DrawOutput out;
  out.topics.resize(bed.num_parties());
  // The engine's one-time key agreement is not part of a draw's rounds.
  RETURN_IF_ERROR(bed.Run([](crypto::MpcEngine& e) { return e.Random(1).status(); }));
  const uint64_t before = bed.engine(0).rounds();
  RETURN_IF_ERROR(bed.Run([&](crypto::MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(out.topics[e.party_id()],
                     SecureDraw(e, shares[e.party_id()], owners, options));
    return absl::OkStatus();
  }));
  out.rounds = bed.engine(0).rounds() - before;
  return out;
}

// Checks that exactly the owner learned each token's topic; returns them.
std::vector<int> OwnersView(const DrawOutput& out, const std::vector<int>& owners) {
  std::vector<int> topics(owners.size(), -1);
  for (size_t p = 0; p < out.topics.size(); ++p) {
    for (size_t tau = 0; tau < owners.size(); ++tau) {
      if (static_cast<int>(p) == owners[tau]) {
        EXPECT_TRUE(out.topics[p][tau].has_value()) << "owner " << p << " token " << tau;
        if (out.topics[p][tau].has_value()) topics[tau] = *out.topics[p][tau];
      } else {
        EXPECT_FALSE(out.topics[p][tau].has_value()) << "party " << p << " token " << tau;
      }
    }
  }
  return topics;
}

struct Case {
  int num_topics;
  DrawMethod method;
  // kAuto: replicated sharing for binary search and inverse CDF (3 parties),
  // the field comparison for the parallel tree.
  DrawComparison comparison = DrawComparison::kAuto;
};

class SecureDrawTest : public ::testing::TestWithParam<Case> {};

INSTANTIATE_TEST_SUITE_P(
    TopicsAndMethods, SecureDrawTest,
    ::testing::Values(Case{1, DrawMethod::kParallelTree}, Case{2, DrawMethod::kParallelTree},
                      Case{3, DrawMethod::kParallelTree}, Case{5, DrawMethod::kParallelTree},
                      Case{7, DrawMethod::kParallelTree}, Case{64, DrawMethod::kParallelTree},
                      Case{2, DrawMethod::kBinarySearch}, Case{3, DrawMethod::kBinarySearch},
                      Case{5, DrawMethod::kBinarySearch}, Case{7, DrawMethod::kBinarySearch},
                      Case{64, DrawMethod::kBinarySearch}, Case{1, DrawMethod::kInverseCdf},
                      Case{2, DrawMethod::kInverseCdf}, Case{3, DrawMethod::kInverseCdf},
                      Case{5, DrawMethod::kInverseCdf}, Case{64, DrawMethod::kInverseCdf},
                      Case{5, DrawMethod::kBinarySearch, DrawComparison::kStatistical},
                      Case{7, DrawMethod::kBinarySearch, DrawComparison::kStatistical},
                      Case{5, DrawMethod::kInverseCdf, DrawComparison::kStatistical},
                      Case{7, DrawMethod::kInverseCdf, DrawComparison::kFullRange}),
    [](const auto& info) {
      const DrawMethod m = info.param.method;
      const DrawComparison c = info.param.comparison;
      return std::string(m == DrawMethod::kParallelTree   ? "Parallel"
                         : m == DrawMethod::kBinarySearch ? "Binary"
                                                          : "InverseCdf") +
             "K" + std::to_string(info.param.num_topics) +
             (c == DrawComparison::kStatistical ? "Field"
              : c == DrawComparison::kFullRange ? "FullRange"
                                                : "");
    });

// A token whose weight sits on one topic must draw that topic every time:
// exactness for zero weights, at both ends of the weight range.
TEST_P(SecureDrawTest, SingleNonZeroWeightIsAlwaysDrawn) {
  const int K = GetParam().num_topics;
  auto bed = crypto::MpcTestbed::Create(3, 1, 40 + K).value();
  const int weight_bits = 30;
  std::vector<int64_t> weights;
  std::vector<int> owners, expected;
  for (int k = 0; k < K; ++k) {
    for (int64_t w : {int64_t{1}, (int64_t{1} << weight_bits) - 1}) {
      for (int i = 0; i < K; ++i) weights.push_back(i == k ? w : 0);
      owners.push_back(static_cast<int>(expected.size()) % 3);
      expected.push_back(k);
    }
  }
  const SecureDrawOptions options{K, weight_bits, GetParam().method, GetParam().comparison};
  auto out = RunDraw(*bed, weights, owners, options);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(OwnersView(*out, owners), expected);
  auto plan = PlanSecureDraw(bed->config(), options).value();
  EXPECT_EQ(out->rounds, static_cast<uint64_t>(plan.rounds));
}

// Two topics with weights 1 and 3: Pr[topic 1] = 3/4.
TEST(SecureDrawTest, TwoTopicsFollowTheirWeights) {
  auto bed = crypto::MpcTestbed::Create(3, 1, 51).value();
  const int tokens = 2000;
  std::vector<int64_t> weights;
  std::vector<int> owners;
  for (int tau = 0; tau < tokens; ++tau) {
    weights.push_back(1);
    weights.push_back(3);
    owners.push_back(tau % 3);
  }
  auto out = RunDraw(*bed, weights, owners, {2, 8});
  ASSERT_TRUE(out.ok()) << out.status();
  int ones = 0;
  for (int t : OwnersView(*out, owners)) ones += t == 1;
  // Binomial(2000, 3/4): sd ~ 19.4; 5 sd, two-sided error < 1e-6.
  EXPECT_NEAR(ones, 1500, 97);
}

TEST(SecureDrawTest, FullRangeAndReplicatedComparisonsAllowEightyBitWeights) {
  const std::pair<DrawMethod, DrawComparison> cases[] = {
      {DrawMethod::kParallelTree, DrawComparison::kAuto},
      {DrawMethod::kInverseCdf, DrawComparison::kFullRange},
      {DrawMethod::kInverseCdf, DrawComparison::kAuto},
      {DrawMethod::kBinarySearch, DrawComparison::kAuto}};
  for (auto [method, comparison] : cases) {
    auto bed = crypto::MpcTestbed::Create(3, 1, 52).value();
    const SecureDrawOptions options{5, 80, method, comparison};
    auto plan = PlanSecureDraw(bed->config(), options).value();
    EXPECT_EQ(plan.full_range, comparison == DrawComparison::kFullRange ||
                                   method == DrawMethod::kParallelTree);
    EXPECT_EQ(plan.replicated, !plan.full_range);
    if (method == DrawMethod::kBinarySearch) {
      EXPECT_EQ(plan.comparison_bits, 40 + 2 + 80);  // u = sigma + ceil(log2 D), D = 3
      EXPECT_EQ(plan.conversion_bits, 80);
      // Replicated: every uniform and weight sum converted (2 + 3 rounds per
      // level: conversion, U T, sign on 123 bits, reveal), no comparison masks.
      EXPECT_EQ(plan.rounds, 2 + (1 + 1 + (2 + 7) + 1) + (2 + 1 + 1 + (2 + 7) + 1) +
                                 (1 + 1 + (2 + 7) + 1));
      EXPECT_EQ(SecureDrawMaskSpecs(bed->config(), plan, 3).size(), 1u);
    }
    if (method != DrawMethod::kBinarySearch) {
      EXPECT_EQ(plan.comparison_bits, 40 + 2 + 80);  // ceil(log2 K) - 1 = 2
    }
    // Weights 2^62 on topics 1 and 3 of token 0; one topic each for the rest.
    std::vector<int64_t> weights = {0, 1LL << 62, 0, 1LL << 62, 0,          // token 0
                                    0, 0,         0, 0,         1LL << 62,  // token 1 -> 4
                                    5, 0,         0, 0,         0};         // token 2 -> 0
    const std::vector<int> owners = {0, 1, 2};
    auto out = RunDraw(*bed, weights, owners, options);
    ASSERT_TRUE(out.ok()) << out.status();
    const std::vector<int> topics = OwnersView(*out, owners);
    EXPECT_TRUE(topics[0] == 1 || topics[0] == 3) << topics[0];
    EXPECT_EQ(topics[1], 4);
    EXPECT_EQ(topics[2], 0);
    EXPECT_EQ(out->rounds, static_cast<uint64_t>(plan.rounds));
  }
}

TEST(SecureDrawTest, FivePartiesBinarySearchWithStatisticalComparison) {
  for (DrawMethod method : {DrawMethod::kBinarySearch, DrawMethod::kInverseCdf}) {
    auto bed = crypto::MpcTestbed::Create(5, 2, 53).value();
    const SecureDrawOptions options{6, 20, method, DrawComparison::kStatistical};
    std::vector<int64_t> weights;
    std::vector<int> owners, expected;
    for (int tau = 0; tau < 30; ++tau) {
      const int k = tau % 6;
      for (int i = 0; i < 6; ++i) weights.push_back(i == k ? 1000 + tau : 0);
      owners.push_back(tau % 5);
      expected.push_back(k);
    }
    auto out = RunDraw(*bed, weights, owners, options);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(OwnersView(*out, owners), expected);
  }
}

// Committees of five and seven compare on CNF replicated shares (cnf_ring.h)
// by default: 80-bit weights, beyond their statistical comparison, drawn
// exactly in the plan's rounds with no comparison masks.
TEST(SecureDrawTest, LargerCommitteesDrawWithReplicatedComparisons) {
  for (int parties : {5, 7}) {
    for (DrawMethod method : {DrawMethod::kInverseCdf, DrawMethod::kBinarySearch}) {
      auto bed = crypto::MpcTestbed::Create(parties, (parties - 1) / 2, 54).value();
      const SecureDrawOptions options{5, 80, method, DrawComparison::kAuto};
      const SecureDrawPlan plan = PlanSecureDraw(bed->config(), options).value();
      EXPECT_TRUE(plan.replicated) << parties;
      EXPECT_EQ(SecureDrawMaskSpecs(bed->config(), plan, 3).size(), 1u);
      std::vector<int64_t> weights = {0, 1LL << 62, 0, 1LL << 62, 0,          // token 0
                                      0, 0,         0, 0,         1LL << 62,  // token 1 -> 4
                                      5, 0,         0, 0,         0};         // token 2 -> 0
      const std::vector<int> owners = {0, 1, parties - 1};
      auto out = RunDraw(*bed, weights, owners, options);
      ASSERT_TRUE(out.ok()) << out.status();
      const std::vector<int> topics = OwnersView(*out, owners);
      EXPECT_TRUE(topics[0] == 1 || topics[0] == 3) << topics[0];
      EXPECT_EQ(topics[1], 4);
      EXPECT_EQ(topics[2], 0);
      EXPECT_EQ(out->rounds, static_cast<uint64_t>(plan.rounds)) << parties;
    }
  }
}

// Weights (1, 3): Binomial(1000, 3/4) ones, sd ~ 13.7; 5 sd, two-sided
// error < 1e-6.
TEST(SecureDrawTest, FivePartyReplicatedDrawFollowsTheWeights) {
  auto bed = crypto::MpcTestbed::Create(5, 2, 55).value();
  std::vector<int64_t> weights;
  std::vector<int> owners;
  for (int tau = 0; tau < 1000; ++tau) {
    weights.push_back(1);
    weights.push_back(3);
    owners.push_back(tau % 5);
  }
  const SecureDrawOptions options{2, 8, DrawMethod::kInverseCdf};
  ASSERT_TRUE(PlanSecureDraw(bed->config(), options).value().replicated);
  auto out = RunDraw(*bed, weights, owners, options);
  ASSERT_TRUE(out.ok()) << out.status();
  int ones = 0;
  for (int t : OwnersView(*out, owners)) ones += t == 1;
  EXPECT_NEAR(ones, 750, 69);
}

TEST(SecureDrawTest, PlanReportsDepthBitsAndComparisons) {
  auto config = crypto::MpcConfig::Create(3, 1).value();
  constexpr DrawComparison kField = DrawComparison::kStatistical;
  auto plan = PlanSecureDraw(config, {20, 32, DrawMethod::kParallelTree}).value();
  EXPECT_EQ(plan.tree_depth, 5);
  EXPECT_EQ(plan.uniform_bits, 43);  // 40 + ceil(log2 5)
  EXPECT_EQ(plan.comparison_bits, 75);
  EXPECT_FALSE(plan.full_range);
  EXPECT_EQ(plan.comparisons_per_token, 19);
  // Masks (2 rounds: dealt bits and XOR), U T, comparison, tree, reveal.
  EXPECT_EQ(plan.rounds, 2 + 1 + (1 + 7) + 4 + 1);
  plan = PlanSecureDraw(config, {20, 32, DrawMethod::kBinarySearch, kField}).value();
  EXPECT_EQ(plan.comparisons_per_token, 5);
  // Root level: U T, comparison, reveal; four more levels add deal and
  // inner products.
  EXPECT_EQ(plan.rounds, 2 + (1 + 8 + 1) + 4 * (2 + 1 + 8 + 1));
  // Replicated (the default for 3 parties): conversion, U T, sign on 76 bits
  // (2 + ceil(log2 74)), reveal.
  plan = PlanSecureDraw(config, {20, 32, DrawMethod::kBinarySearch}).value();
  EXPECT_TRUE(plan.replicated);
  EXPECT_EQ(plan.conversion_bits, 43);
  EXPECT_EQ(plan.rounds, 2 + (1 + 1 + 9 + 1) + 4 * (2 + 1 + 1 + 9 + 1));
  // Random bits by pseudo-random squares: masks in 1 round.
  auto squares =
      crypto::MpcConfig::Create(3, 1, 40, crypto::MpcConfig::SharedRandomness::kPseudoRandom)
          .value();
  EXPECT_EQ(PlanSecureDraw(squares, {20, 32, DrawMethod::kParallelTree}).value().rounds,
            1 + 1 + (1 + 7) + 4 + 1);
  // Inverse CDF: u = 40 + ceil(log2 20) - 1 = 44; masks, U S, comparison
  // (1 + ceil(log2 76)), reveal.
  plan = PlanSecureDraw(config, {20, 32, DrawMethod::kInverseCdf, kField}).value();
  EXPECT_EQ(plan.uniform_bits, 44);
  EXPECT_EQ(plan.comparison_bits, 76);
  EXPECT_EQ(plan.comparisons_per_token, 19);
  EXPECT_EQ(plan.rounds, 2 + 1 + (1 + 7) + 1);
  plan = PlanSecureDraw(config, {20, 32, DrawMethod::kInverseCdf}).value();
  EXPECT_TRUE(plan.replicated);
  EXPECT_EQ(plan.rounds, 2 + 1 + 1 + 9 + 1);
  plan = PlanSecureDraw(config, {1, 10}).value();
  EXPECT_EQ(plan.rounds, 0);
  EXPECT_EQ(plan.comparisons_per_token, 0);
}

TEST(SecureDrawTest, MethodNamesMapAndUnknownNamesAreRefused) {
  EXPECT_EQ(DrawMethodFromName("binary").value(), DrawMethod::kBinarySearch);
  EXPECT_EQ(DrawMethodFromName("tree").value(), DrawMethod::kParallelTree);
  EXPECT_EQ(DrawMethodFromName("cdf").value(), DrawMethod::kInverseCdf);
  auto bad = DrawMethodFromName("Binary");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("'Binary' is not one of binary, tree, cdf"));
}

// Precomputed draw masks must match SecureDrawMaskSpecs.
TEST(SecureDrawTest, PrecomputedMasksMustMatchTheirSpecs) {
  auto bed = crypto::MpcTestbed::Create(3, 1, 55).value();
  const SecureDrawOptions options{3, 10, DrawMethod::kInverseCdf, DrawComparison::kStatistical};
  const auto plan = PlanSecureDraw(bed->config(), options).value();
  EXPECT_EQ(SecureDrawMaskSpecs(bed->config(), plan, 4).size(), 2u);
  // Replicated comparisons need the uniforms only.
  EXPECT_EQ(SecureDrawMaskSpecs(bed->config(),
                                PlanSecureDraw(bed->config(), {3, 10, DrawMethod::kInverseCdf})
                                    .value(),
                                4)
                .size(),
            1u);
  auto shares = bed->ShareIntegers(std::vector<int64_t>(12, 1));
  const std::vector<int> owners = {0, 1, 2, 0};
  absl::Status s = bed->Run([&](crypto::MpcEngine& e) {
    return SecureDraw(e, shares[e.party_id()], owners, options, {}).status();
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("secure draw: 0 mask batches, expected 2"));
  bed = crypto::MpcTestbed::Create(3, 1, 56).value();  // a failed run shuts its network down
  shares = bed->ShareIntegers(std::vector<int64_t>(12, 1));
  s = bed->Run([&](crypto::MpcEngine& e) -> absl::Status {
    // Masks for 5 tokens handed to a draw of 4.
    ASSIGN_OR_RETURN(auto wrong, e.GenerateMasks(SecureDrawMaskSpecs(e.config(), plan, 5)));
    return SecureDraw(e, shares[e.party_id()], owners, options, wrong).status();
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("secure draw: masks were generated for 5 elements"));
}

TEST(SecureDrawTest, BadOptionsAndInputsAreRejected) {
  auto config = crypto::MpcConfig::Create(3, 1).value();
  auto plan = PlanSecureDraw(config, {0, 10});
  EXPECT_EQ(plan.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(plan.status().message(), HasSubstr("number of topics K = 0"));
  plan = PlanSecureDraw(config, {4, 0});
  EXPECT_THAT(plan.status().message(), HasSubstr("weight_bits = 0"));
  plan = PlanSecureDraw(config, {4, 85});
  EXPECT_EQ(plan.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(plan.status().message(), HasSubstr("126-bit comparisons"));
  plan = PlanSecureDraw(config, {4, 50, DrawMethod::kParallelTree, DrawComparison::kStatistical});
  EXPECT_THAT(plan.status().message(), HasSubstr("the limit is 83 (statistical)"));
  // Replicated comparisons: an odd committee with pseudo-random sharing,
  // no parallel tree, comparisons of at most 127 bits, weights of at most
  // 85 (n = 3).
  for (auto [parties, threshold, method, bits] :
       {std::tuple{4, 1, DrawMethod::kBinarySearch, 20},
        std::tuple{3, 1, DrawMethod::kParallelTree, 20},
        std::tuple{3, 1, DrawMethod::kBinarySearch, 86}}) {
    auto other = crypto::MpcConfig::Create(parties, threshold).value();
    plan = PlanSecureDraw(other, {4, bits, method, DrawComparison::kReplicated});
    EXPECT_EQ(plan.status().code(), absl::StatusCode::kInvalidArgument) << bits;
    EXPECT_THAT(plan.status().message(),
                HasSubstr("replicated comparisons need an odd number of parties"));
  }
  EXPECT_TRUE(PlanSecureDraw(config, {4, 85, DrawMethod::kBinarySearch}).value().replicated);
  auto dealt =
      crypto::MpcConfig::Create(3, 1, 40, crypto::MpcConfig::SharedRandomness::kDealt).value();
  EXPECT_FALSE(PlanSecureDraw(dealt, {4, 20, DrawMethod::kBinarySearch}).value().replicated);

  auto bed = crypto::MpcTestbed::Create(3, 1, 54).value();
  absl::Status s = bed->Run([](crypto::MpcEngine& e) {
    return SecureDraw(e, crypto::Shares(5), std::vector<int>{0, 1}, {3, 10}).status();
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("5 weight shares for 2 tokens and K = 3"));
  s = bed->Run([](crypto::MpcEngine& e) {
    return SecureDraw(e, crypto::Shares(6), std::vector<int>{0, 7}, {3, 10}).status();
  });
  EXPECT_THAT(s.message(), HasSubstr("owner of token 1 is party 7"));
}

// Data holders outside the committee: tokens owned by two clients of the
// committee's links learn their topics (exactly the one topic of non-zero
// weight) and nothing reaches any member; the committee's own owners get
// theirs as before. Replicated sharing (3 members, the inverse CDF), the
// field comparison (3 members forced; 5 members) and the parallel tree.
struct ClientCase {
  int parties;
  DrawMethod method;
  DrawComparison comparison;
};

class SecureDrawClientsTest : public ::testing::TestWithParam<ClientCase> {};

INSTANTIATE_TEST_SUITE_P(
    CommitteesAndMethods, SecureDrawClientsTest,
    ::testing::Values(ClientCase{3, DrawMethod::kInverseCdf, DrawComparison::kAuto},
                      ClientCase{3, DrawMethod::kInverseCdf, DrawComparison::kStatistical},
                      ClientCase{5, DrawMethod::kInverseCdf, DrawComparison::kAuto},
                      ClientCase{3, DrawMethod::kParallelTree, DrawComparison::kAuto}));

TEST_P(SecureDrawClientsTest, DataHoldersLearnTheirTokensTopicsOnly) {
  const ClientCase c = GetParam();
  const int n = c.parties, K = 5, tokens = 12;
  auto bed = crypto::MpcTestbed::Create(n, (n - 1) / 2, 41).value();
  auto links_net = crypto::SimulatedNetwork::Create(n + 2).value();
  SecureDrawOptions options{K, 20, c.method, c.comparison};
  std::vector<int> owners(tokens), target(tokens);
  std::vector<int64_t> weights(static_cast<size_t>(tokens) * K, 0);
  std::vector<std::vector<int>> client_targets(2);
  for (int tau = 0; tau < tokens; ++tau) {
    // Parties 0 and 1, then clients 0 and 1 (owners n and n + 1).
    owners[tau] = tau % 4 < 2 ? tau % 4 : n + tau % 4 - 2;
    target[tau] = (tau * 7 + 3) % K;
    weights[static_cast<size_t>(tau) * K + target[tau]] = 1;
    if (tau % 4 >= 2) client_targets[tau % 4 - 2].push_back(target[tau]);
  }
  const std::vector<crypto::Shares> shares = bed->ShareIntegers(weights);
  std::vector<std::vector<std::optional<int>>> seen(n);
  std::vector<absl::StatusOr<std::vector<int>>> client_topics(2, absl::UnknownError("not run"));
  std::vector<std::thread> clients;
  for (int k = 0; k < 2; ++k) {
    clients.emplace_back([&, k] {
      auto links =
          crypto::CommitteeLinks::Create(links_net->transport(n + k), bed->config().shamir());
      client_topics[k] =
          ReceiveDrawnTopics(*links, bed->config(), options, 1, client_targets[k].size());
    });
  }
  absl::Status status = bed->Run([&](crypto::MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(SecureDrawPlan plan, PlanSecureDraw(e.config(), options));
    ASSIGN_OR_RETURN(auto masks, e.GenerateMasks(SecureDrawMaskSpecs(e.config(), plan, tokens)));
    ASSIGN_OR_RETURN(
        crypto::CommitteeLinks links,
        crypto::CommitteeLinks::Create(links_net->transport(e.party_id()), e.config().shamir()));
    ASSIGN_OR_RETURN(seen[e.party_id()], SecureDraw(e, shares[e.party_id()], owners, options, masks,
                                                    DrawClients{&links, 1}));
    return absl::OkStatus();
  });
  for (std::thread& t : clients) t.join();
  ASSERT_TRUE(status.ok()) << status;
  for (int p = 0; p < n; ++p) {
    for (int tau = 0; tau < tokens; ++tau) {
      if (owners[tau] == p) {
        EXPECT_EQ(seen[p][tau], target[tau]) << "party " << p << " token " << tau;
      } else {
        EXPECT_FALSE(seen[p][tau].has_value()) << "party " << p << " token " << tau;
      }
    }
  }
  for (int k = 0; k < 2; ++k) {
    ASSERT_TRUE(client_topics[k].ok()) << client_topics[k].status();
    EXPECT_EQ(*client_topics[k], client_targets[k]) << "client " << k;
  }
}

TEST(SecureDrawClientsErrorsTest, BinarySearchAndUnknownOwnersAreRefused) {
  auto bed = crypto::MpcTestbed::Create(3, 1, 43).value();
  auto links_net = crypto::SimulatedNetwork::Create(4).value();
  auto links = crypto::CommitteeLinks::Create(links_net->transport(0), bed->config().shamir());
  ASSERT_TRUE(links.ok()) << links.status();
  SecureDrawOptions binary{5, 20, DrawMethod::kBinarySearch, DrawComparison::kAuto};
  const crypto::Shares weights(5);
  auto refused = SecureDraw(bed->engine(0), weights, {3}, binary, {}, DrawClients{&*links, 1});
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(), HasSubstr("binary search"));
  SecureDrawOptions cdf{5, 20, DrawMethod::kInverseCdf, DrawComparison::kAuto};
  auto unknown = SecureDraw(bed->engine(0), weights, {4}, cdf, {}, DrawClients{&*links, 1});
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(unknown.status().message(), HasSubstr("owner of token 0 is 4"));
  EXPECT_THAT(unknown.status().message(), HasSubstr("or a client (3..3)"));
}

}  // namespace
}  // namespace pplda::protocol

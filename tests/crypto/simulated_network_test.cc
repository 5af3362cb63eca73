#include "crypto/mpc/simulated_network.h"

#include <chrono>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

TEST(SimulatedNetworkTest, CreateValidatesPartyCount) {
  auto net = SimulatedNetwork::Create(1);
  EXPECT_EQ(net.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(net.status().message(), HasSubstr("got 1"));
}

TEST(SimulatedNetworkTest, RoundsMessagesAndBytesAreCounted) {
  auto net = SimulatedNetwork::Create(3).value();
  // Round 1: everyone sends 10 bytes to everyone. Round 2: parties 1 and 2
  // send 4 bytes to party 0 only.
  absl::Status status = net->RunParties([&](int p) -> absl::Status {
    PartyTransport& t = net->transport(p);
    for (int j = 0; j < 3; ++j) {
      if (j != p) {
        absl::Status s = t.Send(j, 1, std::vector<uint8_t>(10, static_cast<uint8_t>(p)));
        if (!s.ok()) return s;
      }
    }
    for (int j = 0; j < 3; ++j) {
      if (j == p) continue;
      auto got = t.Receive(j, 1);
      if (!got.ok()) return got.status();
      if (*got != std::vector<uint8_t>(10, static_cast<uint8_t>(j))) {
        return absl::InternalError("wrong payload");
      }
    }
    if (p != 0) return t.Send(0, 2, std::vector<uint8_t>(4, 1));
    for (int j = 1; j < 3; ++j) {
      auto got = t.Receive(j, 2);
      if (!got.ok()) return got.status();
    }
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  const NetworkStats stats = net->Stats();
  EXPECT_EQ(stats.rounds, 2u);
  EXPECT_EQ(stats.total_messages(), 8u);
  EXPECT_EQ(stats.total_bytes(), 6u * 10 + 2u * 4);
  EXPECT_EQ(stats.parties[0].bytes_sent, 20u);
  EXPECT_EQ(stats.parties[0].bytes_received, 20u + 8u);
  EXPECT_EQ(stats.parties[0].rounds_sending, 1u);
  EXPECT_EQ(stats.parties[1].rounds_sending, 2u);
  EXPECT_EQ(stats.parties[1].messages_sent, 3u);
  EXPECT_EQ(stats.max_bytes_sent(), 24u);
  ASSERT_EQ(stats.per_round.size(), 2u);
  EXPECT_EQ(stats.per_round[0].messages, 6u);
  EXPECT_EQ(stats.per_round[1].bytes, 8u);
  net->ResetStats();
  EXPECT_EQ(net->Stats().total_bytes(), 0u);
  EXPECT_EQ(net->Stats().rounds, 0u);
}

TEST(SimulatedNetworkTest, WrongRoundIsFailedPrecondition) {
  auto net = SimulatedNetwork::Create(3).value();
  ASSERT_TRUE(net->transport(1).Send(0, 5, {1, 2}).ok());
  auto got = net->transport(0).Receive(1, 4);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(got.status().message(), HasSubstr("expected the message of round 4 from party 1"));
  EXPECT_THAT(got.status().message(), HasSubstr("round 5"));
}

TEST(SimulatedNetworkTest, BadPeerIdsAreInvalidArgument) {
  auto net = SimulatedNetwork::Create(3).value();
  EXPECT_EQ(net->transport(0).Send(0, 1, {}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(net->transport(0).Send(3, 1, {}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(net->transport(0).Receive(-1, 1).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SimulatedNetworkTest, ReceiveTimesOutNamingPeerAndRound) {
  auto net = SimulatedNetwork::Create(3, std::chrono::milliseconds(20)).value();
  auto got = net->transport(2).Receive(1, 7);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(got.status().message(), HasSubstr("party 1's message of round 7"));
}

TEST(SimulatedNetworkTest, FailingPartyUnblocksTheOthersAndIsReported) {
  auto net = SimulatedNetwork::Create(3).value();
  absl::Status status = net->RunParties([&](int p) -> absl::Status {
    if (p == 2) return absl::InvalidArgumentError("bad input file");
    // Parties 0 and 1 wait for party 2, which never sends.
    return net->transport(p).Receive(2, 1).status();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("party 2: bad input file"));
}

}  // namespace
}  // namespace pplda::crypto

#include "crypto/mpc/committee_links.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "base/status_macros.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/mpc_testing.h"
#include "crypto/mpc/simulated_network.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

FieldElement Fe(int64_t v) { return FieldElement::FromInt64(v); }

// A committee of n members with their engines (over their own network) and
// h clients, all joined by committee links.
struct CommitteeAndClients {
  CommitteeAndClients(int n, int t, int h)
      : config(MpcConfig::Create(n, t).value()),
        mpc(SimulatedNetwork::Create(n).value()),
        links(SimulatedNetwork::Create(n + h).value()) {
    for (int p = 0; p < n + h; ++p) rngs.push_back(std::make_unique<SeededRng>(100 + p));
    for (int p = 0; p < n; ++p) {
      engines.push_back(MpcEngine::Create(config, mpc->transport(p), *rngs[p]).value());
    }
  }
  CommitteeLinks Links(int endpoint) {
    return CommitteeLinks::Create(links->transport(endpoint), config.shamir()).value();
  }

  MpcConfig config;
  std::unique_ptr<SimulatedNetwork> mpc, links;
  std::vector<std::unique_ptr<SeededRng>> rngs;
  std::vector<std::unique_ptr<MpcEngine>> engines;
};

// Two clients input x and y, the committee multiplies them under MPC and
// reveals x y to client 1 and x + y to client 0: exact, for committees of
// 3 and 5.
class CommitteeLinksTest : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(CommitteeLinksTest, ClientInputsComputedOnAndRevealedToTheirClientOnly) {
  const auto [n, t] = GetParam();
  CommitteeAndClients c(n, t, 2);
  const FieldVector x = {Fe(3), Fe(-7), Fe(0), Fe(123456789)};
  const FieldVector y = {Fe(5), Fe(11), Fe(9), Fe(-2)};
  FieldVector sum, product;
  absl::Status status = c.links->RunParties([&](int p) -> absl::Status {
    CommitteeLinks links = c.Links(p);
    if (links.is_client()) {
      const int me = links.index();
      RETURN_IF_ERROR(links.SendInput(1, me == 0 ? x : y, *c.rngs[p]));
      ASSIGN_OR_RETURN(FieldVector revealed, links.ReceiveRevealed(2, x.size()));
      (me == 0 ? sum : product) = std::move(revealed);
      return absl::OkStatus();
    }
    ASSIGN_OR_RETURN(Shares a, links.ReceiveInput(0, 1, x.size()));
    ASSIGN_OR_RETURN(Shares b, links.ReceiveInput(1, 1, y.size()));
    ASSIGN_OR_RETURN(Shares ab, c.engines[p]->Mul(a, b));
    RETURN_IF_ERROR(links.RevealTo(0, 2, a + b));
    return links.RevealTo(1, 2, ab);
  });
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_EQ(sum.size(), x.size());
  ASSERT_EQ(product.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(sum[i], x[i] + y[i]) << i;
    EXPECT_EQ(product[i], x[i] * y[i]) << i;
  }
  // Each member received one input message from each client and sent one
  // reveal to each; a client sent one message per member and received one.
  const NetworkStats stats = c.links->Stats();
  EXPECT_EQ(stats.rounds, 2u);
  for (int j = 0; j < n; ++j) {
    EXPECT_EQ(stats.parties[j].messages_sent, 2u);
    EXPECT_EQ(stats.parties[j].messages_received, 2u);
  }
  for (int client = 0; client < 2; ++client) {
    EXPECT_EQ(stats.parties[n + client].messages_sent, static_cast<uint64_t>(n));
    EXPECT_EQ(stats.parties[n + client].bytes_sent, n * x.size() * FieldElement::kBytes);
  }
}

INSTANTIATE_TEST_SUITE_P(Committees, CommitteeLinksTest,
                         ::testing::Values(std::make_pair(3, 1), std::make_pair(5, 2)));

// A client's input reaches each member as a share of a fresh polynomial of
// degree t (shamir_test.cc checks that t shares say nothing of the
// secret): member 0's shares of one secret sent three times differ from it
// and from each other, and the committee's shares reconstruct it.
TEST(CommitteeLinksSharesTest, EveryInputIsAFreshSharingOfIt) {
  CommitteeAndClients c(3, 1, 1);
  const FieldVector secret = {Fe(42), Fe(42), Fe(42)};
  std::vector<Shares> received(3);
  absl::Status status = c.links->RunParties([&](int p) -> absl::Status {
    CommitteeLinks links = c.Links(p);
    if (links.is_client()) return links.SendInput(7, secret, *c.rngs[p]);
    ASSIGN_OR_RETURN(received[p], links.ReceiveInput(0, 7, secret.size()));
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  for (size_t i = 0; i < secret.size(); ++i) {
    EXPECT_NE(received[0][i], secret[i]);
    // Fresh polynomials: the same secret three times, three different shares.
    if (i > 0) {
      EXPECT_NE(received[0][i], received[0][i - 1]);
    }
  }
  std::vector<FieldVector> all = {received[0].values(), received[1].values(), received[2].values()};
  EXPECT_EQ(c.config.shamir().Reconstruct(all, 1).value(), secret);
}

// A member that sends an altered share is caught by the client's check.
class AlteringTransport final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) override {
    if (!payload.empty()) payload[0] ^= 1;
    return inner_.Send(to, round, std::move(payload));
  }
};

TEST(CommitteeLinksErrorsTest, AnInconsistentRevealIsRefusedNamingTheMember) {
  CommitteeAndClients c(3, 1, 1);
  AlteringTransport altered(c.links->transport(2));
  absl::Status client_status;
  absl::Status status = c.links->RunParties([&](int p) -> absl::Status {
    if (p == 3) {
      CommitteeLinks links = c.Links(3);
      client_status = links.ReceiveRevealed(1, 2).status();
      return absl::OkStatus();
    }
    CommitteeLinks links =
        p == 2 ? CommitteeLinks::Create(altered, c.config.shamir()).value() : c.Links(p);
    // Shares of (1, 2) at degree 1: f(x) = v + x.
    const Shares mine(FieldVector{Fe(1 + p + 1), Fe(2 + p + 1)});
    return links.RevealTo(0, 1, mine);
  });
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(client_status.code(), absl::StatusCode::kInvalidArgument) << client_status;
  EXPECT_THAT(client_status.message(), HasSubstr("party 2"));
}

// Each member's part of 70 bits over two words is a fixed pattern; the
// client learns their XOR, for a committee of three and of five.
TEST(CommitteeLinksBitsTest, TheMembersPartsXorToTheBits) {
  for (int members : {3, 5}) {
    CommitteeAndClients c(members, (members - 1) / 2, 1);
    std::vector<std::vector<uint64_t>> parts;
    for (int p = 0; p < members; ++p) {
      parts.push_back({0x0123456789abcdefULL * (2 * p + 1), uint64_t{0x15} << p});
    }
    std::vector<bool> revealed;
    absl::Status status = c.links->RunParties([&](int p) -> absl::Status {
      CommitteeLinks links = c.Links(p);
      if (links.is_client()) {
        ASSIGN_OR_RETURN(revealed, links.ReceiveRevealedBits(5, 70));
        return absl::OkStatus();
      }
      return links.RevealBitsTo(0, 5, parts[p], 70);
    });
    ASSERT_TRUE(status.ok()) << status;
    ASSERT_EQ(revealed.size(), 70u);
    for (size_t e = 0; e < 70; ++e) {
      uint64_t word = 0;
      for (const auto& part : parts) word ^= part[e / 64];
      EXPECT_EQ(revealed[e], ((word >> (e % 64)) & 1) == 1) << members << " members, bit " << e;
    }
  }
}

TEST(CommitteeLinksErrorsTest, BadCallsAreRefused) {
  CommitteeAndClients c(3, 1, 1);
  auto no_clients = SimulatedNetwork::Create(3).value();
  const absl::Status none =
      CommitteeLinks::Create(no_clients->transport(0), c.config.shamir()).status();
  EXPECT_EQ(none.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(none.message(), HasSubstr("needs at least one client more"));

  CommitteeLinks member = c.Links(0);
  CommitteeLinks client = c.Links(3);
  EXPECT_FALSE(member.is_client());
  EXPECT_TRUE(client.is_client());
  EXPECT_EQ(client.index(), 0);
  EXPECT_EQ(member.num_clients(), 1);
  SeededRng rng(9);
  EXPECT_THAT(member.SendInput(1, FieldVector{Fe(1)}, rng).message(),
              HasSubstr("member 0 called a client's side"));
  EXPECT_THAT(client.ReceiveInput(0, 1, 1).status().message(),
              HasSubstr("client 0 called a member's side"));
  EXPECT_THAT(member.RevealTo(1, 1, Shares(1)).message(), HasSubstr("client 1 is outside [0, 1)"));
  EXPECT_THAT(member.ReceiveFromClient(-1, 1).status().message(),
              HasSubstr("client -1 is outside"));
  const std::vector<uint64_t> one_word = {0};
  EXPECT_THAT(member.RevealBitsTo(0, 1, one_word, 65).message(), HasSubstr("fewer than 65 bits"));
}

TEST(CommitteeLinksErrorsTest, AWrongSizedInputIsRefusedNamingTheClient) {
  CommitteeAndClients c(3, 1, 1);
  absl::Status member_status;
  absl::Status status = c.links->RunParties([&](int p) -> absl::Status {
    CommitteeLinks links = c.Links(p);
    if (links.is_client()) return links.SendInput(1, FieldVector{Fe(1), Fe(2)}, *c.rngs[p]);
    absl::Status s = links.ReceiveInput(0, 1, 3).status();
    if (p == 0) member_status = s;
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(member_status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(member_status.message(), HasSubstr("input of round 1 from client 0"));
}

TEST(CommitteeLinksBytesTest, EveryMemberGetsTheClientsBytes) {
  CommitteeAndClients c(5, 2, 2);
  const std::vector<uint8_t> bytes = {1, 2, 3, 250};
  std::vector<std::vector<uint8_t>> got(5);
  absl::Status status = c.links->RunParties([&](int p) -> absl::Status {
    CommitteeLinks links = c.Links(p);
    if (links.is_client()) {
      return links.index() == 1 ? links.SendToCommittee(4, bytes) : absl::OkStatus();
    }
    ASSIGN_OR_RETURN(got[p], links.ReceiveFromClient(1, 4));
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  for (int j = 0; j < 5; ++j) EXPECT_EQ(got[j], bytes) << j;
}

TEST(CommitteeLinksBytesTest, AMembersBytesReachOneClient) {
  CommitteeAndClients c(3, 1, 2);
  std::vector<uint8_t> got;
  absl::Status status = c.links->RunParties([&](int p) -> absl::Status {
    CommitteeLinks links = c.Links(p);
    if (p == 2) return links.SendToClient(1, 3, {9, 8, 7});
    if (p == 4) {
      ASSIGN_OR_RETURN(got, links.ReceiveFromMember(2, 3));
      EXPECT_THAT(links.ReceiveFromMember(3, 4).status().message(),
                  HasSubstr("member 3 is outside [0, 3)"));
    }
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(got, (std::vector<uint8_t>{9, 8, 7}));
}

}  // namespace
}  // namespace pplda::crypto

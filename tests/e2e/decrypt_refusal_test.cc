// End-to-end, the untrusted coordinator over the network: this test plays
// the coordinator (its certificate) against three real party daemons,
// drives each run through Join, Prepare and its one iteration as the real
// coordinator would, then asks for publication with something other than
// the agreed fold. Every party refuses to decrypt, with the reason:
//  - a digest that is not the parties' agreed fold: FailedPrecondition
//    "refusing to decrypt" at every party, which all name the same agreed
//    digest (they confirmed the same fold among themselves) and not the
//    asked one;
//  - a ciphertext of the coordinator's choice in place of one of party 1's
//    (it would enter the fold to be decrypted): party 1 refuses its altered
//    update (InvalidArgument), and no party decrypts;
//  - a substitution shown to party 0 only: the parties' confirmation round
//    finds that party 0 folded different updates, and no party decrypts.
// After each refusal no partial decryption was returned, and afterwards the
// daemons serve a real run to publication.
#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/e2e/e2e_test_util.h"
#include "tests/e2e/party_control_test_util.h"

namespace pplda::e2e::testing {
namespace {

using ::testing::HasSubstr;

constexpr int kParties = LocalConsortium::kParties;

std::string Code(const grpc::Status& s) {
  return absl::StrCat(s.error_code(), " (", s.error_message(), ")");
}

// Calls `call(i)` for every party at once (the parties run MPC rounds
// among themselves inside a step) and returns each status.
template <typename Call>
std::vector<grpc::Status> AtEveryParty(Call call) {
  std::vector<grpc::Status> statuses(kParties);
  std::vector<std::thread> threads;
  for (int i = 0; i < kParties; ++i) threads.emplace_back([&, i] { statuses[i] = call(i); });
  for (std::thread& t : threads) t.join();
  return statuses;
}

class DecryptRefusalTest : public ConsortiumTest {
 protected:
  // Join, Prepare and iteration 1 of a 1-iteration run `run`; every
  // party's update of that iteration, in party order.
  void RunOneIteration(PartyControlClient& c, const std::string& run,
                       std::vector<pplda::v1::CountUpdateMessage>& updates) {
    std::vector<pplda::v1::JoinReply> joined(kParties);
    for (int i = 0; i < kParties; ++i) {
      const grpc::Status s = c.party(i).Join(c.Context().get(), c.Join(run, 1), &joined[i]);
      ASSERT_TRUE(s.ok()) << LocalConsortium::kPartyNames[i] << ": " << Code(s);
    }
    std::vector<pplda::v1::PrepareReply> prepared(kParties);
    std::vector<grpc::Status> s = AtEveryParty([&](int i) {
      pplda::v1::PrepareRequest prepare;
      *prepare.mutable_header() = c.Header(run, 0);
      for (const pplda::v1::JoinReply& j : joined) prepare.add_tokens_per_party(j.tokens());
      return c.party(i).Prepare(c.Context().get(), prepare, &prepared[i]);
    });
    for (int i = 0; i < kParties; ++i) ASSERT_TRUE(s[i].ok()) << i << ": " << Code(s[i]);
    pplda::v1::IterateRequest iterate;
    *iterate.mutable_header() = c.Header(run, 1);
    for (const pplda::v1::PrepareReply& p : prepared) *iterate.add_previous() = p.initial_counts();
    std::vector<pplda::v1::IterateReply> replies(kParties);
    s = AtEveryParty(
        [&](int i) { return c.party(i).Iterate(c.Context().get(), iterate, &replies[i]); });
    for (int i = 0; i < kParties; ++i) ASSERT_TRUE(s[i].ok()) << i << ": " << Code(s[i]);
    updates.clear();
    for (const pplda::v1::IterateReply& r : replies) updates.push_back(r.update());
  }

  // Publication asked of every party (request i to party i); the statuses,
  // and whether any party returned a partial decryption.
  std::vector<grpc::Status> PublishAtEveryParty(PartyControlClient& c,
                                                const std::vector<pplda::v1::PublishRequest>& asks,
                                                bool& any_partials) {
    std::vector<pplda::v1::PublishReply> replies(kParties);
    std::vector<grpc::Status> s = AtEveryParty(
        [&](int i) { return c.party(i).Publish(c.Context().get(), asks[i], &replies[i]); });
    any_partials = false;
    for (const pplda::v1::PublishReply& r : replies) {
      any_partials = any_partials || r.partials().ByteSizeLong() > 0;
    }
    return s;
  }

  // Ends `run` at every party, as the coordinator does after a failure.
  static void AbortEverywhere(PartyControlClient& c, const std::string& run) {
    for (int i = 0; i < kParties; ++i) {
      pplda::v1::AbortRequest abort;
      *abort.mutable_header() = c.Header(run, 0);
      abort.set_reason("e2e test: publication refused");
      pplda::v1::AbortReply reply;
      const grpc::Status s = c.party(i).Abort(c.Context().get(), abort, &reply);
      EXPECT_TRUE(s.ok()) << i << ": " << Code(s);
    }
  }

  static pplda::v1::PublishRequest Ask(const PartyControlClient& c, const std::string& run,
                                       const std::vector<pplda::v1::CountUpdateMessage>& last,
                                       const std::string& digest) {
    pplda::v1::PublishRequest request;
    *request.mutable_header() = c.Header(run, 1);
    for (const pplda::v1::CountUpdateMessage& u : last) *request.add_last() = u;
    request.set_counts_digest(digest);
    request.set_decrypt(true);
    return request;
  }
};

TEST_F(DecryptRefusalTest, NoPartyDecryptsAnythingButTheFoldItAgreedWithItsPeers) {
  E2E_ASSERT_OK(SetUpConsortium());
  E2E_ASSERT_OK(consortium_.StartAll());
  absl::StatusOr<std::unique_ptr<PartyControlClient>> as_coordinator =
      PartyControlClient::Create(consortium_, "coordinator");
  ASSERT_TRUE(as_coordinator.ok()) << as_coordinator.status();
  PartyControlClient& c = **as_coordinator;
  bool any_partials = true;

  // 1. A digest that is not the agreed fold's.
  {
    std::vector<pplda::v1::CountUpdateMessage> updates;
    ASSERT_NO_FATAL_FAILURE(RunOneIteration(c, "e2e-wrong-digest", updates));
    const std::string asked(32, '\x5a');
    std::string asked_hex;
    for (int i = 0; i < 32; ++i) asked_hex += "5a";
    const std::vector<grpc::Status> s =
        PublishAtEveryParty(c,
                            std::vector<pplda::v1::PublishRequest>(
                                kParties, Ask(c, "e2e-wrong-digest", updates, asked)),
                            any_partials);
    EXPECT_FALSE(any_partials);
    const std::regex agreed_digest(
        "but the agreed fold of run 'e2e-wrong-digest' after "
        "iteration 1 is ([0-9a-f]{64})");
    std::vector<std::string> agreed;
    for (int i = 0; i < kParties; ++i) {
      EXPECT_EQ(s[i].error_code(), grpc::StatusCode::FAILED_PRECONDITION)
          << i << ": " << Code(s[i]);
      EXPECT_THAT(s[i].error_message(), HasSubstr("refusing to decrypt"));
      EXPECT_THAT(s[i].error_message(), HasSubstr("asks for counts with digest " + asked_hex));
      std::smatch m;
      const std::string message = s[i].error_message();
      if (std::regex_search(message, m, agreed_digest)) agreed.push_back(m[1]);
    }
    ASSERT_EQ(agreed.size(), static_cast<size_t>(kParties));
    EXPECT_EQ(agreed[0], agreed[1]);
    EXPECT_EQ(agreed[1], agreed[2]);
    EXPECT_NE(agreed[0], asked_hex);
    AbortEverywhere(c, "e2e-wrong-digest");
  }

  // 2. A ciphertext of the coordinator's choice in party 1's update.
  {
    std::vector<pplda::v1::CountUpdateMessage> updates;
    ASSERT_NO_FATAL_FAILURE(RunOneIteration(c, "e2e-altered-update", updates));
    std::vector<pplda::v1::CountUpdateMessage> altered = updates;
    ASSERT_GT(updates[0].matrix().ByteSizeLong(), 0u);
    *altered[1].mutable_matrix() = updates[0].matrix();  // party 0's ciphertexts as party 1's
    const std::vector<grpc::Status> s = PublishAtEveryParty(
        c,
        std::vector<pplda::v1::PublishRequest>(
            kParties, Ask(c, "e2e-altered-update", altered, std::string(32, '\0'))),
        any_partials);
    EXPECT_FALSE(any_partials);
    EXPECT_EQ(s[1].error_code(), grpc::StatusCode::INVALID_ARGUMENT) << Code(s[1]);
    EXPECT_THAT(s[1].error_message(),
                HasSubstr("is not the one it sent (the coordinator altered it)"));
    for (int i : {0, 2}) EXPECT_FALSE(s[i].ok()) << i << " published an altered fold";
    AbortEverywhere(c, "e2e-altered-update");
  }

  // 3. Party 0 alone is shown a substituted update of party 2.
  {
    std::vector<pplda::v1::CountUpdateMessage> updates;
    ASSERT_NO_FATAL_FAILURE(RunOneIteration(c, "e2e-split-view", updates));
    std::vector<pplda::v1::CountUpdateMessage> altered = updates;
    *altered[2].mutable_matrix() = updates[1].matrix();
    std::vector<pplda::v1::PublishRequest> asks(
        kParties, Ask(c, "e2e-split-view", updates, std::string(32, '\0')));
    asks[0] = Ask(c, "e2e-split-view", altered, std::string(32, '\0'));
    const std::vector<grpc::Status> s = PublishAtEveryParty(c, asks, any_partials);
    EXPECT_FALSE(any_partials);
    int named_the_split = 0;
    for (int i = 0; i < kParties; ++i) {
      EXPECT_FALSE(s[i].ok()) << i << " published a fold its peers did not agree to";
      named_the_split += s[i].error_message().find("folded different updates") != std::string::npos;
    }
    EXPECT_GE(named_the_split, 1) << Code(s[0]) << "\n" << Code(s[1]) << "\n" << Code(s[2]);
    AbortEverywhere(c, "e2e-split-view");
  }

  // The daemons still serve: a real run through the coordinator publishes.
  ExpectARealRunPublishes(consortium_);
}

}  // namespace
}  // namespace pplda::e2e::testing

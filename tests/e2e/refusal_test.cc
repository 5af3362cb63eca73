// End-to-end refusals on real daemons (loopback, mutual TLS):
//  - a participant whose certificate comes from another CA cannot reach the
//    coordinator (the TLS handshake fails), whether it trusts the other CA
//    or the consortium's, and the coordinator keeps serving;
//  - every client pins its server's certificate: the run CLI refuses a
//    coordinator, and the coordinator a party, that presents a certificate
//    other than the one its consortium file pins for it;
//  - a party daemon's PartyControl, called directly by this test, refuses
//    each kind of bad request with its own gRPC status (an old protocol
//    version, a foreign run id, a step out of order, an oversized message,
//    a caller that is not the coordinator), the joined run goes on after
//    the refusals, and the daemons then serve a real run to publication.
#include <chrono>
#include <climits>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "net/message_limits.h"
#include "net/tls_identity.h"
#include "tests/e2e/e2e_test_util.h"
#include "tests/e2e/party_control_test_util.h"

namespace pplda::e2e::testing {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

// What the run CLI prints when the connection itself failed.
constexpr char kConnectionFailure[] =
    "([Hh]andshake|TLS|SSL|ssl|[Uu]navailable|UNAVAILABLE|does not answer)";

std::string Code(const grpc::Status& s) {
  return absl::StrCat(s.error_code(), " (", s.error_message(), ")");
}

// A run CLI config as participant "early": what `pplda run` reads of it.
std::string ClientToml(const std::filesystem::path& consortium, const std::filesystem::path& ca,
                       const std::filesystem::path& cert, const std::filesystem::path& key) {
  return absl::StrCat("[party]\nname = \"early\"\nconsortium = \"", consortium.string(),
                      "\"\n[tls]\nca = \"", ca.string(), "\"\ncert = \"", cert.string(),
                      "\"\nkey = \"", key.string(), "\"\n");
}

class RefusalTest : public ConsortiumTest {};

TEST_F(RefusalTest, ParticipantWithACertificateFromAnotherCaIsRefused) {
  E2E_ASSERT_OK(SetUpConsortium());
  E2E_ASSERT_OK(consortium_.StartAll());
  const std::filesystem::path certs = consortium_.certs();
  // Another CA with the same participant names and addresses.
  std::string spec =
      absl::StrCat("--name other --coordinator coordinator=", consortium_.address(-1));
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    absl::StrAppend(&spec, " --party ", LocalConsortium::kPartyNames[i], "=",
                    consortium_.address(i));
  }
  const std::filesystem::path other = dir() / "other-ca";
  E2E_ASSERT_OK(MakeCerts(other, spec));

  // (a) Wholly of the other CA: its consortium file (naming this
  // coordinator's address), its CA, its certificate for "early".
  const std::filesystem::path foreign = dir() / "foreign.toml";
  E2E_ASSERT_OK(WriteText(foreign, ClientToml(other / "consortium.toml", other / "ca.crt",
                                              other / "early.crt", other / "early.key")));
  CommandResult a = RunPplda({"run", "status", "--config", foreign.string()});
  EXPECT_NE(a.exit_code, 0) << a.Describe();
  EXPECT_THAT(a.output, ContainsRegex(kConnectionFailure)) << a.Describe();

  // (b) Trusting this consortium's CA (so the client accepts the
  // coordinator) but presenting the other CA's certificate, pinned in a
  // doctored copy of the consortium file so that the CLI itself does not
  // stop it: the coordinator refuses it in the handshake.
  const std::string good_fingerprint = *net::CertificateFingerprint(ReadText(certs / "early.crt"));
  absl::StatusOr<std::string> bad_fingerprint =
      net::CertificateFingerprint(ReadText(other / "early.crt"));
  ASSERT_TRUE(bad_fingerprint.ok()) << bad_fingerprint.status();
  std::string doctored = ReadText(certs / "consortium.toml");
  const size_t at = doctored.find(good_fingerprint);
  ASSERT_NE(at, std::string::npos);
  doctored.replace(at, good_fingerprint.size(), *bad_fingerprint);
  E2E_ASSERT_OK(WriteText(dir() / "doctored-consortium.toml", doctored));
  const std::filesystem::path mixed = dir() / "mixed.toml";
  E2E_ASSERT_OK(WriteText(mixed, ClientToml(dir() / "doctored-consortium.toml", certs / "ca.crt",
                                            other / "early.crt", other / "early.key")));
  CommandResult b = RunPplda({"run", "status", "--config", mixed.string()});
  EXPECT_NE(b.exit_code, 0) << b.Describe();
  EXPECT_THAT(b.output, ContainsRegex(kConnectionFailure)) << b.Describe();
  EXPECT_THAT(b.output, Not(HasSubstr("pins"))) << "refused by the CLI, not by the coordinator";

  // The coordinator still serves the consortium's own participants.
  ASSERT_TRUE(consortium_.coordinator().Running());
  CommandResult start =
      RunPplda({"run", "start", "--config", consortium_.coordinator_config().string(), "--topics",
                "3", "--iterations", "0", "--watch"},
               std::chrono::seconds(300));
  ASSERT_EQ(start.exit_code, 0) << start.Describe();
  CommandResult status =
      RunPplda({"run", "status", "--config", consortium_.party_config(0).string()});
  EXPECT_EQ(status.exit_code, 0) << status.Describe();
  EXPECT_THAT(status.output, HasSubstr(": published"));
}

// TLS checks the CA and the name only; every client also pins the
// server's certificate: (a) the run CLI refuses the coordinator's answer
// when its consortium file pins another certificate for the coordinator;
// (b) the coordinator refuses a party's answers (and the run fails, naming
// the party) when its consortium file pins another certificate for it.
TEST_F(RefusalTest, AnswersFromAServerWithoutItsPinnedCertificateAreRefused) {
  E2E_ASSERT_OK(SetUpConsortium());
  E2E_ASSERT_OK(consortium_.StartAll());
  const std::filesystem::path certs = consortium_.certs();
  const std::string bogus(64, 'e');
  auto pinned_elsewhere = [&](const std::string& participant) {
    const std::string fingerprint =
        *net::CertificateFingerprint(ReadText(certs / (participant + ".crt")));
    std::string doctored = ReadText(certs / "consortium.toml");
    const size_t at = doctored.find(fingerprint);
    EXPECT_NE(at, std::string::npos);
    if (at != std::string::npos) doctored.replace(at, fingerprint.size(), bogus);
    return std::make_pair(fingerprint, doctored);
  };

  const auto [coordinator_fingerprint, for_cli] = pinned_elsewhere("coordinator");
  E2E_ASSERT_OK(WriteText(dir() / "cli-consortium.toml", for_cli));
  const std::filesystem::path client = dir() / "cli.toml";
  E2E_ASSERT_OK(WriteText(client, ClientToml(dir() / "cli-consortium.toml", certs / "ca.crt",
                                             certs / "early.crt", certs / "early.key")));
  CommandResult cli = RunPplda({"run", "status", "--config", client.string()});
  EXPECT_NE(cli.exit_code, 0) << cli.Describe();
  EXPECT_THAT(cli.output, HasSubstr("presented certificate " + coordinator_fingerprint))
      << cli.Describe();
  EXPECT_THAT(cli.output, HasSubstr("not the one pinned for it")) << cli.Describe();

  const auto [early_fingerprint, for_coordinator] = pinned_elsewhere("early");
  E2E_ASSERT_OK(WriteText(certs / "coordinator-consortium.toml", for_coordinator));
  consortium_.coordinator().Stop();
  const std::string config = ReadText(consortium_.coordinator_config());
  E2E_ASSERT_OK(WriteText(consortium_.coordinator_config(),
                          absl::StrReplaceAll(config, {{"certs/consortium.toml",
                                                        "certs/coordinator-consortium.toml"}})));
  E2E_ASSERT_OK(consortium_.StartCoordinator());
  CommandResult start =
      RunPplda({"run", "start", "--config", consortium_.coordinator_config().string(), "--topics",
                "3", "--iterations", "0", "--watch"},
               std::chrono::seconds(300));
  EXPECT_NE(start.exit_code, 0) << start.Describe();
  EXPECT_THAT(start.output, HasSubstr("\"early\""));
  EXPECT_THAT(start.output, HasSubstr("presented certificate " + early_fingerprint))
      << start.Describe();
}

TEST_F(RefusalTest, PartyControlRefusesEachBadRequestWithItsOwnCodeAndKeepsServing) {
  E2E_ASSERT_OK(SetUpConsortium());
  E2E_ASSERT_OK(consortium_.StartAll());
  absl::StatusOr<std::unique_ptr<PartyControlClient>> as_coordinator =
      PartyControlClient::Create(consortium_, "coordinator");
  ASSERT_TRUE(as_coordinator.ok()) << as_coordinator.status();
  PartyControlClient& c = **as_coordinator;
  const std::string run = "e2e-direct-run";
  constexpr int kIterations = 2;

  // An old protocol version.
  {
    pplda::v1::JoinRequest join = c.Join(run, kIterations);
    join.mutable_header()->set_protocol_version(0);
    pplda::v1::JoinReply reply;
    const grpc::Status s = c.party(0).Join(c.Context().get(), join, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << Code(s);
    EXPECT_THAT(s.error_message(), HasSubstr("protocol version 0"));
  }
  // A foreign run id (nothing joined yet).
  {
    pplda::v1::PrepareRequest prepare;
    *prepare.mutable_header() = c.Header("not-a-run", 0);
    pplda::v1::PrepareReply reply;
    const grpc::Status s = c.party(1).Prepare(c.Context().get(), prepare, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << Code(s);
  }
  // A caller that is a party, not the coordinator.
  {
    absl::StatusOr<std::unique_ptr<PartyControlClient>> as_party =
        PartyControlClient::Create(consortium_, "early");
    ASSERT_TRUE(as_party.ok()) << as_party.status();
    pplda::v1::JoinReply reply;
    const grpc::Status s =
        (*as_party)->party(1).Join(c.Context().get(), (*as_party)->Join(run, kIterations), &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << Code(s);
    EXPECT_THAT(s.error_message(), HasSubstr("only the coordinator"));
  }
  // The coordinator's certificate with another participant's name.
  {
    pplda::v1::JoinRequest join = c.Join(run, kIterations);
    join.mutable_header()->set_sender("early");
    pplda::v1::JoinReply reply;
    const grpc::Status s = c.party(1).Join(c.Context().get(), join, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << Code(s);
  }
  // No header at all.
  {
    pplda::v1::JoinRequest join = c.Join(run, kIterations);
    join.clear_header();
    pplda::v1::JoinReply reply;
    const grpc::Status s = c.party(2).Join(c.Context().get(), join, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << Code(s);
  }
  // A run id that would leave the party's runs folder (state_dir/runs/<id>/).
  for (const std::string bad : {"../escape", "..", "runs/x"}) {
    pplda::v1::JoinReply reply;
    const grpc::Status s = c.party(0).Join(c.Context().get(), c.Join(bad, kIterations), &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << bad << ": " << Code(s);
    EXPECT_THAT(s.error_message(), HasSubstr("header.run_id")) << bad;
  }
  // A message beyond the daemon's limit (net/message_limits.h: the largest
  // payload plus the header allowance), sent by a client without a limit.
  const size_t oversized =
      static_cast<size_t>(net::MaxMessageBytes(net::kDefaultMaxPayloadBytes)) + (size_t{1} << 20);
  {
    pplda::v1::JoinRequest join = c.Join(run, kIterations);
    join.mutable_parameters()->set_draw_method(std::string(oversized, 'x'));
    pplda::v1::JoinReply reply;
    const grpc::Status s = c.party(0).Join(c.Context().get(), join, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << Code(s);
    EXPECT_THAT(s.error_message(), HasSubstr("Received message larger than max"));
  }

  // A proper run, joined and prepared by this test as the coordinator would.
  std::vector<pplda::v1::JoinReply> joined(LocalConsortium::kParties);
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    const grpc::Status s = c.party(i).Join(c.Context().get(), c.Join(run, kIterations), &joined[i]);
    ASSERT_TRUE(s.ok()) << LocalConsortium::kPartyNames[i] << ": " << Code(s);
    EXPECT_EQ(joined[i].party_index(), static_cast<uint32_t>(i));
    EXPECT_GT(joined[i].tokens(), 0u);
  }
  // The same run joined twice.
  {
    pplda::v1::JoinReply reply;
    const grpc::Status s = c.party(0).Join(c.Context().get(), c.Join(run, kIterations), &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS) << Code(s);
  }
  // Prepare: every party at once (they compare plans in one MPC round).
  std::vector<pplda::v1::PrepareReply> prepared(LocalConsortium::kParties);
  std::vector<grpc::Status> statuses(LocalConsortium::kParties);
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < LocalConsortium::kParties; ++i) {
      threads.emplace_back([&, i] {
        pplda::v1::PrepareRequest prepare;
        *prepare.mutable_header() = c.Header(run, 0);
        for (const pplda::v1::JoinReply& j : joined) prepare.add_tokens_per_party(j.tokens());
        statuses[i] = c.party(i).Prepare(c.Context().get(), prepare, &prepared[i]);
      });
    }
    for (std::thread& t : threads) t.join();
    for (int i = 0; i < LocalConsortium::kParties; ++i) {
      ASSERT_TRUE(statuses[i].ok()) << LocalConsortium::kPartyNames[i] << ": " << Code(statuses[i]);
    }
  }
  pplda::v1::IterateRequest iterate;
  *iterate.mutable_header() = c.Header(run, 1);
  for (const pplda::v1::PrepareReply& p : prepared) *iterate.add_previous() = p.initial_counts();

  // The wrong step: iteration 5 right after Prepare.
  {
    pplda::v1::IterateRequest wrong = iterate;
    wrong.mutable_header()->set_iteration(5);
    pplda::v1::IterateReply reply;
    const grpc::Status s = c.party(0).Iterate(c.Context().get(), wrong, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << Code(s);
    EXPECT_THAT(s.error_message(), HasSubstr("next iteration is 1"));
  }
  // A foreign run id on Prepare and Iterate while a run is active.
  {
    pplda::v1::PrepareRequest prepare;
    *prepare.mutable_header() = c.Header("not-a-run", 0);
    pplda::v1::PrepareReply prepare_reply;
    grpc::Status s = c.party(1).Prepare(c.Context().get(), prepare, &prepare_reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << Code(s);
    pplda::v1::IterateRequest foreign = iterate;
    foreign.mutable_header()->set_run_id("not-a-run");
    pplda::v1::IterateReply reply;
    s = c.party(1).Iterate(c.Context().get(), foreign, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << Code(s);
  }
  // An old protocol version, an oversized message, a party's certificate:
  // also refused in the middle of a run.
  {
    pplda::v1::IterateRequest old = iterate;
    old.mutable_header()->set_protocol_version(0);
    pplda::v1::IterateReply reply;
    grpc::Status s = c.party(2).Iterate(c.Context().get(), old, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << Code(s);
    pplda::v1::IterateRequest huge = iterate;
    huge.mutable_header()->set_run_id(std::string(oversized, 'r'));
    s = c.party(2).Iterate(c.Context().get(), huge, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << Code(s);
    EXPECT_THAT(s.error_message(), HasSubstr("Received message larger than max"));
    absl::StatusOr<std::unique_ptr<PartyControlClient>> as_party =
        PartyControlClient::Create(consortium_, "modern");
    ASSERT_TRUE(as_party.ok()) << as_party.status();
    pplda::v1::IterateRequest from_party = iterate;
    *from_party.mutable_header() = (*as_party)->Header(run, 1);
    s = (*as_party)->party(0).Iterate(c.Context().get(), from_party, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << Code(s);
  }

  // The run's state survived every refusal: iteration 1 runs at all parties.
  std::vector<pplda::v1::IterateReply> replies(LocalConsortium::kParties);
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < LocalConsortium::kParties; ++i) {
      threads.emplace_back(
          [&, i] { statuses[i] = c.party(i).Iterate(c.Context().get(), iterate, &replies[i]); });
    }
    for (std::thread& t : threads) t.join();
    for (int i = 0; i < LocalConsortium::kParties; ++i) {
      EXPECT_TRUE(statuses[i].ok()) << LocalConsortium::kPartyNames[i] << ": " << Code(statuses[i]);
      EXPECT_EQ(replies[i].header().iteration(), 1);
    }
  }
  // A repeated step (a coordinator resuming after a restart) gets the same
  // reply for the same updates, and is refused for other updates.
  {
    pplda::v1::IterateReply again, other;
    grpc::Status s = c.party(1).Iterate(c.Context().get(), iterate, &again);
    ASSERT_TRUE(s.ok()) << Code(s);
    EXPECT_EQ(again.update().SerializeAsString(), replies[1].update().SerializeAsString())
        << "a repeated iteration must give the update already sent, not a new draw";
    EXPECT_GT(again.update().matrix().ciphertexts_size(), 0);
    pplda::v1::IterateRequest swapped = iterate;
    // Party 0's first count ciphertext replaced by party 2's: still a
    // ciphertext, another update.
    *swapped.mutable_previous(0)->mutable_matrix()->mutable_ciphertexts(0) =
        iterate.previous(2).matrix().ciphertexts(0);
    s = c.party(1).Iterate(c.Context().get(), swapped, &other);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << Code(s);
  }
  // A Join of another run drops this one at that party (the coordinator
  // runs one run at a time): its steps are then NotFound there.
  {
    pplda::v1::JoinReply reply;
    grpc::Status s = c.party(0).Join(c.Context().get(), c.Join("other-run", 1), &reply);
    EXPECT_TRUE(s.ok()) << Code(s);
    pplda::v1::IterateReply dropped;
    s = c.party(0).Iterate(c.Context().get(), iterate, &dropped);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << Code(s);
  }
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    pplda::v1::AbortRequest abort;
    *abort.mutable_header() = c.Header(i == 0 ? "other-run" : run, 0);
    abort.set_reason("e2e test: direct run done");
    pplda::v1::AbortReply reply;
    const grpc::Status s = c.party(i).Abort(c.Context().get(), abort, &reply);
    EXPECT_TRUE(s.ok()) << Code(s);
  }

  // After Abort no step of the run runs at that party, not even one that
  // needs no link.
  {
    pplda::v1::IterateReply reply;
    const grpc::Status s = c.party(1).Iterate(c.Context().get(), iterate, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED) << Code(s);
    EXPECT_THAT(s.error_message(), HasSubstr("was aborted"));
    pplda::v1::VocabularyRequest vocabulary;
    *vocabulary.mutable_header() = c.Header(run, 0);
    vocabulary.mutable_contribute();
    pplda::v1::VocabularyReply vocabulary_reply;
    const grpc::Status v = c.party(1).Vocabulary(c.Context().get(), vocabulary, &vocabulary_reply);
    EXPECT_EQ(v.error_code(), grpc::StatusCode::ABORTED) << Code(v);
    // The DP vocabulary's steps carry iteration 0.
    *vocabulary.mutable_header() = c.Header(run, 3);
    const grpc::Status w = c.party(1).Vocabulary(c.Context().get(), vocabulary, &vocabulary_reply);
    EXPECT_EQ(w.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << Code(w);
    EXPECT_THAT(w.error_message(), HasSubstr("header.iteration"));
  }

  // Every daemon still serves: a real run through the coordinator publishes.
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    ASSERT_TRUE(consortium_.party(i).Running()) << LocalConsortium::kPartyNames[i];
  }
  ExpectARealRunPublishes(consortium_);
}

}  // namespace
}  // namespace pplda::e2e::testing

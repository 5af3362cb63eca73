// GrpcPartyTransport and PartyLinkService on loopback with real mutual TLS
// (certificates made by deploy/make-certs.sh): the MPC engine over gRPC
// against plaintext and against SimulatedNetwork's counters, and every kind
// of refused frame with its own status code, the run still usable after.
#include "net/grpc_party_transport.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/simulated_network.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "grpcpp/server.h"
#include "grpcpp/server_builder.h"
#include "gtest/gtest.h"
#include "net/consortium_file.h"
#include "net/party_link_service.h"
#include "net/protocol_version.h"
#include "net/tls_identity.h"
#include "proto/party_link.grpc.pb.h"
#include "tests/net/net_test_util.h"

namespace pplda::net {
namespace {

using ::pplda::crypto::FieldElement;
using ::pplda::crypto::FieldVector;
using ::pplda::crypto::MpcEngine;
using ::pplda::crypto::NetworkStats;
using ::pplda::crypto::PartyTransport;
using ::pplda::crypto::Shares;
using ::pplda::net::testing::MakeCerts;
using ::pplda::net::testing::ReadText;
using ::pplda::net::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int kParties = 3;
constexpr size_t kServerPayloadLimit = size_t{32} << 20;  // gRPC's limit at the servers
constexpr size_t kRunPayloadLimit = size_t{1} << 20;      // the refusal tests' runs

const std::vector<int64_t> kA = {0, 1, -1, 123456789, -987654321, 7};
const std::vector<int64_t> kB = {5, 0, -1, 1000, 3, -7};

// The engines of one run, one per party, kept for the run's whole life (the
// engine's round counter runs on, as in a daemon).
struct MpcRun {
  std::vector<std::unique_ptr<PartyTransport>> owned;  // when not gRPC-owned
  std::vector<PartyTransport*> transports;
  std::vector<std::unique_ptr<crypto::SeededRng>> rngs;
  std::vector<std::unique_ptr<MpcEngine>> engines;

  static std::unique_ptr<MpcRun> Create(std::vector<PartyTransport*> transports) {
    auto run = std::make_unique<MpcRun>();
    const crypto::MpcConfig config = crypto::MpcConfig::Create(kParties, 1).value();
    run->transports = std::move(transports);
    for (int p = 0; p < kParties; ++p) {
      run->rngs.push_back(std::make_unique<crypto::SeededRng>(1000 + p));
      run->engines.push_back(MpcEngine::Create(config, *run->transports[p], *run->rngs[p]).value());
    }
    return run;
  }

  // Party 0 inputs a, party 1 inputs b; every party opens a * b.
  absl::Status MulAndOpen(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                          std::vector<FieldVector>* opened) {
    opened->assign(kParties, {});
    std::vector<absl::Status> status(kParties);
    std::vector<std::thread> threads;
    for (int p = 0; p < kParties; ++p) {
      threads.emplace_back([&, p] {
        status[p] = [&]() -> absl::Status {
          MpcEngine& e = *engines[p];
          FieldVector mine_a, mine_b;
          if (p == 0) for (int64_t v : a) mine_a.push_back(FieldElement::FromInt64(v));
          if (p == 1) for (int64_t v : b) mine_b.push_back(FieldElement::FromInt64(v));
          ASSIGN_OR_RETURN(Shares sa, e.Input(std::vector<int>(a.size(), 0), mine_a));
          ASSIGN_OR_RETURN(Shares sb, e.Input(std::vector<int>(b.size(), 1), mine_b));
          ASSIGN_OR_RETURN(Shares product, e.Mul(sa, sb));
          ASSIGN_OR_RETURN((*opened)[p], e.Open(product));
          return absl::OkStatus();
        }();
      });
    }
    for (auto& t : threads) t.join();
    for (int p = 0; p < kParties; ++p) {
      if (!status[p].ok()) return absl::Status(status[p].code(),
                                               absl::StrCat("party ", p, ": ", status[p].message()));
    }
    return absl::OkStatus();
  }
};

void ExpectProducts(const std::vector<FieldVector>& opened) {
  for (int p = 0; p < kParties; ++p) {
    ASSERT_EQ(opened[p].size(), kA.size()) << p;
    for (size_t i = 0; i < kA.size(); ++i) {
      EXPECT_EQ(opened[p][i].ToSigned(), static_cast<crypto::int128>(kA[i]) * kB[i])
          << "party " << p << " element " << i;
    }
  }
}

pplda::v1::MpcFrame Frame(std::string run_id, uint64_t round, std::string sender,
                          size_t payload_bytes = 16, uint32_t version = kProtocolVersion) {
  pplda::v1::MpcFrame frame;
  frame.mutable_header()->set_protocol_version(version);
  frame.mutable_header()->set_run_id(std::move(run_id));
  frame.mutable_header()->set_iteration(0);
  frame.mutable_header()->set_round(round);
  frame.mutable_header()->set_sender(std::move(sender));
  frame.set_payload(std::string(payload_bytes, 'x'));
  return frame;
}

class PartyLinkTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    const std::string participants =
        "--coordinator coord=127.0.0.1:7000 --party p0=127.0.0.1:7001 "
        "--party p1=127.0.0.1:7002 --party p2=127.0.0.1:7003";
    ASSERT_TRUE(MakeCerts(Dir(), participants + " --data p3=127.0.0.1:7004").ok());
    ASSERT_TRUE(MakeCerts(OtherDir(), participants + " --name other").ok());
    // The consortium the daemons use: p3 has a CA-signed certificate but is
    // not in it.
    std::string text = ReadText(Dir() / "consortium.toml");
    text = text.substr(0, text.find("[[participant]]\nname = \"p3\""));
    std::ofstream(Dir() / "consortium-3.toml") << text;
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  static std::filesystem::path Dir() { return tmp_->path() / "certs"; }
  static std::filesystem::path OtherDir() { return tmp_->path() / "other-ca"; }

  static TlsIdentity Identity(const std::filesystem::path& dir, const std::string& name) {
    return TlsIdentity::Load(dir / "ca.crt", dir / (name + ".crt"), dir / (name + ".key")).value();
  }

  void SetUp() override {
    absl::StatusOr<Consortium> consortium = Consortium::Load(Dir() / "consortium-3.toml");
    ASSERT_TRUE(consortium.ok()) << consortium.status();
    consortium_ = std::make_unique<Consortium>(*std::move(consortium));
    ASSERT_EQ(consortium_->num_compute_parties(), kParties);
    for (int p = 0; p < kParties; ++p) {
      const std::string name = absl::StrCat("p", p);
      identities_.push_back(std::make_unique<TlsIdentity>(Identity(Dir(), name)));
      ASSERT_TRUE(identities_[p]->CheckPinned(*consortium_, name).ok());
      services_.push_back(std::make_unique<PartyLinkService>(
          *consortium_, PartyLinkService::Options{std::chrono::milliseconds(300)}));
      grpc::ServerBuilder builder;
      int port = 0;
      builder.AddListeningPort("127.0.0.1:0", identities_[p]->server_credentials(), &port);
      builder.RegisterService(services_[p].get());
      ConfigureServerBuilder(builder, kServerPayloadLimit);
      servers_.push_back(builder.BuildAndStart());
      ASSERT_NE(servers_[p], nullptr);
      ASSERT_GT(port, 0);
      ports_.push_back(port);
    }
  }

  void TearDown() override {
    transports_.clear();  // cancels their streams first
    for (auto& server : servers_) {
      server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
    }
  }

  std::vector<PartyEndpoint> Endpoints() const {
    std::vector<PartyEndpoint> out = ComputePartyEndpoints(*consortium_);
    for (int p = 0; p < kParties; ++p) out[p].address = absl::StrCat("127.0.0.1:", ports_[p]);
    return out;
  }

  GrpcPartyTransport::Options RunOptions(const std::string& run_id, int party,
                                         size_t max_payload = kRunPayloadLimit) const {
    GrpcPartyTransport::Options o;
    o.run_id = run_id;
    o.party_id = party;
    o.parties = Endpoints();
    o.max_payload_bytes = max_payload;
    o.receive_timeout = std::chrono::seconds(30);
    o.connect_timeout = std::chrono::seconds(5);
    return o;
  }

  // Every party's transport for `run_id`; they stay in transports_.
  std::vector<GrpcPartyTransport*> StartRun(const std::string& run_id,
                                            size_t max_payload = kRunPayloadLimit) {
    std::vector<GrpcPartyTransport*> out;
    for (int p = 0; p < kParties; ++p) {
      auto t = GrpcPartyTransport::Create(RunOptions(run_id, p, max_payload), *identities_[p],
                                          *services_[p]);
      EXPECT_TRUE(t.ok()) << t.status();
      if (!t.ok()) return {};
      out.push_back(t->get());
      transports_.push_back(*std::move(t));
    }
    return out;
  }

  // Opens a raw PartyLink stream to party `to` as `identity` and writes
  // `frames`; returns the status the server ended the stream with.
  grpc::Status SendRaw(const TlsIdentity& identity, int to,
                       const std::vector<pplda::v1::MpcFrame>& frames) {
    auto channel = CreatePeerChannel(identity, absl::StrCat("127.0.0.1:", ports_[to]),
                                     absl::StrCat("p", to), 64 << 20);
    auto stub = pplda::v1::PartyLink::NewStub(channel);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    pplda::v1::LinkClosed response;
    auto writer = stub->Stream(&context, &response);
    for (const auto& frame : frames) {
      if (!writer->Write(frame)) break;
    }
    writer->WritesDone();
    return writer->Finish();
  }

  static TempDir* tmp_;
  std::unique_ptr<Consortium> consortium_;
  std::vector<std::unique_ptr<TlsIdentity>> identities_;
  std::vector<std::unique_ptr<PartyLinkService>> services_;
  std::vector<std::unique_ptr<grpc::Server>> servers_;
  std::vector<int> ports_;
  std::vector<std::unique_ptr<GrpcPartyTransport>> transports_;
};

TempDir* PartyLinkTest::tmp_ = nullptr;

std::vector<PartyTransport*> AsTransports(const std::vector<GrpcPartyTransport*>& t) {
  return {t.begin(), t.end()};
}

TEST_F(PartyLinkTest, MpcEngineOverMutualTlsMatchesPlaintextAndSimulatedCounters) {
  std::vector<GrpcPartyTransport*> grpc_transports = StartRun("run-mpc");
  ASSERT_EQ(grpc_transports.size(), 3u);
  for (GrpcPartyTransport* t : grpc_transports) {
    ASSERT_TRUE(t->Connect(std::chrono::seconds(10)).ok());
  }
  auto run = MpcRun::Create(AsTransports(grpc_transports));
  std::vector<FieldVector> opened;
  ASSERT_TRUE(run->MulAndOpen(kA, kB, &opened).ok());
  ExpectProducts(opened);
  // The engine's key agreement (pseudo-random sharing), 2 inputs, Mul, Open.
  EXPECT_EQ(run->engines[0]->rounds(), 5u);

  // The same program over the in-process network: same values, same counters.
  auto network = crypto::SimulatedNetwork::Create(kParties).value();
  std::vector<PartyTransport*> simulated;
  for (int p = 0; p < kParties; ++p) simulated.push_back(&network->transport(p));
  auto twin = MpcRun::Create(simulated);
  std::vector<FieldVector> twin_opened;
  ASSERT_TRUE(twin->MulAndOpen(kA, kB, &twin_opened).ok());
  EXPECT_EQ(twin_opened, opened);

  std::vector<NetworkStats> views;
  for (GrpcPartyTransport* t : grpc_transports) views.push_back(t->Stats());
  const NetworkStats merged = MergePartyStats(views).value();
  const NetworkStats want = network->Stats();
  EXPECT_EQ(merged.rounds, want.rounds);
  EXPECT_EQ(merged.rounds, 5u);
  EXPECT_EQ(merged.total_bytes(), want.total_bytes());
  EXPECT_EQ(merged.total_messages(), want.total_messages());
  for (int p = 0; p < kParties; ++p) {
    EXPECT_EQ(merged.parties[p].bytes_sent, want.parties[p].bytes_sent) << p;
    EXPECT_EQ(merged.parties[p].bytes_received, want.parties[p].bytes_received) << p;
    EXPECT_EQ(merged.parties[p].messages_sent, want.parties[p].messages_sent) << p;
    EXPECT_EQ(merged.parties[p].messages_received, want.parties[p].messages_received) << p;
    EXPECT_EQ(merged.parties[p].rounds_sending, want.parties[p].rounds_sending) << p;
  }
  ASSERT_EQ(merged.per_round.size(), want.per_round.size());
  for (size_t r = 0; r < want.per_round.size(); ++r) {
    EXPECT_EQ(merged.per_round[r].round, want.per_round[r].round);
    EXPECT_EQ(merged.per_round[r].bytes, want.per_round[r].bytes);
    EXPECT_EQ(merged.per_round[r].messages, want.per_round[r].messages);
  }
  // One party's view of a peer: what the peer sent here.
  EXPECT_EQ(views[0].parties[1].bytes_sent, views[1].parties[0].bytes_received);

  for (GrpcPartyTransport* t : grpc_transports) EXPECT_TRUE(t->Close().ok());
  // A closed run is gone from the daemon.
  const grpc::Status after = SendRaw(*identities_[1], 0, {Frame("run-mpc", 100, "p1")});
  EXPECT_EQ(after.error_code(), grpc::StatusCode::NOT_FOUND) << after.error_message();
}

TEST_F(PartyLinkTest, IterationsAdvanceInTheHeader) {
  std::vector<GrpcPartyTransport*> t = StartRun("run-iter");
  auto run = MpcRun::Create(AsTransports(t));
  std::vector<FieldVector> opened;
  ASSERT_TRUE(run->MulAndOpen(kA, kB, &opened).ok());
  for (GrpcPartyTransport* transport : t) transport->set_iteration(1);
  ASSERT_TRUE(run->MulAndOpen(kA, kB, &opened).ok());
  ExpectProducts(opened);
  EXPECT_EQ(t[0]->iteration(), 1);
  // A frame of the finished iteration is stale even with a fresh round.
  const grpc::Status stale = SendRaw(*identities_[1], 0, {Frame("run-iter", 100, "p1")});
  EXPECT_EQ(stale.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << stale.error_message();
  ASSERT_TRUE(run->MulAndOpen(kA, kB, &opened).ok());
  ExpectProducts(opened);
}

TEST_F(PartyLinkTest, ConnectNamesThePeersThatDoNotAnswer) {
  GrpcPartyTransport::Options o = RunOptions("run-down", 0);
  o.parties[2].address = "127.0.0.1:1";  // nothing listens there
  // Long enough for the live peer p1 to answer in a sanitizer build under
  // load (500 ms was not: p1 was named too).
  o.connect_timeout = std::chrono::milliseconds(2000);
  auto t = GrpcPartyTransport::Create(o, *identities_[0], *services_[0]).value();
  const absl::Status s = t->Connect(std::chrono::seconds(5));
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_THAT(s.message(), HasSubstr("p2 at 127.0.0.1:1"));
  EXPECT_THAT(s.message(), Not(HasSubstr("p1 at")));
}

TEST_F(PartyLinkTest, LargePayloadsCrossInOneFrame) {
  std::vector<GrpcPartyTransport*> t = StartRun("run-large", size_t{24} << 20);
  std::vector<uint8_t> big(size_t{20} << 20);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 131);
  const std::vector<uint8_t> copy = big;
  ASSERT_TRUE(t[0]->Send(2, 1, std::move(big)).ok());
  absl::StatusOr<std::vector<uint8_t>> got = t[2]->Receive(0, 1);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, copy);
  EXPECT_EQ(t[2]->Stats().parties[2].bytes_received, copy.size());
}

TEST_F(PartyLinkTest, EveryBadFrameIsRefusedWithItsOwnStatusAndTheRunGoesOn) {
  std::vector<GrpcPartyTransport*> t = StartRun("run-1");
  ASSERT_EQ(t.size(), 3u);
  auto run = MpcRun::Create(AsTransports(t));
  std::vector<FieldVector> opened;
  ASSERT_TRUE(run->MulAndOpen(kA, kB, &opened).ok());
  ExpectProducts(opened);
  // p1 has now delivered rounds 1 (keys) to 5 to p0.

  const TlsIdentity& p1 = *identities_[1];
  struct Case {
    std::string what;
    const TlsIdentity* identity;
    pplda::v1::MpcFrame frame;
    grpc::StatusCode code;
    std::string message;
  };
  pplda::v1::MpcFrame no_header;
  no_header.set_payload("x");
  const TlsIdentity coord = Identity(Dir(), "coord");
  const TlsIdentity p3 = Identity(Dir(), "p3");
  std::vector<Case> cases = {
      {"old protocol version", &p1, Frame("run-1", 5, "p1", 16, 0),
       grpc::StatusCode::FAILED_PRECONDITION, "protocol version 0, this daemon speaks 1"},
      {"newer protocol version", &p1, Frame("run-1", 5, "p1", 16, 2),
       grpc::StatusCode::FAILED_PRECONDITION, "protocol version 2"},
      {"foreign run id", &p1, Frame("run-of-another-consortium", 5, "p1"),
       grpc::StatusCode::NOT_FOUND, "run-of-another-consortium"},
      {"replayed round", &p1, Frame("run-1", 2, "p1"), grpc::StatusCode::FAILED_PRECONDITION,
       "not after its last accepted one"},
      {"round far ahead", &p1, Frame("run-1", uint64_t{1} << 40, "p1"),
       grpc::StatusCode::OUT_OF_RANGE, "implausibly far ahead"},
      {"unknown sender", &p1, Frame("run-1", 5, "mallory"), grpc::StatusCode::PERMISSION_DENIED,
       "claims sender \"mallory\""},
      {"mismatched sender", &p1, Frame("run-1", 5, "p2"), grpc::StatusCode::PERMISSION_DENIED,
       "claims sender \"p2\""},
      {"coordinator as a compute party", &coord, Frame("run-1", 5, "coord"),
       grpc::StatusCode::PERMISSION_DENIED, "not a compute party"},
      {"CA-signed but unpinned certificate", &p3, Frame("run-1", 5, "p3"),
       grpc::StatusCode::PERMISSION_DENIED, "not pinned"},
      {"payload over the run's limit", &p1, Frame("run-1", 5, "p1", kRunPayloadLimit + 1),
       grpc::StatusCode::RESOURCE_EXHAUSTED, "exceeds run run-1's limit"},
      {"message over gRPC's limit", &p1, Frame("run-1", 5, "p1", kServerPayloadLimit + (1 << 20)),
       grpc::StatusCode::RESOURCE_EXHAUSTED, ""},
      {"no header", &p1, no_header, grpc::StatusCode::INVALID_ARGUMENT, "no header"},
      {"round 0", &p1, Frame("run-1", 0, "p1"), grpc::StatusCode::INVALID_ARGUMENT, "round 0"},
  };
  const uint64_t accepted_before = services_[0]->AcceptedFrames();
  for (const Case& c : cases) {
    const grpc::Status status = SendRaw(*c.identity, 0, {c.frame});
    EXPECT_EQ(status.error_code(), c.code) << c.what << ": " << status.error_message();
    EXPECT_THAT(status.error_message(), HasSubstr(c.message)) << c.what;
  }
  EXPECT_EQ(services_[0]->AcceptedFrames(), accepted_before);
  const auto refused = services_[0]->RefusedFrames();
  EXPECT_EQ(refused.at(absl::StatusCode::kFailedPrecondition), 3u);
  EXPECT_EQ(refused.at(absl::StatusCode::kPermissionDenied), 4u);
  EXPECT_EQ(refused.at(absl::StatusCode::kNotFound), 1u);
  EXPECT_EQ(refused.at(absl::StatusCode::kOutOfRange), 1u);
  EXPECT_EQ(refused.at(absl::StatusCode::kResourceExhausted), 1u);  // gRPC refused the other
  EXPECT_EQ(refused.at(absl::StatusCode::kInvalidArgument), 2u);

  // The run's queues are untouched: the next computation works.
  ASSERT_TRUE(run->MulAndOpen(kA, kB, &opened).ok());
  ExpectProducts(opened);
  EXPECT_EQ(run->engines[0]->rounds(), 9u);  // keys once, then 4 rounds per computation
  for (GrpcPartyTransport* transport : t) EXPECT_TRUE(transport->Close().ok());
}

TEST_F(PartyLinkTest, CertificateFromAnotherCaIsRefusedAtTheTlsLayer) {
  StartRun("run-ca");
  // Trusts the right CA (so it accepts p0's server) but presents a
  // certificate of another CA, with p1's name.
  const TlsIdentity intruder =
      TlsIdentity::FromPem(ReadText(Dir() / "ca.crt"), ReadText(OtherDir() / "p1.crt"),
                           ReadText(OtherDir() / "p1.key"))
          .value();
  const grpc::Status status = SendRaw(intruder, 0, {Frame("run-ca", 1, "p1")});
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
  EXPECT_EQ(services_[0]->AcceptedFrames(), 0u);
  EXPECT_TRUE(services_[0]->RefusedFrames().empty());  // the handler never ran

  // A whole party with the other CA's material cannot link either.
  GrpcPartyTransport::Options o = RunOptions("run-ca-2", 1);
  o.connect_timeout = std::chrono::milliseconds(1500);
  const TlsIdentity other_p1 = Identity(OtherDir(), "p1");
  PartyLinkService other_service(*consortium_);
  auto impostor = GrpcPartyTransport::Create(o, other_p1, other_service).value();
  ASSERT_TRUE(impostor->Send(0, 1, {1, 2, 3}).ok());  // queued
  const absl::Status s = impostor->Receive(0, 1).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_THAT(s.message(), HasSubstr("cannot connect to party 0 (p0"));
  EXPECT_EQ(impostor->Send(0, 2, {1}).code(), absl::StatusCode::kUnavailable);
}

TEST_F(PartyLinkTest, ClientChecksTheServersPinnedCertificate) {
  GrpcPartyTransport::Options o = RunOptions("run-pin", 0);
  o.parties[1].cert_fingerprint = o.parties[2].cert_fingerprint;  // wrong pin for p1
  auto t = GrpcPartyTransport::Create(o, *identities_[0], *services_[0]).value();
  ASSERT_TRUE(t->Send(1, 1, {9}).ok());
  const absl::Status s = t->Receive(1, 1).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << s;
  EXPECT_THAT(s.message(), HasSubstr("not the pinned"));
}

TEST_F(PartyLinkTest, ReceiveTimesOutNamingPeerAndRound) {
  GrpcPartyTransport::Options o = RunOptions("run-slow", 0);
  o.receive_timeout = std::chrono::milliseconds(200);
  auto t = GrpcPartyTransport::Create(o, *identities_[0], *services_[0]).value();
  const absl::Status s = t->Receive(2, 7).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(s.message(), HasSubstr("party 2 (p2)"));
  EXPECT_THAT(s.message(), HasSubstr("round 7"));
}

TEST_F(PartyLinkTest, ShutdownWakesReceiveWithItsCause) {
  auto t = GrpcPartyTransport::Create(RunOptions("run-stop", 0), *identities_[0], *services_[0])
               .value();
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    t->Shutdown(absl::InternalError("coordinator cancelled the run"));
  });
  const absl::Status s = t->Receive(1, 1).status();
  stopper.join();
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted);
  EXPECT_THAT(s.message(), HasSubstr("coordinator cancelled the run"));
  EXPECT_EQ(t->Send(1, 1, {1}).code(), absl::StatusCode::kAborted);
}

TEST_F(PartyLinkTest, SendValidatesLocally) {
  auto t = GrpcPartyTransport::Create(RunOptions("run-send", 0), *identities_[0], *services_[0])
               .value();
  EXPECT_EQ(t->Send(0, 1, {1}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t->Send(3, 1, {1}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t->Send(1, 1, std::vector<uint8_t>(kRunPayloadLimit + 1)).code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(t->Receive(0, 1).status().code(), absl::StatusCode::kInvalidArgument);
  // One transport per run and daemon.
  EXPECT_EQ(GrpcPartyTransport::Create(RunOptions("run-send", 0), *identities_[0], *services_[0])
                .status()
                .code(),
            absl::StatusCode::kAlreadyExists);
}

TEST_F(PartyLinkTest, PeerThatGoesAwayEndsReceiveEarly) {
  std::vector<GrpcPartyTransport*> t = StartRun("run-gone");
  ASSERT_TRUE(t[1]->Send(0, 1, {1, 2}).ok());
  ASSERT_TRUE(t[0]->Receive(1, 1).ok());
  // p1 stops (its transport is destroyed: streams cancelled).
  for (auto& owned : transports_) {
    if (owned.get() == t[1]) owned.reset();
  }
  const absl::Status s = t[0]->Receive(1, 2).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_THAT(s.message(), HasSubstr("p1"));
}

// The killed-party case over real streams: p2 waits for p0's message (p0
// is alive but will never send it); p1 goes away; p2's wait ends at once,
// naming p1, not at the 30 s receive timeout.
TEST_F(PartyLinkTest, PeerThatGoesAwayEndsAWaitForAnotherPeer) {
  std::vector<GrpcPartyTransport*> t = StartRun("run-gone-other");
  ASSERT_TRUE(t[1]->Send(2, 1, {1}).ok());
  ASSERT_TRUE(t[0]->Send(2, 1, {2}).ok());
  ASSERT_TRUE(t[2]->Receive(1, 1).ok());
  ASSERT_TRUE(t[2]->Receive(0, 1).ok());
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    for (auto& owned : transports_) {
      if (owned.get() == t[1]) owned.reset();
    }
  });
  const auto started = std::chrono::steady_clock::now();
  const absl::Status s = t[2]->Receive(0, 2).status();
  killer.join();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_THAT(s.message(), HasSubstr("party 1 (p1) closed its link while this party waited for "
                                     "party 0 (p0)"));
}

}  // namespace
}  // namespace pplda::net

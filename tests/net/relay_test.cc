// Relay mode on loopback with real mutual TLS (certificates and box keys made
// by deploy/make-certs.sh): three relay-mode parties dial a RelayHub, run the
// MPC engine (Input, Mul, Open) over RelayPartyTransport, and the hub records
// every byte it reads and writes. The recorded traffic holds no plaintext
// share: no input, share, product share or opened value, encoded as the
// engine encodes field elements, appears in it (while the same search finds
// them in the plaintext payloads the engines handed to their transports), and
// every relayed box is a valid crypto_box ciphertext that opens for its
// receiver and not for a key the coordinator could hold. Also: control calls
// relayed to a party and back, and a party whose stream ends stopping its
// peers' runs with Unavailable.
#include <sodium.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/mpc_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "grpcpp/server.h"
#include "grpcpp/server_builder.h"
#include "gtest/gtest.h"
#include "net/consortium_file.h"
#include "net/party_link_service.h"
#include "net/relay_client.h"
#include "net/relay_hub.h"
#include "net/relay_party_transport.h"
#include "net/sealed_frame.h"
#include "net/tls_identity.h"
#include "tests/net/net_test_util.h"

namespace pplda::net {
namespace {

using ::pplda::crypto::FieldElement;
using ::pplda::crypto::FieldVector;
using ::pplda::crypto::MpcEngine;
using ::pplda::crypto::PartyTransport;
using ::pplda::crypto::Shares;
using ::pplda::net::testing::MakeCerts;
using ::pplda::net::testing::TempDir;
using ::testing::HasSubstr;

constexpr int kParties = 3;
const std::vector<int64_t> kA = {123456789, -987654321, 4242, 77777, 31337, 99991, -5};
const std::vector<int64_t> kB = {1000003, 3, -7, 65537, -271828, 11, 13};

// Records the plaintext payloads an engine hands to its transport (the
// positive control of the search).
class SendRecordingTransport final : public crypto::ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) override {
    sent_.append(payload.begin(), payload.end());
    return inner_.Send(to, round, std::move(payload));
  }
  const std::string& sent() const { return sent_; }

 private:
  std::string sent_;
};

std::string Encoded(FieldElement e) {
  std::vector<uint8_t> bytes;
  crypto::AppendEncoded(absl::MakeConstSpan(&e, 1), bytes);
  return std::string(bytes.begin(), bytes.end());
}

class RelayTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    ASSERT_TRUE(MakeCerts(Dir(), "--coordinator coord=127.0.0.1:7000 --party p0=relay "
                                 "--party p1=relay --helper p2=relay")
                    .ok());
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  static std::filesystem::path Dir() { return tmp_->path() / "certs"; }
  static TlsIdentity Identity(const std::string& name) {
    return TlsIdentity::Load(Dir() / "ca.crt", Dir() / (name + ".crt"), Dir() / (name + ".key"))
        .value();
  }

  void SetUp() override {
    absl::StatusOr<Consortium> consortium = Consortium::Load(Dir() / "consortium.toml");
    ASSERT_TRUE(consortium.ok()) << consortium.status();
    consortium_ = std::make_unique<Consortium>(*std::move(consortium));
    ASSERT_TRUE(consortium_->relays_mpc());
    coordinator_identity_ = std::make_unique<TlsIdentity>(Identity("coord"));
    RelayHub::Options options;
    // Long enough for a TLS connect on a loaded 2-core machine (500 ms made
    // the MPC test flaky under ctest -j2), short enough for the test that
    // waits it out for a stopped party (its deadline is 5 s).
    options.connect_grace = std::chrono::milliseconds(3000);
    options.observer = [this](RelayHub::Direction d, const std::string& party,
                              const std::string& bytes) {
      std::lock_guard<std::mutex> lock(recorded_mu_);
      recorded_.push_back(Recorded{d, party, bytes});
    };
    hub_ = std::make_unique<RelayHub>(*consortium_, options);
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", coordinator_identity_->server_credentials(), &port);
    builder.RegisterService(hub_.get());
    ConfigureServerBuilder(builder);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    ASSERT_GT(port, 0);
    port_ = port;
    StartParties();
  }

  void StartParties() {
    auto parties = FrameSealer::PartiesOf(*consortium_);
    ASSERT_TRUE(parties.ok()) << parties.status();
    parties_ = *parties;
    for (int p = 0; p < kParties; ++p) {
      const std::string name = absl::StrCat("p", p);
      identities_.push_back(std::make_unique<TlsIdentity>(Identity(name)));
      auto secret = BoxSecretKey::Load(Dir() / (name + ".box"));
      ASSERT_TRUE(secret.ok()) << secret.status();
      ASSERT_TRUE(secret->CheckPinned(*consortium_, name).ok());
      secrets_.push_back(std::make_unique<BoxSecretKey>(*std::move(secret)));
      RelayClient::Options o;
      o.name = name;
      o.coordinator_name = "coord";
      o.coordinator_address = absl::StrCat("127.0.0.1:", port_);
      o.coordinator_fingerprint = consortium_->coordinator().cert_fingerprint;
      o.retry_delay = std::chrono::milliseconds(100);
      clients_.push_back(std::make_unique<RelayClient>(
          o, *identities_[p], [p](const pplda::v1::RelayedCall& call) {
            pplda::v1::RelayedReply reply;
            if (call.has_join()) {
              reply.mutable_join()->set_party_index(p);
              reply.mutable_join()->set_vocabulary_sha256(
                  call.join().parameters().vocabulary_sha256());
            } else {
              reply.set_status_code(static_cast<int>(absl::StatusCode::kUnimplemented));
              reply.set_status_message("only join");
            }
            return reply;
          }));
    }
    ASSERT_TRUE(hub_->WaitConnected({"p0", "p1", "p2"}, std::chrono::seconds(10)));
    // The hub registers a stream before its client marks itself connected;
    // a send in between is refused ("no open stream"): wait for both ends.
    for (const auto& client : clients_) {
      ASSERT_TRUE(client->WaitConnected(std::chrono::seconds(10)));
    }
  }

  void TearDown() override {
    transports_.clear();
    for (auto& c : clients_) c->Stop();
    hub_->Shutdown();
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  }

  std::vector<RelayPartyTransport*> StartRun(const std::string& run_id) {
    std::vector<RelayPartyTransport*> out;
    for (int p = 0; p < kParties; ++p) {
      RelayPartyTransport::Options o;
      o.run_id = run_id;
      o.party_id = p;
      o.parties = parties_;
      o.receive_timeout = std::chrono::seconds(20);
      auto t = RelayPartyTransport::Create(o, *secrets_[p], *clients_[p]);
      EXPECT_TRUE(t.ok()) << t.status();
      if (!t.ok()) return {};
      out.push_back(t->get());
      transports_.push_back(*std::move(t));
    }
    return out;
  }

  struct Recorded {
    RelayHub::Direction direction;
    std::string party;
    std::string bytes;
  };

  static TempDir* tmp_;
  std::unique_ptr<Consortium> consortium_;
  std::unique_ptr<TlsIdentity> coordinator_identity_;
  std::unique_ptr<RelayHub> hub_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  std::vector<FrameSealer::Party> parties_;
  std::vector<std::unique_ptr<TlsIdentity>> identities_;
  std::vector<std::unique_ptr<BoxSecretKey>> secrets_;
  std::vector<std::unique_ptr<RelayClient>> clients_;
  std::vector<std::unique_ptr<RelayPartyTransport>> transports_;
  std::mutex recorded_mu_;
  std::vector<Recorded> recorded_;
};

TempDir* RelayTest::tmp_ = nullptr;

TEST_F(RelayTest, MpcOverTheRelayLeavesNoPlaintextShareInTheCoordinatorsTraffic) {
  std::vector<RelayPartyTransport*> relay = StartRun("run-relay");
  ASSERT_EQ(relay.size(), 3u);
  std::vector<std::unique_ptr<SendRecordingTransport>> recording;
  std::vector<std::unique_ptr<crypto::SeededRng>> rngs;
  std::vector<std::unique_ptr<MpcEngine>> engines;
  const crypto::MpcConfig config = crypto::MpcConfig::Create(kParties, 1).value();
  for (int p = 0; p < kParties; ++p) {
    recording.push_back(std::make_unique<SendRecordingTransport>(*relay[p]));
    rngs.push_back(std::make_unique<crypto::SeededRng>(500 + p));
    engines.push_back(MpcEngine::Create(config, *recording[p], *rngs[p]).value());
  }
  // Every secret value of the computation, as each party holds it.
  std::vector<FieldVector> secrets(kParties);
  std::vector<FieldVector> opened(kParties);
  std::vector<absl::Status> status(kParties);
  std::vector<std::thread> threads;
  for (int p = 0; p < kParties; ++p) {
    threads.emplace_back([&, p] {
      status[p] = [&]() -> absl::Status {
        MpcEngine& e = *engines[p];
        FieldVector mine_a, mine_b;
        if (p == 0) for (int64_t v : kA) mine_a.push_back(FieldElement::FromInt64(v));
        if (p == 1) for (int64_t v : kB) mine_b.push_back(FieldElement::FromInt64(v));
        ASSIGN_OR_RETURN(Shares sa, e.Input(std::vector<int>(kA.size(), 0), mine_a));
        ASSIGN_OR_RETURN(Shares sb, e.Input(std::vector<int>(kB.size(), 1), mine_b));
        ASSIGN_OR_RETURN(Shares product, e.Mul(sa, sb));
        ASSIGN_OR_RETURN(opened[p], e.Open(product));
        for (const Shares* s : {&sa, &sb, &product}) {
          secrets[p].insert(secrets[p].end(), s->values().begin(), s->values().end());
        }
        return absl::OkStatus();
      }();
    });
  }
  for (auto& t : threads) t.join();
  for (int p = 0; p < kParties; ++p) ASSERT_TRUE(status[p].ok()) << p << ": " << status[p];
  FieldVector values;  // the plaintext inputs and products
  for (size_t i = 0; i < kA.size(); ++i) {
    for (int p = 0; p < kParties; ++p) {
      EXPECT_EQ(opened[p][i].ToSigned(), static_cast<crypto::int128>(kA[i]) * kB[i]);
    }
    values.push_back(FieldElement::FromInt64(kA[i]));
    values.push_back(FieldElement::FromInt64(kB[i]));
    values.push_back(opened[0][i]);
  }

  std::vector<Recorded> recorded;
  {
    std::lock_guard<std::mutex> lock(recorded_mu_);
    recorded = recorded_;
  }
  // Up: 3 hellos and every frame; down: every frame. Input (2 rounds), Mul
  // and Open: at least 6 frames per round among 3 parties in some rounds.
  size_t frames_down = 0;
  std::string all_recorded;
  for (const Recorded& r : recorded) all_recorded += r.bytes;
  std::string all_plaintext;
  for (const auto& r : recording) all_plaintext += r->sent();
  ASSERT_FALSE(all_plaintext.empty());

  // The search works: the peers' shares are in the plaintext payloads...
  int found_in_plaintext = 0;
  for (int p = 0; p < kParties; ++p) {
    for (FieldElement e : secrets[p]) {
      found_in_plaintext += all_plaintext.find(Encoded(e)) != std::string::npos;
    }
  }
  EXPECT_GT(found_in_plaintext, 0);
  // ...and nothing secret is in what the coordinator saw.
  for (int p = 0; p < kParties; ++p) {
    for (size_t i = 0; i < secrets[p].size(); ++i) {
      EXPECT_EQ(all_recorded.find(Encoded(secrets[p][i])), std::string::npos)
          << "party " << p << "'s share " << i << " is in the relayed traffic";
    }
  }
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(all_recorded.find(Encoded(values[i])), std::string::npos)
        << "plaintext value " << i << " is in the relayed traffic";
  }

  // Every relayed box is a valid ciphertext for its receiver, and opens with
  // no key the coordinator could make.
  const BoxSecretKey coordinator_guess = BoxSecretKey::Generate();
  std::vector<std::unique_ptr<FrameSealer>> receivers;
  for (int p = 0; p < kParties; ++p) {
    receivers.push_back(FrameSealer::Create("run-relay", p, parties_, *secrets_[p]).value());
  }
  for (const Recorded& r : recorded) {
    if (r.direction != RelayHub::Direction::kDown) continue;
    pplda::v1::RelayDown down;
    ASSERT_TRUE(down.ParseFromString(r.bytes));
    if (!down.has_frame()) continue;
    ++frames_down;
    const pplda::v1::SealedFrame& frame = down.frame();
    EXPECT_EQ(frame.receiver(), r.party);
    const int to = std::stoi(frame.receiver().substr(1));
    auto opened_frame = receivers[to]->Open(frame);
    ASSERT_TRUE(opened_frame.ok()) << opened_frame.status();
    // nonce || MAC || exactly the sealed content, nothing else in the clear.
    pplda::v1::SealedContent content;
    content.mutable_header()->set_protocol_version(1);
    content.mutable_header()->set_run_id("run-relay");
    content.mutable_header()->set_iteration(opened_frame->iteration);
    content.mutable_header()->set_round(opened_frame->round);
    content.mutable_header()->set_sender(frame.sender());
    content.set_receiver(frame.receiver());
    content.set_payload(opened_frame->payload);
    EXPECT_EQ(frame.box().size(),
              crypto_box_NONCEBYTES + crypto_box_MACBYTES + content.ByteSizeLong());
    // The coordinator's guesses: its own key pair against the sender's or
    // the receiver's public key.
    const int from = std::stoi(frame.sender().substr(1));
    for (int victim : {from, to}) {
      std::vector<FrameSealer::Party> guess = parties_;
      guess[victim].box_public_key = coordinator_guess.public_key();
      auto as_victim = FrameSealer::Create("run-relay", victim, guess, coordinator_guess);
      ASSERT_TRUE(as_victim.ok());
      pplda::v1::SealedFrame relabelled = frame;
      if (victim == from) {
        relabelled.set_receiver(frame.sender());
        relabelled.set_sender(frame.receiver());
      }
      auto try_open = (*as_victim)->Open(relabelled);
      EXPECT_EQ(try_open.status().code(), absl::StatusCode::kPermissionDenied);
    }
  }
  EXPECT_GT(frames_down, 0u);
  EXPECT_EQ(frames_down, hub_->forwarded_frames());
}

TEST_F(RelayTest, ControlCallsTravelDownTheStreamAndBack) {
  pplda::v1::RelayedCall call;
  call.mutable_join()->mutable_parameters()->set_vocabulary_sha256("abc");
  auto reply = hub_->Call("p1", call, std::chrono::system_clock::now() + std::chrono::seconds(10));
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->status_code(), 0);
  EXPECT_EQ(reply->join().party_index(), 1u);
  EXPECT_EQ(reply->join().vocabulary_sha256(), "abc");

  pplda::v1::RelayedCall other;
  other.mutable_abort()->set_reason("test");
  reply = hub_->Call("p2", other, std::chrono::system_clock::now() + std::chrono::seconds(10));
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->status_code(), static_cast<int>(absl::StatusCode::kUnimplemented));

  EXPECT_EQ(hub_->Call("coord", call, std::chrono::system_clock::now() + std::chrono::seconds(1))
                .status()
                .code(),
            absl::StatusCode::kNotFound);
  clients_[0]->Stop();
  auto gone = hub_->Call("p0", call, std::chrono::system_clock::now() + std::chrono::seconds(5));
  EXPECT_EQ(gone.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(gone.status().message()), HasSubstr("not connected"));
}

TEST_F(RelayTest, APartyWhoseStreamEndsStopsItsPeersRuns) {
  std::vector<RelayPartyTransport*> relay = StartRun("run-gone");
  ASSERT_EQ(relay.size(), 3u);
  clients_[2]->Stop();
  auto got = relay[0]->Receive(2, 1);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(got.status().message()), HasSubstr("p2"));
}

// Opens a raw Relay stream as `identity`, writes `messages` and returns the
// status the hub ended the stream with.
grpc::Status RawStream(const TlsIdentity& identity, int port,
                       const std::vector<pplda::v1::RelayUp>& messages) {
  auto channel =
      CreatePeerChannel(identity, absl::StrCat("127.0.0.1:", port), "coord", 64 << 20);
  auto stub = pplda::v1::Relay::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  auto stream = stub->Connect(&context);
  for (const auto& m : messages) {
    if (!stream->Write(m)) break;
  }
  stream->WritesDone();
  pplda::v1::RelayDown ignored;
  while (stream->Read(&ignored)) {
  }
  return stream->Finish();
}

pplda::v1::RelayUp Hello(const std::string& sender, uint32_t version = 1) {
  pplda::v1::RelayUp up;
  up.mutable_hello()->mutable_header()->set_protocol_version(version);
  up.mutable_hello()->mutable_header()->set_sender(sender);
  return up;
}

TEST_F(RelayTest, BadStreamsAreRefusedWithTheirOwnStatus) {
  // Another participant's name in the hello.
  EXPECT_EQ(RawStream(*identities_[0], port_, {Hello("p1")}).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // Another protocol version.
  EXPECT_EQ(RawStream(*identities_[0], port_, {Hello("p0", 7)}).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  // No hello first.
  pplda::v1::RelayUp frame;
  frame.mutable_frame()->set_run_id("r");
  frame.mutable_frame()->set_sender("p0");
  frame.mutable_frame()->set_receiver("p1");
  EXPECT_EQ(RawStream(*identities_[0], port_, {frame}).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // A frame claiming another sender, and one for the coordinator.
  pplda::v1::RelayUp forged = frame;
  forged.mutable_frame()->set_sender("p2");
  EXPECT_EQ(RawStream(*identities_[0], port_, {Hello("p0"), forged}).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  pplda::v1::RelayUp to_coordinator = frame;
  to_coordinator.mutable_frame()->set_receiver("coord");
  EXPECT_EQ(RawStream(*identities_[0], port_, {Hello("p0"), to_coordinator}).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // The coordinator's own certificate is no compute party's.
  EXPECT_EQ(RawStream(*coordinator_identity_, port_, {Hello("coord")}).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // The refused streams replaced p0's real one; p0's client dials again and
  // calls still reach it.
  ASSERT_TRUE(hub_->WaitConnected({"p0"}, std::chrono::seconds(10)));
  pplda::v1::RelayedCall call;
  call.mutable_join();
  EXPECT_TRUE(
      hub_->Call("p0", call, std::chrono::system_clock::now() + std::chrono::seconds(10)).ok());
}

}  // namespace
}  // namespace pplda::net

// Sealed frames (net/sealed_frame.h) and RelayPartyTransport over an
// in-memory endpoint: round trips, and refusal of tampered, forged,
// replayed and redirected frames, each with its own status; box keys in the
// consortium file.
#include "net/sealed_frame.h"

#include <sodium.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "net/consortium_file.h"
#include "net/relay_party_transport.h"
#include "tests/net/net_test_util.h"

namespace pplda::net {
namespace {

using ::pplda::net::testing::TempDir;
using ::testing::HasSubstr;

const std::vector<uint8_t> kPayload = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};

struct Keys {
  std::vector<BoxSecretKey> secrets;
  std::vector<FrameSealer::Party> parties;
};

Keys MakeKeys(const std::vector<std::string>& names) {
  Keys k;
  for (const std::string& name : names) {
    k.secrets.push_back(BoxSecretKey::Generate());
    k.parties.push_back(FrameSealer::Party{name, k.secrets.back().public_key()});
  }
  return k;
}

std::unique_ptr<FrameSealer> Sealer(const Keys& k, const std::string& run, int party) {
  auto sealer = FrameSealer::Create(run, party, k.parties, k.secrets[party]);
  EXPECT_TRUE(sealer.ok()) << sealer.status();
  return sealer.ok() ? *std::move(sealer) : nullptr;
}

TEST(SealedFrameTest, RoundTripHidesPayloadAndHeader) {
  Keys k = MakeKeys({"a", "b", "c"});
  auto a = Sealer(k, "run-1", 0);
  auto b = Sealer(k, "run-1", 1);
  auto frame = a->Seal(1, 3, 42, kPayload);
  ASSERT_TRUE(frame.ok()) << frame.status();
  EXPECT_EQ(frame->run_id(), "run-1");
  EXPECT_EQ(frame->sender(), "a");
  EXPECT_EQ(frame->receiver(), "b");
  const std::string plain(kPayload.begin(), kPayload.end());
  EXPECT_EQ(frame->box().find(plain), std::string::npos);
  EXPECT_GE(frame->box().size(), crypto_box_NONCEBYTES + crypto_box_MACBYTES + kPayload.size());
  auto opened = b->Open(*frame);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ(opened->from, 0);
  EXPECT_EQ(opened->iteration, 3);
  EXPECT_EQ(opened->round, 42u);
  EXPECT_EQ(opened->payload, plain);
  // Fresh nonces: the same payload twice gives different boxes.
  auto again = a->Seal(1, 3, 42, kPayload);
  ASSERT_TRUE(again.ok());
  EXPECT_NE(again->box().substr(0, crypto_box_NONCEBYTES),
            frame->box().substr(0, crypto_box_NONCEBYTES));
  EXPECT_NE(again->box(), frame->box());
}

TEST(SealedFrameTest, TamperedBoxIsRefused) {
  Keys k = MakeKeys({"a", "b", "c"});
  auto a = Sealer(k, "run-1", 0);
  auto b = Sealer(k, "run-1", 1);
  auto frame = a->Seal(1, 0, 1, kPayload).value();
  for (size_t i : {size_t{0}, size_t{crypto_box_NONCEBYTES}, frame.box().size() - 1}) {
    pplda::v1::SealedFrame tampered = frame;
    (*tampered.mutable_box())[i] ^= 0x01;
    auto opened = b->Open(tampered);
    EXPECT_EQ(opened.status().code(), absl::StatusCode::kPermissionDenied) << i;
    EXPECT_THAT(std::string(opened.status().message()), HasSubstr("altered")) << i;
  }
  pplda::v1::SealedFrame truncated = frame;
  truncated.set_box(frame.box().substr(0, 20));
  EXPECT_EQ(b->Open(truncated).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SealedFrameTest, ForgedSenderIsRefused) {
  // The relay relabels a's frame as c's: it does not open with c's key.
  Keys k = MakeKeys({"a", "b", "c"});
  auto a = Sealer(k, "run-1", 0);
  auto b = Sealer(k, "run-1", 1);
  auto frame = a->Seal(1, 0, 1, kPayload).value();
  frame.set_sender("c");
  EXPECT_EQ(b->Open(frame).status().code(), absl::StatusCode::kPermissionDenied);
  frame.set_sender("b");  // itself
  EXPECT_EQ(b->Open(frame).status().code(), absl::StatusCode::kPermissionDenied);
  frame.set_sender("mallory");
  EXPECT_EQ(b->Open(frame).status().code(), absl::StatusCode::kPermissionDenied);
}

TEST(SealedFrameTest, RedirectedFrameIsRefused) {
  Keys k = MakeKeys({"a", "b", "c"});
  auto a = Sealer(k, "run-1", 0);
  auto c = Sealer(k, "run-1", 2);
  auto frame = a->Seal(1, 0, 1, kPayload).value();
  // Delivered to c as it is: the outer receiver is b.
  EXPECT_EQ(c->Open(frame).status().code(), absl::StatusCode::kPermissionDenied);
  // Relabelled for c: the box was sealed for b's key, it does not open.
  frame.set_receiver("c");
  EXPECT_EQ(c->Open(frame).status().code(), absl::StatusCode::kPermissionDenied);

  // Even if c held b's key (here: a consortium where both pin one key), the
  // receiver inside the box gives the redirection away.
  Keys shared = MakeKeys({"a", "b"});
  std::vector<FrameSealer::Party> parties = {shared.parties[0], shared.parties[1],
                                             FrameSealer::Party{"c", shared.parties[1].box_public_key}};
  auto a2 = FrameSealer::Create("run-1", 0, parties, shared.secrets[0]).value();
  auto c2 = FrameSealer::Create("run-1", 2, parties, shared.secrets[1]).value();
  auto to_b = a2->Seal(1, 0, 1, kPayload).value();
  to_b.set_receiver("c");
  auto opened = c2->Open(to_b);
  EXPECT_EQ(opened.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(std::string(opened.status().message()), HasSubstr("redirected"));
}

TEST(SealedFrameTest, FrameReplayedIntoAnotherRunIsRefused) {
  Keys k = MakeKeys({"a", "b", "c"});
  auto a = Sealer(k, "run-1", 0);
  auto b2 = Sealer(k, "run-2", 1);
  auto frame = a->Seal(1, 0, 1, kPayload).value();
  EXPECT_EQ(b2->Open(frame).status().code(), absl::StatusCode::kPermissionDenied);
  frame.set_run_id("run-2");  // relabelled: the run inside the box gives it away
  auto opened = b2->Open(frame);
  EXPECT_EQ(opened.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(std::string(opened.status().message()), HasSubstr("another run"));
}

TEST(SealedFrameTest, WrongSecretKeyIsRefusedAtCreate) {
  Keys k = MakeKeys({"a", "b", "c"});
  BoxSecretKey other = BoxSecretKey::Generate();
  EXPECT_EQ(FrameSealer::Create("run-1", 0, k.parties, other).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(FrameSealer::Create("", 0, k.parties, k.secrets[0]).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FrameSealer::Create("r", 3, k.parties, k.secrets[0]).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SealedFrameTest, SecretKeyFile) {
  TempDir tmp;
  const std::filesystem::path path = tmp.path() / "a.box";
  BoxSecretKey key = BoxSecretKey::Generate();
  // A known key: its public half is derived on load.
  const std::string hex(64, '7');
  std::ofstream(path) << hex << "\n";
  ::chmod(path.c_str(), 0644);
  auto loose = BoxSecretKey::Load(path);
  EXPECT_EQ(loose.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(loose.status().message()), HasSubstr("chmod 600"));
  ::chmod(path.c_str(), 0600);
  const std::filesystem::path link = tmp.path() / "link.box";
  std::filesystem::create_symlink(path, link);
  auto linked = BoxSecretKey::Load(link);
  EXPECT_EQ(linked.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(linked.status().message()), HasSubstr("is a symbolic link"));
  auto loaded = BoxSecretKey::Load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto again = BoxSecretKey::FromHex(hex);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(loaded->public_key(), again->public_key());
  std::ofstream(path) << "not hex\n";
  EXPECT_EQ(BoxSecretKey::Load(path).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BoxSecretKey::Load(tmp.path() / "missing").status().code(),
            absl::StatusCode::kNotFound);
}

std::string ConsortiumText(const std::vector<std::string>& party_lines) {
  std::string text =
      "[consortium]\nname = \"t\"\nca_fingerprint = \"" + std::string(64, 'a') +
      "\"\n[[participant]]\nname = \"coord\"\nrole = \"coordinator\"\naddress = "
      "\"127.0.0.1:7000\"\ncert_fingerprint = \"" +
      std::string(64, '0') + "\"\n";
  for (size_t i = 0; i < party_lines.size(); ++i) {
    text += absl::StrCat("[[participant]]\nname = \"p", i, "\"\nrole = \"party\"\n",
                         "cert_fingerprint = \"", std::string(63, '1'), i + 1, "\"\n",
                         party_lines[i]);
  }
  return text;
}

TEST(SealedFrameTest, ConsortiumPinsBoxKeysAndRelayMode) {
  Keys k = MakeKeys({"p0", "p1", "p2"});
  std::vector<std::string> lines;
  for (int i = 0; i < 3; ++i) {
    lines.push_back(absl::StrCat(i == 0 ? "relay = true\n" : "address = \"127.0.0.1:700" +
                                                                 std::to_string(i) + "\"\n",
                                 "box_public_key = \"", BoxPublicKeyHex(k.parties[i].box_public_key),
                                 "\"\n"));
  }
  auto consortium = Consortium::Parse(ConsortiumText(lines), "c.toml");
  ASSERT_TRUE(consortium.ok()) << consortium.status();
  EXPECT_TRUE(consortium->relays_mpc());
  EXPECT_TRUE(consortium->FindByName("p0")->relay);
  EXPECT_TRUE(consortium->FindByName("p0")->address.empty());
  EXPECT_FALSE(consortium->FindByName("p1")->relay);
  auto parties = FrameSealer::PartiesOf(*consortium);
  ASSERT_TRUE(parties.ok());
  EXPECT_EQ((*parties)[2].box_public_key, k.parties[2].box_public_key);
  EXPECT_TRUE(k.secrets[1].CheckPinned(*consortium, "p1").ok());
  EXPECT_EQ(k.secrets[1].CheckPinned(*consortium, "p2").code(),
            absl::StatusCode::kFailedPrecondition);

  // A relay consortium where a compute party has no box key.
  std::vector<std::string> missing = lines;
  missing[2] = "address = \"127.0.0.1:7002\"\n";
  auto refused = Consortium::Parse(ConsortiumText(missing), "c.toml");
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("participant[3].box_public_key: missing for \"p2\""));
  // Without relay mode, box keys are optional.
  std::vector<std::string> direct = missing;
  direct[0] = "address = \"127.0.0.1:7001\"\n";
  auto plain = Consortium::Parse(ConsortiumText(direct), "c.toml");
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_FALSE(plain->relays_mpc());
  // Malformed keys and fields.
  std::vector<std::string> bad = lines;
  bad[1] = "address = \"127.0.0.1:7001\"\nbox_public_key = \"xyz\"\n";
  EXPECT_THAT(std::string(Consortium::Parse(ConsortiumText(bad), "c.toml").status().message()),
              HasSubstr("participant[2].box_public_key"));
  bad[1] = "address = \"127.0.0.1:7001\"\nrelay = \"yes\"\n";
  EXPECT_THAT(std::string(Consortium::Parse(ConsortiumText(bad), "c.toml").status().message()),
              HasSubstr("participant[2].relay: must be true or false"));
  bad[1] = "box_public_key = \"" + std::string(64, '2') + "\"\n";  // no address, not relay
  EXPECT_THAT(std::string(Consortium::Parse(ConsortiumText(bad), "c.toml").status().message()),
              HasSubstr("participant[2].address: missing"));
}

// An in-memory relay: frames go straight to the receiving transport, and the
// test can replay or alter them on the way.
class MemoryRelay {
 public:
  explicit MemoryRelay(std::vector<std::string> names) : names_(std::move(names)) {}

  class Endpoint final : public RelayEndpoint {
   public:
    explicit Endpoint(MemoryRelay* relay) : relay_(relay) {}
    absl::Status Forward(pplda::v1::SealedFrame frame) override {
      return relay_->Forward(std::move(frame));
    }
    absl::Status Attach(const std::string& run_id, RelayPartyTransport* t) override {
      std::lock_guard<std::mutex> lock(relay_->mu_);
      relay_->transports_[relay_->names_[t->party_id()]] = t;
      return absl::OkStatus();
    }
    void Detach(const std::string& run_id, const RelayPartyTransport* t) override {
      std::lock_guard<std::mutex> lock(relay_->mu_);
      relay_->transports_.erase(relay_->names_[t->party_id()]);
    }

   private:
    MemoryRelay* relay_;
  };

  absl::Status Forward(pplda::v1::SealedFrame frame) {
    std::lock_guard<std::mutex> lock(mu_);
    sent_.push_back(frame);
    auto it = transports_.find(frame.receiver());
    if (it != transports_.end()) it->second->Deliver(frame);
    return absl::OkStatus();
  }
  void Deliver(const pplda::v1::SealedFrame& frame, const std::string& to) {
    std::lock_guard<std::mutex> lock(mu_);
    transports_.at(to)->Deliver(frame);
  }
  pplda::v1::SealedFrame last_sent() {
    std::lock_guard<std::mutex> lock(mu_);
    return sent_.back();
  }

 private:
  const std::vector<std::string> names_;
  std::mutex mu_;
  std::map<std::string, RelayPartyTransport*> transports_;
  std::vector<pplda::v1::SealedFrame> sent_;
};

class RelayTransportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    keys_ = MakeKeys({"a", "b", "c"});
    for (int p = 0; p < 3; ++p) {
      endpoints_.push_back(std::make_unique<MemoryRelay::Endpoint>(&relay_));
      RelayPartyTransport::Options o;
      o.run_id = "run-1";
      o.party_id = p;
      o.parties = keys_.parties;
      o.receive_timeout = std::chrono::seconds(5);
      auto t = RelayPartyTransport::Create(o, keys_.secrets[p], *endpoints_[p]);
      ASSERT_TRUE(t.ok()) << t.status();
      transports_.push_back(*std::move(t));
    }
  }

  Keys keys_;
  MemoryRelay relay_{{"a", "b", "c"}};
  std::vector<std::unique_ptr<MemoryRelay::Endpoint>> endpoints_;
  std::vector<std::unique_ptr<RelayPartyTransport>> transports_;
};

TEST_F(RelayTransportTest, SendReceiveAndCounters) {
  ASSERT_TRUE(transports_[0]->Send(1, 1, kPayload).ok());
  auto got = transports_[1]->Receive(0, 1);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, kPayload);
  EXPECT_EQ(transports_[0]->Stats().parties[0].bytes_sent, kPayload.size());
  EXPECT_EQ(transports_[1]->Stats().parties[0].bytes_sent, kPayload.size());
  EXPECT_EQ(transports_[0]->Send(0, 2, kPayload).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(RelayTransportTest, ReplayedFrameStopsTheRun) {
  ASSERT_TRUE(transports_[0]->Send(1, 1, kPayload).ok());
  ASSERT_TRUE(transports_[1]->Receive(0, 1).ok());
  relay_.Deliver(relay_.last_sent(), "b");  // the relay replays it
  auto got = transports_[1]->Receive(0, 2);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(got.status().message()), HasSubstr("replayed"));
  EXPECT_THAT(std::string(got.status().message()), HasSubstr("\"a\""));
}

TEST_F(RelayTransportTest, TamperedFrameStopsTheRun) {
  auto frame = FrameSealer::Create("run-1", 0, keys_.parties, keys_.secrets[0])
                   .value()
                   ->Seal(2, 0, 1, kPayload)
                   .value();
  (*frame.mutable_box())[30] ^= 0x40;
  relay_.Deliver(frame, "c");
  auto got = transports_[2]->Receive(0, 1);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(std::string(got.status().message()), HasSubstr("altered"));
}

TEST_F(RelayTransportTest, NoticeAndDisconnectStopTheRun) {
  pplda::v1::RelayNotice notice;
  notice.set_run_id("run-1");
  notice.set_party("c");
  notice.set_status_code(static_cast<int>(absl::StatusCode::kUnavailable));
  notice.set_status_message("party \"c\" has no stream");
  transports_[0]->Notice(notice);
  auto got = transports_[0]->Receive(2, 1);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(transports_[0]->Send(1, 1, kPayload).code(), absl::StatusCode::kUnavailable);
  transports_[1]->Disconnected(absl::CancelledError("gone"));
  EXPECT_EQ(transports_[1]->Receive(0, 1).status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace pplda::net

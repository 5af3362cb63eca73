// libFuzzer target: the MPC messages a party receives from its peers, as
// its daemon handles them for one run: a direct link's MpcFrame stream
// (proto/party_link.proto; net/party_link_service.h's header checks, then
// net/frame_inbox.h) or frames relayed through the coordinator
// (proto/relay_service.proto SealedFrame; net/sealed_frame.h's Open, then
// the inbox). Party 0 of three ("alpha", "beta", "gamma") receives, in run
// "fuzz-run", frames from the authenticated peer "beta".
// Input: a mode byte (0 direct, 1 relayed), then frames (fuzz/fuzz_util.h),
// each one message, all given to one inbox in order (so replays and
// reordering are exercised). Any crash, sanitizer report, hang or
// out-of-memory is a finding; an error status is the expected answer.
// Properties (abort = finding): a frame accepted is the next one the
// transport takes at its position, with its payload unchanged; a relayed
// frame opens only as the frame its sender sealed (sender, this receiver,
// this run).
//
// Seeds: PPLDA_FUZZ_WRITE_SEEDS=fuzz/corpus/mpc_frames
// build-fuzz/fuzz/fuzz_mpc_frames writes valid streams of both modes and
// exits.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "net/frame_inbox.h"
#include "net/party_link_service.h"
#include "net/protocol_version.h"
#include "net/sealed_frame.h"
#include "proto/party_link.pb.h"
#include "proto/relay_service.pb.h"

namespace pplda::fuzz {
namespace {

constexpr char kRun[] = "fuzz-run";
const std::vector<std::string> kNames = {"alpha", "beta", "gamma"};
// Fixed X25519 secret keys of the three parties (FUZZING ONLY).
const char* const kSecretHex[] = {
    "0101010101010101010101010101010101010101010101010101010101010101",
    "0202020202020202020202020202020202020202020202020202020202020202",
    "0303030303030303030303030303030303030303030303030303030303030303"};
enum Mode : uint8_t { kDirect = 0, kRelayed = 1, kModes = 2 };

std::unique_ptr<net::FrameSealer> Sealer(int party) {
  std::vector<net::FrameSealer::Party> parties;
  for (int p = 0; p < 3; ++p) {
    absl::StatusOr<net::BoxSecretKey> key = net::BoxSecretKey::FromHex(kSecretHex[p]);
    Require(key.ok());
    parties.push_back({kNames[static_cast<size_t>(p)], key->public_key()});
  }
  absl::StatusOr<net::BoxSecretKey> mine = net::BoxSecretKey::FromHex(kSecretHex[party]);
  Require(mine.ok());
  absl::StatusOr<std::unique_ptr<net::FrameSealer>> sealer =
      net::FrameSealer::Create(kRun, party, parties, *mine);
  Require(sealer.ok());
  return *std::move(sealer);
}

const net::FrameSealer& Receiver() {
  static const net::FrameSealer* sealer = Sealer(0).release();
  return *sealer;
}

std::shared_ptr<net::FrameInbox> Inbox() {
  net::FrameInbox::Options o;
  o.run_id = kRun;
  o.party_names = kNames;
  o.party_id = 0;
  o.max_payload_bytes = 1 << 16;
  o.receive_timeout = std::chrono::milliseconds(1);
  o.max_rounds_ahead = 1 << 10;
  absl::StatusOr<std::shared_ptr<net::FrameInbox>> inbox = net::FrameInbox::Create(o);
  Require(inbox.ok());
  return *std::move(inbox);
}

void WriteSeeds(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  std::string direct(1, kDirect), relayed(1, kRelayed);
  std::unique_ptr<net::FrameSealer> beta = Sealer(1);
  const std::vector<std::pair<int, uint64_t>> positions = {{0, 1}, {0, 2}, {1, 1}, {1, 1}};
  for (const auto& [iteration, round] : positions) {
    const std::string payload = "payload of round " + std::to_string(round);
    pplda::v1::MpcFrame frame;
    frame.mutable_header()->set_protocol_version(net::kProtocolVersion);
    frame.mutable_header()->set_run_id(kRun);
    frame.mutable_header()->set_iteration(iteration);
    frame.mutable_header()->set_round(round);
    frame.mutable_header()->set_sender("beta");
    frame.set_payload(payload);
    AppendFrame(&direct, frame.SerializeAsString());
    absl::StatusOr<pplda::v1::SealedFrame> sealed = beta->Seal(
        0, iteration, round,
        absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(payload.data()), payload.size()));
    Require(sealed.ok());
    AppendFrame(&relayed, sealed->SerializeAsString());
  }
  WriteFile(dir / "direct", direct);
  WriteFile(dir / "relayed", relayed);
  std::exit(0);
}

// Accepts one frame; when accepted, the transport must take it next.
void AcceptAndTake(net::FrameInbox& inbox, std::string_view sender, int iteration, uint64_t round,
                   const std::string& payload) {
  const absl::Status accepted = inbox.Accept(sender, iteration, round, payload);
  Trace("Accept", accepted);
  if (!accepted.ok()) return;
  const int from = inbox.PartyIndex(sender);
  Require(from > 0);
  inbox.NoteProgress(iteration, round);
  absl::StatusOr<std::vector<uint8_t>> taken = inbox.Take(from, iteration, round);
  Require(taken.ok());
  Require(std::string(taken->begin(), taken->end()) == payload);
}

void Run(Mode mode, std::string_view bytes) {
  std::shared_ptr<net::FrameInbox> inbox = Inbox();
  for (std::string_view f : Frames(bytes)) {
    if (mode == kDirect) {
      pplda::v1::MpcFrame frame;
      if (!frame.ParseFromArray(f.data(), static_cast<int>(f.size()))) continue;
      const absl::Status checked = net::CheckMpcFrameHeader(frame, "beta");
      Trace("CheckMpcFrameHeader", checked);
      if (!checked.ok()) continue;
      AcceptAndTake(*inbox, frame.header().sender(), frame.header().iteration(),
                    frame.header().round(), frame.payload());
    } else {
      pplda::v1::SealedFrame frame;
      if (!frame.ParseFromArray(f.data(), static_cast<int>(f.size()))) continue;
      absl::StatusOr<net::OpenedFrame> opened = Receiver().Open(frame);
      Trace("Open", opened.status());
      if (!opened.ok()) continue;
      Require(opened->from == 1 && frame.sender() == "beta");  // only beta's key sealed it
      Require(frame.receiver() == "alpha" && frame.run_id() == kRun);
      AcceptAndTake(*inbox, frame.sender(), opened->iteration, opened->round, opened->payload);
    }
  }
}

}  // namespace
}  // namespace pplda::fuzz

PPLDA_FUZZ_MODAL_TARGET(pplda::fuzz::Receiver())

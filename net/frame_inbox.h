// FrameInbox: the receiving half of one party's GrpcPartyTransport for one
// run: one FIFO per sending owner (compute party or data holder), filled by PartyLinkService with
// frames that passed the wire checks, drained by the transport's Receive.
// Transport-free (no gRPC), so its rules are tested directly.
//
// Position of a frame: (iteration, round), compared lexicographically.
// Accept(sender, iteration, round, payload) refuses, leaving every queue
// exactly as it was:
//   PermissionDenied    sender is not an owner of the run, or is
//                       this party itself
//   ResourceExhausted   payload larger than max_payload_bytes, or the
//                       sender's queue would exceed max_queued_bytes (a
//                       peer that runs that far ahead, or floods, is
//                       refused instead of filling this party's memory)
//   FailedPrecondition  position not after the last one accepted from this
//                       sender (a replayed, repeated or reordered frame)
//   OutOfRange          iteration more than one ahead of this party's, or
//                       round more than max_rounds_ahead past the highest
//                       round this party has reached (NoteProgress)
//   Aborted             the inbox was shut down
// Take(from, iteration, round) pops the next frame from `from` and returns
// FailedPrecondition naming both positions when it is not the expected one
// (PartyTransport's contract); DeadlineExceeded naming the peer and round
// after receive_timeout; Unavailable when the peer's link ended with its
// queue empty, or when any other peer's link broke (ended other than by an
// orderly half-close: the run cannot finish without that party, so no Take
// waits for its receive timeout behind a dead party); Aborted with the
// cause after Shutdown, the failure itself after Fail.
// Counters: messages and payload bytes received per sender, and the round
// numbers that carried them (see GrpcPartyTransport::Stats).
// Thread-safety: every method may be called from any thread.
#ifndef PPLDA_NET_FRAME_INBOX_H_
#define PPLDA_NET_FRAME_INBOX_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pplda::net {

// (iteration, round) of a frame.
using FramePosition = std::pair<int, uint64_t>;

class FrameInbox {
 public:
  struct Options {
    std::string run_id;
    // Compute party names by party index; this party is party_id.
    std::vector<std::string> party_names;
    int party_id = 0;
    size_t max_payload_bytes = 0;
    // Payload bytes queued from one sender and not yet taken; at least
    // max_payload_bytes. Honest parties in lockstep queue a round or two.
    size_t max_queued_bytes = size_t{1} << 30;
    std::chrono::milliseconds receive_timeout{300000};
    uint64_t max_rounds_ahead = uint64_t{1} << 20;
    int initial_iteration = 0;
  };

  // InvalidArgument for inconsistent options (party_id out of range,
  // duplicate names, empty run id, zero payload limit, a queue limit below
  // the payload limit).
  static absl::StatusOr<std::shared_ptr<FrameInbox>> Create(Options options);

  const std::string& run_id() const { return options_.run_id; }
  int party_id() const { return options_.party_id; }
  int num_parties() const { return static_cast<int>(options_.party_names.size()); }
  const std::string& party_name(int party) const { return options_.party_names[party]; }
  // Party index of a compute party's name, or -1.
  int PartyIndex(std::string_view name) const;

  absl::Status Accept(std::string_view sender, int iteration, uint64_t round,
                      std::string payload);
  absl::StatusOr<std::vector<uint8_t>> Take(int from, int iteration, uint64_t round);

  // This party has reached (iteration, round): widens the OutOfRange window.
  void NoteProgress(int iteration, uint64_t round);
  // A stream from `from` that delivered frames started / ended; when the
  // last one ends, Take from `from` on an empty queue returns Unavailable
  // with `why` instead of waiting. An end whose `why` is not Unavailable
  // (cancelled, refused) is a broken link: Take from any party on an empty
  // queue then returns Unavailable naming `from`, until `from` reconnects.
  void LinkStarted(int from);
  void LinkEnded(int from, const absl::Status& why);

  // Wakes every Take, which then returns Aborted with `cause`'s message
  // (Cancelled when `cause` is OK); later Accepts are refused with Aborted.
  // Idempotent: the first cause stays.
  void Shutdown(const absl::Status& cause);
  // As Shutdown, but Take returns `failure` with its own code (a failed
  // link: Unavailable, PermissionDenied, ...). `failure` must not be OK.
  void Fail(const absl::Status& failure);
  // OK until Shutdown or Fail; then the status Take returns.
  absl::Status shutdown_cause() const;

  struct ReceivedTraffic {
    std::vector<uint64_t> messages;  // by sender
    std::vector<uint64_t> bytes;     // by sender
    std::set<uint64_t> rounds;       // round numbers received in
  };
  ReceivedTraffic Traffic() const;
  void ResetTraffic();

 private:
  struct Frame {
    FramePosition position;
    std::string payload;
  };
  struct Link {
    std::deque<Frame> queue;
    size_t queued_bytes = 0;
    FramePosition last_accepted{-1, 0};
    int open_streams = 0;
    bool ever_opened = false;
    absl::Status ended;  // non-OK once the last stream ended
    bool broken() const { return !ended.ok() && ended.code() != absl::StatusCode::kUnavailable; }
  };

  explicit FrameInbox(Options options);
  absl::Status CheckPeer(int from, std::string_view what) const;
  // The lowest-numbered party other than `from` whose link broke, or -1.
  int BrokenPeerOtherThan(int from) const;
  absl::Status LinkEndedError(int peer, int from, FramePosition want) const;

  const Options options_;
  mutable std::mutex mu_;
  std::condition_variable arrived_;
  std::vector<Link> links_;  // by sender
  FramePosition progress_;
  absl::Status shutdown_;  // the status Take returns once shut down
  ReceivedTraffic traffic_;
};

}  // namespace pplda::net

#endif  // PPLDA_NET_FRAME_INBOX_H_

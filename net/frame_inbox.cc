#include "net/frame_inbox.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace pplda::net {
namespace {

std::string PositionText(FramePosition p) {
  return absl::StrCat("iteration ", p.first, " round ", p.second);
}

}  // namespace

absl::StatusOr<std::shared_ptr<FrameInbox>> FrameInbox::Create(Options options) {
  const int n = static_cast<int>(options.party_names.size());
  if (options.run_id.empty()) return absl::InvalidArgumentError("frame inbox: empty run id");
  if (n < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("frame inbox: run ", options.run_id, " needs at least 2 parties"));
  }
  if (options.party_id < 0 || options.party_id >= n) {
    return absl::InvalidArgumentError(absl::StrCat("frame inbox: party id ", options.party_id,
                                                   " outside 0..", n - 1));
  }
  std::set<std::string> names(options.party_names.begin(), options.party_names.end());
  if (names.size() != options.party_names.size() || names.count("") > 0) {
    return absl::InvalidArgumentError("frame inbox: party names must be distinct and non-empty");
  }
  if (options.max_payload_bytes == 0) {
    return absl::InvalidArgumentError("frame inbox: max_payload_bytes must be positive");
  }
  if (options.max_queued_bytes < options.max_payload_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("frame inbox: max_queued_bytes (", options.max_queued_bytes,
                     ") is below max_payload_bytes (", options.max_payload_bytes, ")"));
  }
  if (options.initial_iteration < 0) {
    return absl::InvalidArgumentError("frame inbox: negative initial iteration");
  }
  return std::shared_ptr<FrameInbox>(new FrameInbox(std::move(options)));
}

FrameInbox::FrameInbox(Options options)
    : options_(std::move(options)),
      links_(options_.party_names.size()),
      progress_(options_.initial_iteration, 0) {
  traffic_.messages.assign(links_.size(), 0);
  traffic_.bytes.assign(links_.size(), 0);
}

int FrameInbox::PartyIndex(std::string_view name) const {
  for (size_t i = 0; i < options_.party_names.size(); ++i) {
    if (options_.party_names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

absl::Status FrameInbox::CheckPeer(int from, std::string_view what_view) const {
  const std::string what(what_view);
  if (from < 0 || from >= num_parties() || from == party_id()) {
    return absl::InvalidArgumentError(
        absl::StrCat("party ", party_id(), " cannot ", what, " party ", from,
                     " (peers are 0..", num_parties() - 1, ", excluding itself)"));
  }
  return absl::OkStatus();
}

absl::Status FrameInbox::Accept(std::string_view sender_name, int iteration, uint64_t round,
                                std::string payload) {
  const std::string sender(sender_name);
  const int from = PartyIndex(sender);
  if (from < 0) {
    return absl::PermissionDeniedError(absl::StrCat(
        "\"", sender, "\" is not a compute party of run ", run_id()));
  }
  if (from == party_id()) {
    return absl::PermissionDeniedError(
        absl::StrCat("\"", sender, "\" sent a frame to itself in run ", run_id()));
  }
  if (payload.size() > options_.max_payload_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "frame of ", payload.size(), " payload bytes from ", sender, " exceeds run ", run_id(),
        "'s limit of ", options_.max_payload_bytes));
  }
  const FramePosition position{iteration, round};
  std::lock_guard<std::mutex> lock(mu_);
  if (!shutdown_.ok()) {
    return absl::AbortedError(absl::StrCat("run ", run_id(), " has stopped at this party: ",
                                           shutdown_.message()));
  }
  Link& link = links_[from];
  if (position <= link.last_accepted) {
    return absl::FailedPreconditionError(absl::StrCat(
        "frame of ", PositionText(position), " from ", sender, " in run ", run_id(),
        " is not after its last accepted one (", PositionText(link.last_accepted),
        "): replayed, repeated or reordered"));
  }
  if (iteration > progress_.first + 1 ||
      round > progress_.second + options_.max_rounds_ahead) {
    return absl::OutOfRangeError(absl::StrCat(
        "frame of ", PositionText(position), " from ", sender, " in run ", run_id(),
        " is implausibly far ahead of this party (at ", PositionText(progress_),
        "; at most one iteration and ", options_.max_rounds_ahead, " rounds ahead)"));
  }
  if (link.queued_bytes + payload.size() > options_.max_queued_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "frame of ", PositionText(position), " from ", sender, " in run ", run_id(), ": ",
        link.queued_bytes, " bytes from ", sender, " are already waiting at this party (at ",
        PositionText(progress_), "), and ", payload.size(), " more would exceed the limit of ",
        options_.max_queued_bytes));
  }
  link.last_accepted = position;
  link.queued_bytes += payload.size();
  traffic_.messages[from] += 1;
  traffic_.bytes[from] += payload.size();
  traffic_.rounds.insert(round);
  link.queue.push_back(Frame{position, std::move(payload)});
  arrived_.notify_all();
  return absl::OkStatus();
}

absl::StatusOr<std::vector<uint8_t>> FrameInbox::Take(int from, int iteration, uint64_t round) {
  if (absl::Status s = CheckPeer(from, "receive from"); !s.ok()) return s;
  const FramePosition want{iteration, round};
  std::unique_lock<std::mutex> lock(mu_);
  Link& link = links_[from];
  arrived_.wait_for(lock, options_.receive_timeout, [&] {
    return !link.queue.empty() || !shutdown_.ok() || !link.ended.ok() ||
           BrokenPeerOtherThan(from) >= 0;
  });
  if (!link.queue.empty()) {
    Frame frame = std::move(link.queue.front());
    link.queue.pop_front();
    link.queued_bytes -= frame.payload.size();
    if (frame.position != want) {
      return absl::FailedPreconditionError(absl::StrCat(
          "party ", party_id(), " expected the message of ", PositionText(want), " from party ",
          from, " (", party_name(from), ") but received one of ", PositionText(frame.position),
          " (a message was skipped or sent twice)"));
    }
    return std::vector<uint8_t>(frame.payload.begin(), frame.payload.end());
  }
  if (!shutdown_.ok()) return shutdown_;
  if (!link.ended.ok()) return LinkEndedError(from, from, want);
  if (const int broken = BrokenPeerOtherThan(from); broken >= 0) {
    return LinkEndedError(broken, from, want);
  }
  return absl::DeadlineExceededError(absl::StrCat(
      "party ", party_id(), " (", party_name(party_id()), ") waited ",
      options_.receive_timeout.count(), " ms for party ", from, " (", party_name(from),
      ")'s message of ", PositionText(want), " in run ", run_id()));
}

int FrameInbox::BrokenPeerOtherThan(int from) const {
  for (int p = 0; p < num_parties(); ++p) {
    if (p != from && links_[p].broken()) return p;
  }
  return -1;
}

absl::Status FrameInbox::LinkEndedError(int peer, int from, FramePosition want) const {
  const std::string what =
      peer == from ? absl::StrCat("before sending its message of ", PositionText(want))
                   : absl::StrCat("while this party waited for party ", from, " (",
                                  party_name(from), ")'s message of ", PositionText(want));
  return absl::UnavailableError(absl::StrCat("party ", peer, " (", party_name(peer),
                                             ") closed its link ", what, ": ",
                                             links_[peer].ended.message()));
}

void FrameInbox::NoteProgress(int iteration, uint64_t round) {
  std::lock_guard<std::mutex> lock(mu_);
  progress_.first = std::max(progress_.first, iteration);
  progress_.second = std::max(progress_.second, round);
}

void FrameInbox::LinkStarted(int from) {
  if (from < 0 || from >= num_parties()) return;
  std::lock_guard<std::mutex> lock(mu_);
  Link& link = links_[from];
  link.open_streams += 1;
  link.ever_opened = true;
  link.ended = absl::OkStatus();
}

void FrameInbox::LinkEnded(int from, const absl::Status& why) {
  if (from < 0 || from >= num_parties()) return;
  std::lock_guard<std::mutex> lock(mu_);
  Link& link = links_[from];
  if (link.open_streams > 0) link.open_streams -= 1;
  if (link.open_streams == 0 && link.ever_opened) {
    link.ended = why.ok() ? absl::UnavailableError("the stream ended") : why;
    arrived_.notify_all();
  }
}

void FrameInbox::Shutdown(const absl::Status& cause) {
  std::lock_guard<std::mutex> lock(mu_);
  if (shutdown_.ok()) {
    shutdown_ = absl::AbortedError(absl::StrCat(
        "run ", run_id(), " was shut down: ", cause.ok() ? "cancelled" : cause.message()));
  }
  arrived_.notify_all();
}

void FrameInbox::Fail(const absl::Status& failure) {
  std::lock_guard<std::mutex> lock(mu_);
  if (shutdown_.ok()) {
    shutdown_ = failure.ok() ? absl::UnknownError(absl::StrCat("run ", run_id(), " failed"))
                             : failure;
  }
  arrived_.notify_all();
}

absl::Status FrameInbox::shutdown_cause() const {
  std::lock_guard<std::mutex> lock(mu_);
  return shutdown_;
}

FrameInbox::ReceivedTraffic FrameInbox::Traffic() const {
  std::lock_guard<std::mutex> lock(mu_);
  return traffic_;
}

void FrameInbox::ResetTraffic() {
  std::lock_guard<std::mutex> lock(mu_);
  traffic_.messages.assign(links_.size(), 0);
  traffic_.bytes.assign(links_.size(), 0);
  traffic_.rounds.clear();
}

}  // namespace pplda::net

#include "net/frame_inbox.h"

#include <thread>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::net {
namespace {

using ::testing::HasSubstr;

std::shared_ptr<FrameInbox> MakeInbox(std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  FrameInbox::Options o;
  o.run_id = "run-1";
  o.party_names = {"p0", "p1", "p2"};
  o.party_id = 0;
  o.max_payload_bytes = 100;
  o.receive_timeout = timeout;
  o.max_rounds_ahead = 1000;
  return FrameInbox::Create(o).value();
}

std::vector<uint8_t> Bytes(std::string_view s) { return {s.begin(), s.end()}; }

TEST(FrameInboxTest, DeliversInOrderPerSender) {
  auto inbox = MakeInbox();
  ASSERT_TRUE(inbox->Accept("p1", 0, 1, "a").ok());
  ASSERT_TRUE(inbox->Accept("p2", 0, 1, "b").ok());
  ASSERT_TRUE(inbox->Accept("p1", 0, 2, "c").ok());
  EXPECT_EQ(*inbox->Take(2, 0, 1), Bytes("b"));
  EXPECT_EQ(*inbox->Take(1, 0, 1), Bytes("a"));
  EXPECT_EQ(*inbox->Take(1, 0, 2), Bytes("c"));
  const FrameInbox::ReceivedTraffic t = inbox->Traffic();
  EXPECT_EQ(t.messages[1], 2u);
  EXPECT_EQ(t.bytes[2], 1u);
  EXPECT_EQ(t.rounds.size(), 2u);
}

TEST(FrameInboxTest, TakeWaitsForALaterFrame) {
  auto inbox = MakeInbox();
  std::thread sender([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_TRUE(inbox->Accept("p2", 0, 1, "late").ok());
  });
  EXPECT_EQ(*inbox->Take(2, 0, 1), Bytes("late"));
  sender.join();
}

TEST(FrameInboxTest, RefusalsLeaveTheQueuesIntact) {
  auto inbox = MakeInbox();
  ASSERT_TRUE(inbox->Accept("p1", 0, 5, "five").ok());
  EXPECT_EQ(inbox->Accept("mallory", 0, 6, "x").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(inbox->Accept("p0", 0, 6, "x").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(inbox->Accept("p1", 0, 6, std::string(101, 'x')).code(),
            absl::StatusCode::kResourceExhausted);
  const absl::Status replay = inbox->Accept("p1", 0, 5, "again");
  EXPECT_EQ(replay.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(replay.message(), HasSubstr("not after its last accepted one"));
  EXPECT_EQ(inbox->Accept("p1", 0, 4, "older").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(inbox->Accept("p1", 0, 5000, "far").code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(inbox->Accept("p1", 2, 6, "iteration+2").code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(*inbox->Take(1, 0, 5), Bytes("five"));
  EXPECT_EQ(inbox->Traffic().messages[1], 1u);
  // The next iteration is fine, and rounds may restart in it.
  ASSERT_TRUE(inbox->Accept("p1", 1, 1, "it1").ok());
  EXPECT_EQ(*inbox->Take(1, 1, 1), Bytes("it1"));
}

TEST(FrameInboxTest, ProgressWidensTheWindow) {
  auto inbox = MakeInbox();
  EXPECT_EQ(inbox->Accept("p1", 0, 1500, "x").code(), absl::StatusCode::kOutOfRange);
  inbox->NoteProgress(0, 600);
  EXPECT_TRUE(inbox->Accept("p1", 0, 1500, "x").ok());
}

TEST(FrameInboxTest, WrongRoundAtTakeIsFailedPrecondition) {
  auto inbox = MakeInbox();
  ASSERT_TRUE(inbox->Accept("p1", 0, 3, "x").ok());
  const absl::StatusOr<std::vector<uint8_t>> got = inbox->Take(1, 0, 2);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(got.status().message(), HasSubstr("round 2"));
  EXPECT_THAT(got.status().message(), HasSubstr("round 3"));
}

TEST(FrameInboxTest, TimeoutNamesPeerAndRound) {
  auto inbox = MakeInbox(std::chrono::milliseconds(20));
  const absl::Status s = inbox->Take(2, 0, 7).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(s.message(), HasSubstr("p2"));
  EXPECT_THAT(s.message(), HasSubstr("round 7"));
  EXPECT_EQ(inbox->Take(0, 0, 7).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(inbox->Take(3, 0, 7).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(FrameInboxTest, ShutdownWakesTakeWithItsCause) {
  auto inbox = MakeInbox(std::chrono::seconds(30));
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    inbox->Shutdown(absl::InternalError("party 2 failed"));
  });
  const absl::Status s = inbox->Take(1, 0, 1).status();
  stopper.join();
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted);
  EXPECT_THAT(s.message(), HasSubstr("party 2 failed"));
  EXPECT_EQ(inbox->Accept("p1", 0, 1, "x").code(), absl::StatusCode::kAborted);
}

TEST(FrameInboxTest, FailKeepsTheFailuresCode) {
  auto inbox = MakeInbox(std::chrono::seconds(30));
  inbox->Fail(absl::PermissionDeniedError("party 1 presented the wrong certificate"));
  inbox->Shutdown(absl::InternalError("later"));  // the first cause stays
  const absl::Status s = inbox->Take(1, 0, 1).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(s.message(), HasSubstr("wrong certificate"));
  EXPECT_EQ(inbox->shutdown_cause().code(), absl::StatusCode::kPermissionDenied);
}

TEST(FrameInboxTest, EndedLinkMakesTakeUnavailableOnceDrained) {
  auto inbox = MakeInbox(std::chrono::seconds(30));
  ASSERT_TRUE(inbox->Accept("p1", 0, 1, "last").ok());
  inbox->LinkStarted(1);
  inbox->LinkEnded(1, absl::CancelledError("peer gone"));
  EXPECT_EQ(*inbox->Take(1, 0, 1), Bytes("last"));
  const absl::Status s = inbox->Take(1, 0, 2).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(s.message(), HasSubstr("peer gone"));
  // A link that never delivered anything does not end anything.
  inbox->LinkEnded(2, absl::CancelledError("stray"));
  ASSERT_TRUE(inbox->Accept("p2", 0, 1, "x").ok());
  EXPECT_TRUE(inbox->Take(2, 0, 1).ok());
}

// The case of a killed party: this party waits for a live party's message
// (the live one failed on the dead one and will never send it); the dead
// party's broken link must end that wait at once, naming the dead party.
TEST(FrameInboxTest, BrokenLinkOfAnotherPartyEndsAWaitForALiveOne) {
  auto inbox = MakeInbox(std::chrono::seconds(60));
  ASSERT_TRUE(inbox->Accept("p1", 0, 1, "a").ok());
  ASSERT_TRUE(inbox->Accept("p2", 0, 1, "b").ok());
  inbox->LinkStarted(1);
  inbox->LinkStarted(2);
  std::thread breaker([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    inbox->LinkEnded(2, absl::CancelledError("its stream was cancelled"));
  });
  EXPECT_EQ(*inbox->Take(1, 0, 1), Bytes("a"));  // queued frames still come first
  const auto started = std::chrono::steady_clock::now();
  const absl::Status s = inbox->Take(1, 0, 2).status();
  breaker.join();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(s.message(), HasSubstr("party 2 (p2) closed its link while this party waited for "
                                     "party 1 (p1)'s message of iteration 0 round 2"));
  EXPECT_THAT(s.message(), HasSubstr("cancelled"));
  EXPECT_EQ(*inbox->Take(2, 0, 1), Bytes("b"));
  // The broken party reconnecting clears it.
  inbox->LinkStarted(2);
  ASSERT_TRUE(inbox->Accept("p1", 0, 2, "c").ok());
  EXPECT_EQ(*inbox->Take(1, 0, 2), Bytes("c"));
}

// An orderly half-close (a party that finished and closed) ends only the
// waits for that party's own messages.
TEST(FrameInboxTest, HalfClosedLinkDoesNotEndWaitsForOthers) {
  auto inbox = MakeInbox(std::chrono::milliseconds(300));
  inbox->LinkStarted(2);
  inbox->LinkEnded(2, absl::UnavailableError("it half-closed its stream"));
  EXPECT_EQ(inbox->Take(1, 0, 1).status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(inbox->Take(2, 0, 1).status().code(), absl::StatusCode::kUnavailable);
}

TEST(FrameInboxTest, CreateValidates) {
  FrameInbox::Options o;
  o.run_id = "r";
  o.party_names = {"a", "a"};
  o.max_payload_bytes = 1;
  EXPECT_EQ(FrameInbox::Create(o).status().code(), absl::StatusCode::kInvalidArgument);
  o.party_names = {"a", "b"};
  o.party_id = 2;
  EXPECT_EQ(FrameInbox::Create(o).status().code(), absl::StatusCode::kInvalidArgument);
  o.party_id = 1;
  o.run_id = "";
  EXPECT_EQ(FrameInbox::Create(o).status().code(), absl::StatusCode::kInvalidArgument);
  o.run_id = "r";
  o.max_payload_bytes = 10;
  o.max_queued_bytes = 9;
  const absl::Status small_queue = FrameInbox::Create(o).status();
  EXPECT_EQ(small_queue.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(small_queue.message(), HasSubstr("max_queued_bytes"));
  o.max_queued_bytes = 10;
  EXPECT_TRUE(FrameInbox::Create(o).ok());
}

TEST(FrameInboxTest, SenderFarAheadIsRefusedOnceItsQueueIsFullAndAcceptedAfterATake) {
  FrameInbox::Options o;
  o.run_id = "run-1";
  o.party_names = {"p0", "p1", "p2"};
  o.max_payload_bytes = 10;
  o.max_queued_bytes = 25;
  auto inbox = FrameInbox::Create(o).value();
  ASSERT_TRUE(inbox->Accept("p1", 0, 1, std::string(10, 'a')).ok());
  ASSERT_TRUE(inbox->Accept("p1", 0, 2, std::string(10, 'b')).ok());
  const absl::Status full = inbox->Accept("p1", 0, 3, std::string(10, 'c'));
  EXPECT_EQ(full.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(full.message(), HasSubstr("20 bytes from p1 are already waiting"));
  // Another sender has its own queue; the refused frame left p1's intact.
  ASSERT_TRUE(inbox->Accept("p2", 0, 1, std::string(10, 'x')).ok());
  EXPECT_TRUE(inbox->Accept("p1", 0, 3, std::string(5, 'c')).ok());
  EXPECT_EQ(inbox->Accept("p1", 0, 4, std::string(1, 'd')).code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(*inbox->Take(1, 0, 1), Bytes(std::string(10, 'a')));
  EXPECT_TRUE(inbox->Accept("p1", 0, 4, std::string(10, 'd')).ok());
  EXPECT_EQ(*inbox->Take(1, 0, 2), Bytes(std::string(10, 'b')));
  EXPECT_EQ(*inbox->Take(1, 0, 3), Bytes(std::string(5, 'c')));
  EXPECT_EQ(*inbox->Take(1, 0, 4), Bytes(std::string(10, 'd')));
  EXPECT_EQ(inbox->Traffic().messages[1], 4u);
}

}  // namespace
}  // namespace pplda::net

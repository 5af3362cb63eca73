#include "coordinator/concurrent_party_calls.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "gtest/gtest.h"

namespace pplda::coordinator {
namespace {

using Clock = std::chrono::steady_clock;

// A party call that blocks until released (what a live party's Iterate does
// while it waits for a dead party's messages until the coordinator aborts).
class Blocker {
 public:
  absl::Status Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    released_.wait(lock, [&] { return released_flag_; });
    return absl::AbortedError("aborted by the coordinator");
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mu_);
    released_flag_ = true;
    released_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable released_;
  bool released_flag_ = false;
};

TEST(CallEveryPartyTest, AllSucceedWithoutStopping) {
  std::atomic<int> calls{0}, dones{0};
  bool stopped = false;
  const std::vector<absl::Status> results = CallEveryParty(
      4,
      [&](int) {
        ++calls;
        return absl::OkStatus();
      },
      std::chrono::milliseconds(10), [&](const absl::Status&) { stopped = true; },
      [&](int) { ++dones; });
  ASSERT_EQ(results.size(), 4u);
  for (const absl::Status& s : results) EXPECT_TRUE(s.ok());
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(dones, 4);
  EXPECT_FALSE(stopped);
}

TEST(CallEveryPartyTest, SlowPartyIsWaitedForWithoutAFailure) {
  bool stopped = false;
  const std::vector<absl::Status> results = CallEveryParty(
      2,
      [&](int p) {
        if (p == 1) std::this_thread::sleep_for(std::chrono::milliseconds(300));
        return absl::OkStatus();
      },
      std::chrono::milliseconds(10), [&](const absl::Status&) { stopped = true; });
  EXPECT_TRUE(results[0].ok() && results[1].ok());
  EXPECT_FALSE(stopped);
}

// The killed-party case: party 1 fails, party 0 fails naming it soon after,
// party 2 would wait forever; after the grace, the rest are stopped once,
// with party 1's failure, and every result is kept.
TEST(CallEveryPartyTest, FailureStopsTheRestAfterTheGrace) {
  Blocker blocker;
  std::atomic<int> stops{0};
  absl::Status stop_cause;
  const Clock::time_point start = Clock::now();
  const std::vector<absl::Status> results = CallEveryParty(
      3,
      [&](int p) -> absl::Status {
        if (p == 1) return absl::UnavailableError("Socket closed");
        if (p == 0) {
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
          return absl::UnavailableError("party 1 (middle) closed its link");
        }
        return blocker.Wait();
      },
      std::chrono::milliseconds(500),
      [&](const absl::Status& first) {
        ++stops;
        stop_cause = first;
        blocker.Release();
      });
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(stops, 1);
  EXPECT_EQ(stop_cause.message(), "Socket closed");
  EXPECT_GE(seconds, 0.5);  // the grace was given
  EXPECT_LT(seconds, 30);
  EXPECT_EQ(results[0].code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(results[1].code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(results[2].code(), absl::StatusCode::kAborted);
}

// When the others end within the grace, nobody is stopped.
TEST(CallEveryPartyTest, NoStopWhenTheOthersEndWithinTheGrace) {
  std::atomic<int> stops{0};
  const std::vector<absl::Status> results = CallEveryParty(
      3,
      [&](int p) -> absl::Status {
        if (p == 2) return absl::InternalError("boom");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return absl::OkStatus();
      },
      std::chrono::seconds(20), [&](const absl::Status&) { ++stops; });
  EXPECT_EQ(stops, 0);
  EXPECT_TRUE(results[0].ok());
  EXPECT_EQ(results[2].message(), "boom");
}

}  // namespace
}  // namespace pplda::coordinator

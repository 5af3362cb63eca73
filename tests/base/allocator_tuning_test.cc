#include "base/allocator_tuning.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace pplda {
namespace {

long ThreadMinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

// Allocates, fills and frees buffers of the engine's sizes (2-4 MiB and
// 20 MiB) in rounds; returns the most page faults one round caused.
long WorstFaultsPerRound() {
  long worst = 0;
  long checksum = 0;
  {
    std::vector<char> warm(24 << 20);
    std::memset(warm.data(), 1, warm.size());
    checksum += warm[12345];
  }
  for (int round = 0; round < 20; ++round) {
    const long before = ThreadMinorFaults();
    std::vector<char> message(static_cast<size_t>((round % 3) + 2) << 20);
    std::vector<char> shares(20 << 20);
    std::memset(message.data(), round, message.size());
    std::memset(shares.data(), round, shares.size());
    checksum += message[round] + shares[shares.size() - 1 - round];
    worst = std::max(worst, ThreadMinorFaults() - before);
  }
  EXPECT_GE(checksum, 0);  // keeps the buffers observable
  return worst;
}

TEST(AllocatorTuningTest, OperatorTunablesWin) {
  const char* old = std::getenv("GLIBC_TUNABLES");
  const std::string saved = old == nullptr ? "" : old;
  setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=4", 1);
  EXPECT_FALSE(KeepFreedBuffersForReuse());
  if (old == nullptr) {
    unsetenv("GLIBC_TUNABLES");
  } else {
    setenv("GLIBC_TUNABLES", saved.c_str(), 1);
  }
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
TEST(AllocatorTuningTest, DISABLED_FreedBuffersAreReusedWithoutPageFaults) {}
#else
// Without the tuning a worker thread's 20 MiB buffer faults in about 5,000
// fresh pages every round (glibc unmaps the emptied per-thread heap); with
// it, none beyond a few pages of bookkeeping.
TEST(AllocatorTuningTest, FreedBuffersAreReusedWithoutPageFaults) {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables != nullptr && std::strstr(tunables, "glibc.malloc.") != nullptr) {
    GTEST_SKIP() << "GLIBC_TUNABLES sets malloc tunables: the tuning is skipped by design";
  }
  ASSERT_TRUE(KeepFreedBuffersForReuse());
  long worker_worst = -1;
  std::thread worker([&] { worker_worst = WorstFaultsPerRound(); });
  worker.join();
  EXPECT_LT(worker_worst, 64) << "page faults in one round of a worker thread";
  EXPECT_LT(WorstFaultsPerRound(), 64) << "page faults in one round of the main thread";
}
#endif

}  // namespace
}  // namespace pplda

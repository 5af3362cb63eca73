#include "crypto/random/buffered_rng.h"

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

// Requests of every size, across buffer boundaries and larger than the
// buffer, get exactly the inner generator's stream, in order.
TEST(BufferedRngTest, ServesTheInnerStreamInOrder) {
  SeededRng inner(11), reference(11);
  BufferedRng buffered(inner);
  std::vector<uint8_t> got, want;
  for (size_t size : {1u, 7u, 8u, 4000u, 200u, 4096u, 10000u, 3u, 0u, 8191u}) {
    std::vector<uint8_t> part(size);
    buffered.Fill(absl::MakeSpan(part));
    got.insert(got.end(), part.begin(), part.end());
  }
  want.resize(got.size());
  reference.Fill(absl::MakeSpan(want));
  EXPECT_EQ(got, want);
  // The helpers draw through Fill too.
  SeededRng inner2(12), reference2(12);
  BufferedRng buffered2(inner2);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(buffered2.NextUint64(), reference2.NextUint64());
}

// Two threads drawing at once get disjoint parts of the stream: together,
// every 8-byte word of it exactly once.
TEST(BufferedRngTest, ConcurrentDrawsSplitTheStream) {
  SeededRng inner(13), reference(13);
  BufferedRng buffered(inner);
  constexpr int kPerThread = 20000;
  std::vector<uint64_t> a(kPerThread), b(kPerThread);
  std::thread ta([&] { for (uint64_t& v : a) v = buffered.NextUint64(); });
  std::thread tb([&] { for (uint64_t& v : b) v = buffered.NextUint64(); });
  ta.join();
  tb.join();
  std::vector<uint64_t> got = a, want(2 * kPerThread);
  got.insert(got.end(), b.begin(), b.end());
  for (uint64_t& v : want) v = reference.NextUint64();
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace pplda::crypto

// The term bucket's paths: on random packed lists the AVX2 path gives the
// scalar path's running sums bit for bit (so runs do not depend on the CPU),
// both match a plain sequential sum to rounding, and both find the token's
// own topic and discount it.
#include "lda/term_bucket.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "lda/random.h"

namespace pplda::lda {
namespace {

struct RandomList {
  std::vector<uint32_t> entries;
  std::vector<double> coef;
  int own = -1;
};

// n entries (a multiple of 4, the last few sentinels) over K topics.
RandomList MakeList(Rng& rng, int32_t n, int k, int topic_bits) {
  RandomList r;
  r.coef.resize(k + 1);
  for (int t = 0; t < k; ++t) r.coef[t] = 1e-4 * (1 + static_cast<double>(rng.Below(1000)));
  r.coef[k] = 0;  // the sentinel's
  const int32_t real = n - static_cast<int32_t>(rng.Below(4));
  std::vector<bool> used(k, false);
  for (int32_t j = 0; j < n; ++j) {
    uint32_t topic = static_cast<uint32_t>(k), count = 0;
    if (j < real) {
      do topic = rng.Below(static_cast<uint32_t>(k)); while (used[topic]);
      used[topic] = true;
      count = 1 + rng.Below(5000);
    }
    r.entries.push_back(count << topic_bits | topic);
  }
  r.own = rng.Below(2) == 0 ? static_cast<int>(r.entries[rng.Below(static_cast<uint32_t>(real))] &
                                               ((1u << topic_bits) - 1))
                            : -1;
  return r;
}

TEST(TermBucketTest, PathsAgreeBitForBitAndMatchASequentialSum) {
  Rng rng(7);
  const int k = 300, topic_bits = 9;
  const bool avx2 = TermBucketHasAvx2();
  if (!avx2) std::printf("no AVX2 on this CPU: only the scalar path is checked\n");
  for (int trial = 0; trial < 500; ++trial) {
    const int32_t n = 4 * static_cast<int32_t>(1 + rng.Below(40));
    const RandomList r = MakeList(rng, n, k, topic_bits);
    const PackedList<uint32_t> list{r.entries.data(), n, topic_bits, (1u << topic_bits) - 1};
    std::vector<double> scalar(n), fast(n);
    const TermBucketSum a = SumTermBucket(list, r.own, r.coef.data(), scalar.data(), false);
    const TermBucketSum b = SumTermBucket(list, r.own, r.coef.data(), fast.data(), avx2);
    ASSERT_EQ(a.own_index, b.own_index);
    ASSERT_EQ(a.total, b.total) << "n = " << n;
    double sum = 0;
    int32_t own_index = -1;
    for (int32_t j = 0; j < n; ++j) {
      ASSERT_EQ(scalar[j], fast[j]) << "entry " << j << " of " << n;
      const int topic = static_cast<int>(r.entries[j] & list.topic_mask);
      const int64_t count = (r.entries[j] >> topic_bits) - (topic == r.own ? 1 : 0);
      if (topic == r.own) own_index = j;
      sum += static_cast<double>(count) * r.coef[topic];
      EXPECT_NEAR(scalar[j], sum, 1e-12 * sum);
    }
    EXPECT_EQ(a.own_index, own_index);
    EXPECT_EQ(a.total, scalar[n - 1]);
    const double u = sum * (static_cast<double>(rng.Below(1000)) / 1000.0);
    int32_t below = 0;
    for (const double x : scalar) below += x <= u ? 1 : 0;
    EXPECT_EQ(CountAtOrBelow(scalar.data(), n, u, false), below);
    EXPECT_EQ(CountAtOrBelow(scalar.data(), n, u, avx2), below);
  }
}

TEST(TermBucketTest, OwnTopicIsDiscountedByOne) {
  const int topic_bits = 3;
  const std::vector<uint32_t> entries = {5u << topic_bits | 2, 1u << topic_bits | 0,
                                         3u << topic_bits | 1, 0u << topic_bits | 7};
  const std::vector<double> coef = {1, 10, 100, 0, 0, 0, 0, 0};
  std::vector<double> running(4);
  const TermBucketSum s =
      SumTermBucket(PackedList<uint32_t>{entries.data(), 4, topic_bits, 7u}, 1, coef.data(),
                    running.data(), TermBucketHasAvx2());
  EXPECT_EQ(s.own_index, 2);
  EXPECT_EQ(s.total, 5 * 100 + 1 * 1 + 2 * 10);
  EXPECT_EQ(running, (std::vector<double>{500, 501, 521, 521}));
}

}  // namespace
}  // namespace pplda::lda

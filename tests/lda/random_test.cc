#include "lda/random.h"

#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace pplda::lda {
namespace {

TEST(RngTest, SameSeedSameStream) {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differs |= x != c.Next();
  }
  EXPECT_TRUE(differs);
}

TEST(RngTest, StreamsAreDistinct) {
  std::set<uint64_t> first_words;
  for (uint64_t a : std::vector<uint64_t>{0, 1, kBatchedStreams, kFoldInStreams}) {
    for (uint64_t b = 0; b < 50; ++b) first_words.insert(Rng::ForStream(7, a, b).Next());
  }
  EXPECT_EQ(first_words.size(), 200u);
  EXPECT_EQ(Rng::ForStream(7, 1, 2).Next(), Rng::ForStream(7, 1, 2).Next());
  EXPECT_NE(Rng::ForStream(7, 1, 2).Next(), Rng::ForStream(8, 1, 2).Next());
}

TEST(RngTest, UniformIsInTheUnitInterval) {
  Rng rng(1);
  double sum = 0;
  for (int i = 0; i < 100000; ++i) {
    const double u = rng.Uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  // Mean of 10^5 uniforms: sd 0.00091; 5 sd.
  EXPECT_NEAR(sum / 100000, 0.5, 0.0046);
}

TEST(RngTest, BelowIsInRangeAndUniform) {
  Rng rng(3);
  for (uint32_t n : {1u, 2u, 7u, 1000u, 0xffffffffu}) {
    for (int i = 0; i < 1000; ++i) ASSERT_LT(rng.Below(n), n);
  }
  // Chi-square over 7 cells (6 df) of 70000 draws; 99.99% quantile 27.9.
  std::vector<int> counts(7, 0);
  for (int i = 0; i < 70000; ++i) ++counts[rng.Below(7)];
  double chi = 0;
  for (int c : counts) chi += (c - 10000.0) * (c - 10000.0) / 10000.0;
  EXPECT_LT(chi, 27.9);
}

}  // namespace
}  // namespace pplda::lda

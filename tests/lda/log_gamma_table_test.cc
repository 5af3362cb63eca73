// LogGammaTable gives std::lgamma's exact values, inside the table and past
// its end.
#include "lda/log_gamma_table.h"

#include <cmath>
#include <cstdint>

#include "gtest/gtest.h"

namespace pplda::lda {
namespace {

TEST(LogGammaTableTest, EqualsLgammaInsideAndPastTheTable) {
  for (const double offset : {0.01, 0.1, 0.5, 1.0, 203.82}) {
    const LogGammaTable table(offset, 100);
    EXPECT_EQ(table.offset(), offset);
    for (const int64_t n : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{100}, int64_t{101},
                            int64_t{1} << 20, int64_t{1} << 40}) {
      EXPECT_EQ(table(n), std::lgamma(static_cast<double>(n) + offset)) << offset << " " << n;
    }
  }
}

TEST(LogGammaTableTest, HugeOrNegativeMaxCountsStillGiveATable) {
  const LogGammaTable huge(0.1, int64_t{1} << 50);  // capped, not 2^50 entries
  EXPECT_EQ(huge((int64_t{1} << 16) + 3), std::lgamma(65539.1));
  const LogGammaTable none(0.1, -1);
  EXPECT_EQ(none(0), std::lgamma(0.1));
  EXPECT_EQ(none(5), std::lgamma(5.1));
}

}  // namespace
}  // namespace pplda::lda

#include "lda/reciprocal_table.h"

#include <cstdint>

#include "gtest/gtest.h"

namespace pplda::lda {
namespace {

// The table must give exactly the division's double (the sparse sampler's
// runs do not depend on it), inside the table and past its end.
TEST(ReciprocalTableTest, LookupsEqualTheDivisionInAndPastTheTable) {
  const double v_beta = 20382 * 0.01;
  const ReciprocalTable table(v_beta, 1000);
  for (const int64_t n : {int64_t{0}, int64_t{1}, int64_t{999}, int64_t{1000}, int64_t{1001},
                          int64_t{1} << 30}) {
    EXPECT_EQ(table(n), 1.0 / (static_cast<double>(n) + v_beta)) << n;
  }
  EXPECT_EQ(table.Less(1), 1.0 / v_beta);
  EXPECT_EQ(table.Less(500), 1.0 / (499.0 + v_beta));
  EXPECT_EQ(table.Less(0), 0.0);
}

TEST(ReciprocalTableTest, SizeIsCappedForHugeCorpora) {
  // A corpus of 2^40 tokens must not allocate 2^40 entries; lookups past the
  // cap divide.
  const ReciprocalTable table(1.5, int64_t{1} << 40);
  const int64_t past = ReciprocalTable::kMaxReciprocals + 7;
  EXPECT_EQ(table(past), 1.0 / (static_cast<double>(past) + 1.5));
}

}  // namespace
}  // namespace pplda::lda

// report/csv_export.h: header, order, quoting and the top-terms limit.
#include "report/csv_export.h"

#include <string>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"
#include "tests/report/report_test_util.h"

namespace pplda::report {
namespace {

using ::pplda::crypto::testing::StatusIs;
using ::pplda::report::testing::MakeModel;

TEST(TopicTermCsvTest, EveryPairByDecreasingPhi) {
  const lda::LdaModel m = MakeModel({"a", "b,c", "say \"hi\""}, {{1, 5, 3}, {7, 0, 0}});
  ASSERT_OK_AND_ASSIGN(std::string csv, TopicTermCsv(m));
  const std::vector<std::string> lines = absl::StrSplit(csv, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0], "topic,rank,term,count,phi");
  // phi(0, .) = (n + 0.01) / 9.03.
  EXPECT_EQ(lines[1], absl::StrFormat("0,1,\"b,c\",5,%.8g", 5.01 / 9.03));
  EXPECT_EQ(lines[2], absl::StrFormat("0,2,\"say \"\"hi\"\"\",3,%.8g", 3.01 / 9.03));
  EXPECT_EQ(lines[3], absl::StrFormat("0,3,a,1,%.8g", 1.01 / 9.03));
  EXPECT_EQ(lines[4], absl::StrFormat("1,1,a,7,%.8g", 7.01 / 7.03));
  // Ties (both 0): lower term id first.
  EXPECT_THAT(lines[5], ::testing::StartsWith("1,2,\"b,c\",0,"));
  EXPECT_THAT(lines[6], ::testing::StartsWith("1,3,\"say"));
}

TEST(TopicTermCsvTest, TopTermsLimit) {
  const lda::LdaModel m = MakeModel({"a", "b", "c"}, {{1, 5, 3}, {7, 0, 0}});
  ASSERT_OK_AND_ASSIGN(std::string csv, TopicTermCsv(m, 1));
  EXPECT_EQ(csv, absl::StrFormat("topic,rank,term,count,phi\n0,1,b,5,%.8g\n1,1,a,7,%.8g\n",
                                 5.01 / 9.03, 7.01 / 7.03));
  EXPECT_THAT(TopicTermCsv(m, -1), StatusIs(absl::StatusCode::kInvalidArgument, "top_terms"));
}

}  // namespace
}  // namespace pplda::report

#include "base/progress.h"

#include <cstdio>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda {
namespace {

using ::testing::HasSubstr;

std::string ReadAll(std::FILE* f) {
  std::rewind(f);
  std::string s;
  char buf[512];
  while (size_t n = std::fread(buf, 1, sizeof buf, f)) s.append(buf, n);
  return s;
}

TEST(ProgressReporterTest, FormatsDurations) {
  EXPECT_EQ(ProgressReporter::FormatDuration(0), "0s");
  EXPECT_EQ(ProgressReporter::FormatDuration(59.4), "59s");
  EXPECT_EQ(ProgressReporter::FormatDuration(185), "3m05s");
  EXPECT_EQ(ProgressReporter::FormatDuration(3720), "1h02m");
  EXPECT_EQ(ProgressReporter::FormatDuration(-1), "?");
  EXPECT_EQ(ProgressReporter::FormatDuration(NAN), "?");
}

TEST(ProgressReporterTest, PlainLinesReportTheLastStepAndAFinalSummary) {
  std::FILE* f = std::tmpfile();
  {
    ProgressReporter p("train", 3, "iterations", ProgressReporter::Mode::kLines, f);
    p.Update(1);
    p.Update(2);
    p.Update(3, "ll -7.5");  // the last step always prints
    p.Finish("done");
  }
  std::string out = ReadAll(f);
  std::fclose(f);
  EXPECT_THAT(out, HasSubstr("train: 3/3 iterations (100%)"));
  EXPECT_THAT(out, HasSubstr("ll -7.5"));
  EXPECT_THAT(out, HasSubstr("train: 3 iterations in"));
  EXPECT_THAT(out, HasSubstr("done"));
  // Steps 1 and 2 come within the 10 s line interval: not printed.
  EXPECT_THAT(out, ::testing::Not(HasSubstr("1/3")));
}

TEST(ProgressReporterTest, QuietPrintsNothing) {
  std::FILE* f = std::tmpfile();
  {
    ProgressReporter p("train", 2, "iterations", ProgressReporter::Mode::kQuiet, f);
    p.Update(1);
    p.Update(2);
  }
  EXPECT_EQ(ReadAll(f), "");
  std::fclose(f);
}

TEST(ProgressReporterTest, BarRedrawsInPlaceWithTimeLeft) {
  std::FILE* f = std::tmpfile();
  {
    ProgressReporter p("sweep", 4, "steps", ProgressReporter::Mode::kBar, f);
    p.Update(4);
  }
  std::string out = ReadAll(f);
  std::fclose(f);
  EXPECT_THAT(out, HasSubstr("\r"));
  EXPECT_THAT(out, HasSubstr("[##############################] 4/4 steps"));
  EXPECT_THAT(out, HasSubstr("left"));
}

}  // namespace
}  // namespace pplda

// The DP flags' defaults (cli/dp_flags.h): L = 20, c = 1, N = 5 and R =
// min(10, --iterations) when not given, the settings docs/privacy.md's
// utility study measures; given values, 0 = every iteration included, win.
#include "cli/dp_flags.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::cli {
namespace {

// The options `pplda train` would derive from `args` for a run of
// `iterations` iterations.
privacy::DpTrainingOptions Parse(std::vector<std::string> args, int iterations) {
  CLI::App app;
  DpFlags flags;
  AddDpFlags(&app, &flags);
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  app.parse(args);
  absl::StatusOr<privacy::DpTrainingOptions> options =
      DpOptionsFrom(flags, InputFlags(), iterations);
  EXPECT_TRUE(options.ok()) << options.status();
  return options.ok() ? *options : privacy::DpTrainingOptions();
}

TEST(DpFlagsTest, DefaultsAreTheMeasuredSettings) {
  const privacy::DpTrainingOptions o =
      Parse({"--dp-epsilon", "8", "--dp-vocab-epsilon", "2"}, 500);
  ASSERT_TRUE(o.counts.has_value());
  EXPECT_EQ(o.counts->caps.max_tokens, 20);
  EXPECT_EQ(o.counts->caps.max_per_term, 1);
  EXPECT_EQ(o.counts->noisy_iterations, 10);
  ASSERT_TRUE(o.vocabulary.has_value());
  EXPECT_EQ(o.vocabulary->max_terms_per_document, 5);
}

TEST(DpFlagsTest, DefaultNoisyIterationsAreAllIterationsWhenFewerThanTen) {
  for (int iterations : {2, 6, 10}) {
    const privacy::DpTrainingOptions o = Parse({"--dp-epsilon", "8"}, iterations);
    ASSERT_TRUE(o.counts.has_value());
    EXPECT_EQ(o.counts->noisy_iterations, iterations);
  }
  const privacy::DpTrainingOptions eleven = Parse({"--dp-epsilon", "8"}, 11);
  ASSERT_TRUE(eleven.counts.has_value());
  EXPECT_EQ(eleven.counts->noisy_iterations, 10);
}

TEST(DpFlagsTest, GivenValuesWin) {
  const privacy::DpTrainingOptions o =
      Parse({"--dp-epsilon", "8", "--dp-max-tokens", "50", "--dp-max-term-count", "5",
             "--dp-noisy-iterations", "0", "--dp-vocab-epsilon", "1", "--dp-vocab-max-terms",
             "20"},
            500);
  ASSERT_TRUE(o.counts.has_value() && o.vocabulary.has_value());
  EXPECT_EQ(o.counts->caps.max_tokens, 50);
  EXPECT_EQ(o.counts->caps.max_per_term, 5);
  EXPECT_EQ(o.counts->noisy_iterations, 0);  // every iteration
  EXPECT_EQ(o.vocabulary->max_terms_per_document, 20);
  const privacy::DpTrainingOptions three =
      Parse({"--dp-epsilon", "8", "--dp-noisy-iterations", "3"}, 500);
  ASSERT_TRUE(three.counts.has_value());
  EXPECT_EQ(three.counts->noisy_iterations, 3);
}

// Without --dp-epsilon there is no DP training, and the defaults are not
// taken for given training options (which would be an error).
TEST(DpFlagsTest, NoTrainingWithoutEpsilon) {
  EXPECT_FALSE(Parse({}, 500).counts.has_value());
  CLI::App app;
  DpFlags flags;
  AddDpFlags(&app, &flags);
  app.parse(std::vector<std::string>{"3", "--dp-noisy-iterations"});
  EXPECT_THAT(DpOptionsFrom(flags, InputFlags(), 500).status().message(),
              ::testing::HasSubstr("--dp-noisy-iterations is an option of DP training"));
}

}  // namespace
}  // namespace pplda::cli

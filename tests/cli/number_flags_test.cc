// The shared numeric-flag validator (cli/number_flags.h), and the structural
// property that every numeric option of every `pplda` subcommand uses it.
#include "cli/number_flags.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/command.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string Check(CLI::Validator v, std::string value) { return v(value); }

TEST(NumberInTest, FloatingFlagsTakeFiniteDecimalsInRange) {
  const CLI::Validator v = NumberIn<double>(1e-6, 1e6);
  for (const char* ok : {"0.1", "1e-6", "1e6", "1000000", ".5", "2E3"}) {
    EXPECT_THAT(Check(v, ok), IsEmpty()) << ok;
  }
  EXPECT_THAT(Check(v, "nan"), HasSubstr("not a finite number in [1e-06, 1e+06]"));
  EXPECT_THAT(Check(v, "-inf"), HasSubstr("not a finite number"));
  EXPECT_THAT(Check(v, "infinity"), HasSubstr("not a finite number"));
  EXPECT_THAT(Check(v, "1e309"), HasSubstr("[1e-06, 1e+06]"));
  EXPECT_THAT(Check(v, "1e308"), HasSubstr("out of range: the value must be in [1e-06, 1e+06]"));
  EXPECT_THAT(Check(v, "0"), HasSubstr("out of range"));
  for (const char* bad : {"", "0x1p3", "+1", " 1", "1 ", "1,5", "one", "1e"}) {
    EXPECT_THAT(Check(v, bad), HasSubstr("not a number")) << "'" << bad << "'";
  }
  EXPECT_EQ(v.get_description(), "in [1e-06, 1e+06]");
  // The bound is printed short whatever it is.
  EXPECT_THAT(Check(NumberIn<double>(0, 1.7976931348623157e308), "-1"),
              HasSubstr("[0, 1.79769e+308]"));
}

TEST(NumberInTest, IntegerFlagsAreExactAndNeverWrap) {
  const CLI::Validator seed = NumberIn<uint64_t>(0, UINT64_MAX);
  EXPECT_THAT(Check(seed, "18446744073709551615"), IsEmpty());
  EXPECT_THAT(Check(seed, "0"), IsEmpty());
  EXPECT_THAT(Check(seed, "18446744073709551616"), HasSubstr("out of range"));
  EXPECT_THAT(Check(seed, "-1"), HasSubstr("not a non-negative integer"));
  // CLI11 would convert "010" as octal 8.
  EXPECT_THAT(Check(seed, "010"), HasSubstr("no leading zero"));
  for (const char* bad : {"0x10", "1e3", "1.0", "+1", "nan", "", " 1"}) {
    EXPECT_THAT(Check(seed, bad), HasSubstr("not a non-negative integer")) << bad;
  }
  const CLI::Validator topics = NumberIn<int>(1, 65535);
  EXPECT_THAT(Check(topics, "65535"), IsEmpty());
  EXPECT_THAT(Check(topics, "65536"), HasSubstr("out of range: the value must be in [1, 65535]"));
  EXPECT_THAT(Check(topics, "-3"), HasSubstr("[1, 65535]"));
  EXPECT_THAT(Check(topics, "99999999999999999999"), HasSubstr("out of range"));
  EXPECT_THAT(Check(NumberIn<int64_t>(-5, 5), "-5"), IsEmpty());
}

// Every option of type INT, UINT or FLOAT, in every subcommand, carries the
// shared validator: no numeric flag accepts nan, wraps, or prints a bound
// of 309 digits.
TEST(NumberInTest, EveryNumericFlagOfEverySubcommandUsesIt) {
  CLI::App app{"pplda", "pplda"};
  GlobalFlags globals;
  CommandFn run;
  AddPrepareCommand(app, globals, &run);
  AddTrainCommand(app, globals, &run);
  AddEvaluateCommand(app, globals, &run);
  AddTopicsCommand(app, globals, &run);
  AddAuditCommand(app, globals, &run);
  AddSimulateCommand(app, globals, &run);
  AddKeysCommand(app, globals, &run);
  AddRunCommand(app, globals, &run);
  // Checked by CLI::IsMember against a short list of allowed values.
  const std::vector<std::string> members = {"--key-bits", "--bits"};
  int numeric = 0;
  std::vector<CLI::App*> todo = {&app};
  while (!todo.empty()) {
    CLI::App* a = todo.back();
    todo.pop_back();
    for (CLI::App* sub : a->get_subcommands({})) todo.push_back(sub);
    for (CLI::Option* o : a->get_options({})) {
      const std::string type = o->get_type_name();
      const bool is_numeric = type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0 ||
                              type.rfind("FLOAT", 0) == 0;
      if (!is_numeric) continue;
      const std::string name = a->get_name() + " " + o->get_name();
      if (std::find(members.begin(), members.end(), o->get_name()) != members.end()) continue;
      ++numeric;
      bool found = true;
      try {
        o->get_validator(kNumberValidatorName);
      } catch (const CLI::OptionNotFound&) {
        found = false;
      }
      EXPECT_TRUE(found) << name << " (" << type << ") lacks the NumberIn validator";
    }
  }
  EXPECT_GT(numeric, 50);
}

}  // namespace
}  // namespace pplda::cli

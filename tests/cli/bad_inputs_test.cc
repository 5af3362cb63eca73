// Bad inputs, found by trying `pplda` as a new user would:
// each must end in a clear error naming the file or flag, a non-zero exit,
// and no partial or clobbered file.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/cli/cli_test_util.h"

namespace {

namespace fs = std::filesystem;
using ::pplda::cli::testing::RunPplda;
using ::pplda::cli::testing::RunResult;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

class BadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("pplda_bad_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "docs");
    for (int i = 0; i < 12; ++i) {
      Write("docs/doc" + std::to_string(i) + ".txt",
            i % 2 == 0 ? "river water boat fishing river water boat fishing harbour\n"
                       : "election senate voting ballot election senate voting ballot\n");
      // Another participant's documents (two may not bring the same).
      Write("docs2/doc" + std::to_string(i) + ".txt",
            i % 2 == 0 ? "boat harbour river fishing water boat harbour river\n"
                       : "ballot voting senate election ballot voting senate\n");
    }
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  void Write(const std::string& name, const std::string& text) const {
    fs::create_directories((dir_ / name).parent_path());
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  std::string Read(const std::string& name) const {
    std::ifstream in(dir_ / name, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Files directly in `folder` (relative to dir_), temporaries included.
  std::vector<std::string> Files(const std::string& folder = "") const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_ / folder)) {
      names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  RunResult Train(const std::string& args) {
    return RunPplda("--quiet train --min-df 1 --max-df 1.0 --topics 2 --iterations 3 " + args);
  }
  void Prepare(const std::string& out) {
    const RunResult r =
        RunPplda("--quiet prepare --input " + Path("docs") + " --min-df 1 --max-df 1.0 --out " +
                 Path(out));
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  fs::path dir_;
};

// A 30-byte docword file with one count of 1e9 aborted with std::bad_alloc.
TEST_F(BadInputTest, UciCountsBeyondTheTokenLimitAreRefusedBeforeAllocating) {
  Write("uci/docword.big.txt", "1\n2\n2\n1 1 1000000000\n1 2 1\n");
  Write("uci/vocab.big.txt", "river\nboat\n");
  const std::string input = " --input " + Path("uci/docword.big.txt");
  for (const std::string& cmd :
       {"prepare" + input + " --out " + Path("p"), "train" + input + " --out " + Path("m.json")}) {
    const RunResult r = RunPplda(cmd);
    EXPECT_EQ(r.exit_code, 1) << cmd << "\n" << r.output;
    EXPECT_THAT(r.output, AllOf(HasSubstr("docword.big.txt"), HasSubstr("50000000 tokens"),
                                HasSubstr("--max-corpus-tokens")));
  }
  ASSERT_EQ(Train("--input " + Path("docs") + " --out " + Path("m.json")).exit_code, 0);
  const RunResult eval = RunPplda("evaluate --model " + Path("m.json") + input);
  EXPECT_EQ(eval.exit_code, 1) << eval.output;
  EXPECT_THAT(eval.output, HasSubstr("50000000 tokens"));
  EXPECT_FALSE(fs::exists(Path("p")));
  // The limit is a flag, checked like every number.
  const RunResult raised = RunPplda("--quiet train" + input + " --max-corpus-tokens 10 --out " +
                                    Path("m2.json"));
  EXPECT_THAT(raised.output, HasSubstr("more than 10 tokens"));
  EXPECT_FALSE(fs::exists(Path("m2.json")));
}

struct BadNumber {
  std::string command, flag, value, expected;
};

TEST_F(BadInputTest, NumericFlagsRefuseNanInfinitiesAndOutOfRangeValuesNamingTheFlag) {
  const std::string train = "train --input " + Path("docs") + " --out " + Path("m.json");
  const std::string evaluate = "evaluate --model x.json --input " + Path("docs");
  const std::string simulate = "simulate --party a=" + Path("docs") +
                               " --party b=" + Path("docs2") + " --out " + Path("m.json");
  const BadNumber cases[] = {
      {train, "--dp-epsilon", "nan", "not a finite number in [0, 1000]"},
      {train, "--dp-vocab-epsilon", "nan", "not a finite number"},
      {train, "--dp-epsilon", "inf", "not a finite number"},
      {train, "--dp-delta", "0", "[1e-300, 0.4999]"},
      {train, "--final-noise-sigma", "-inf", "not a finite number"},
      {train, "--alpha", "1e308", "out of range: the value must be in [1e-06, 1e+06]"},
      {train, "--alpha", "1e309", "not a finite number in [1e-06, 1e+06]"},
      {train, "--beta", "0x10", "not a number"},
      {train, "--max-df", "nan", "not a finite number"},
      {train, "--seed", "-1", "not a non-negative integer"},
      {train, "--seed", "18446744073709551616", "out of range"},
      {train, "--threads", "1e3", "not an integer"},
      {train, "--topics", "70000", "[1, 65535]"},
      {evaluate, "--seed", "0x10", "not a non-negative integer"},
      {evaluate, "--threads", "nan", "not an integer"},
      {"audit --input " + Path("docs"), "--topics", "70000", "[1, 65535]"},
      {"audit --input " + Path("docs"), "--zeta-tolerance", "nan", "not a finite number"},
      {"audit --input " + Path("docs"), "--shadows", "2", "[8, 1024]"},
      {simulate, "--alpha", "1e308", "[1e-06, 1e+06]"},
      {simulate, "--seed", "99999999999999999999", "out of range"},
      {"run start --config x.toml", "--beta", "nan", "not a finite number"},
  };
  for (const BadNumber& c : cases) {
    const RunResult r = RunPplda(c.command + " " + c.flag + " " + c.value);
    EXPECT_NE(r.exit_code, 0) << c.flag << " " << c.value << "\n" << r.output;
    EXPECT_THAT(r.output, AllOf(HasSubstr(c.flag), HasSubstr(c.expected)))
        << c.flag << " " << c.value;
    // No 309-digit bound.
    EXPECT_THAT(r.output, Not(HasSubstr("000000000000000000000"))) << c.flag;
  }
  EXPECT_FALSE(fs::exists(Path("m.json")));
}

TEST_F(BadInputTest, UnknownSubcommandsAndHelpTellTheTruth) {
  const RunResult unknown = RunPplda("frobnicate --input x");
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_THAT(unknown.output,
              AllOf(HasSubstr("unknown subcommand 'frobnicate'"), HasSubstr("train"),
                    Not(HasSubstr("A subcommand is required"))));
  const RunResult nested = RunPplda("run frobnicate");
  EXPECT_NE(nested.exit_code, 0);
  EXPECT_THAT(nested.output, AllOf(HasSubstr("pplda run: unknown subcommand 'frobnicate'"),
                                   HasSubstr("start")));
  // `pplda train --input x` still reaches the subcommand.
  EXPECT_THAT(RunPplda("--quiet train --input " + Path("nope")).output, HasSubstr("nope"));

  const RunResult simulate_help = RunPplda("simulate --help");
  EXPECT_EQ(simulate_help.exit_code, 0);
  EXPECT_THAT(simulate_help.output, AllOf(HasSubstr("--party"), Not(HasSubstr("--input"))));
  // --input is still refused with a pointer to --party.
  EXPECT_THAT(RunPplda("simulate --input " + Path("docs") + " --party a=" + Path("docs") +
                       " --party b=" + Path("docs2"))
                  .output,
              HasSubstr("--party NAME=PATH"));
  // audit --help states the limit it enforces.
  const RunResult audit_help = RunPplda("audit --help");
  EXPECT_THAT(audit_help.output, AllOf(HasSubstr("[1, 65535]"), Not(HasSubstr("100000]"))));
}

TEST_F(BadInputTest, AnOutputThatIsAnInputIsRefusedAndTheInputKept) {
  Write("lines.txt", "river water boat fishing\nelection senate voting ballot\n");
  const std::string before = Read("lines.txt");
  // The same file, also through "." and "..".
  for (const std::string& out :
       {Path("lines.txt"), (dir_ / "docs" / ".." / "." / "lines.txt").string()}) {
    const RunResult r = Train("--input " + Path("lines.txt") + " --out " + out);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_THAT(r.output, AllOf(HasSubstr("--out"), HasSubstr("is also an input"),
                                HasSubstr("--input")));
  }
  EXPECT_EQ(Read("lines.txt"), before);
  // --mixtures onto a prepared corpus file, or onto --out.
  Prepare("prepared");
  const std::string train_txt = Read("prepared/train.txt");
  const RunResult mix = Train("--input " + Path("prepared") + " --out " + Path("m.json") +
                              " --mixtures " + Path("prepared/train.txt"));
  EXPECT_EQ(mix.exit_code, 1);
  EXPECT_THAT(mix.output, AllOf(HasSubstr("--mixtures"), HasSubstr("train.txt"),
                                HasSubstr("is also an input")));
  EXPECT_EQ(Read("prepared/train.txt"), train_txt);
  const RunResult same = Train("--input " + Path("prepared") + " --out " + Path("m.json") +
                               " --mixtures " + Path("m.json"));
  EXPECT_EQ(same.exit_code, 1);
  EXPECT_THAT(same.output, AllOf(HasSubstr("--mixtures"), HasSubstr("--out")));
  // A .txt output inside a raw documents folder would be read as a document.
  const RunResult inside = Train("--input " + Path("docs") + " --out " + Path("m.json") +
                                 " --mixtures " + Path("docs/mix.txt"));
  EXPECT_EQ(inside.exit_code, 1);
  EXPECT_THAT(inside.output, HasSubstr("read as a document"));
  // A party's input file, refused before the secure run starts.
  Write("b.txt", "river water boat\nelection senate voting\n");
  const std::string b = Read("b.txt");
  const RunResult party = RunPplda("simulate --party a=" + Path("docs") + " --party b=" +
                                   Path("b.txt") + " --key-bits 1024 --out " + Path("b.txt"));
  EXPECT_EQ(party.exit_code, 1);
  EXPECT_THAT(party.output, AllOf(HasSubstr("--out"), HasSubstr("--party"),
                                  Not(HasSubstr("dealing"))));
  EXPECT_EQ(Read("b.txt"), b);
  EXPECT_FALSE(fs::exists(Path("m.json")));
}

TEST_F(BadInputTest, OutputFoldersAreCheckedBeforeTheWork) {
  const RunResult train = RunPplda("train --input " + Path("docs") +
                                   " --min-df 1 --topics 2 --iterations 3 --out " +
                                   Path("nonexistent/m.json"));
  EXPECT_EQ(train.exit_code, 1);
  EXPECT_THAT(train.output, AllOf(HasSubstr("--out"), HasSubstr(Path("nonexistent")),
                                  HasSubstr("does not exist"), Not(HasSubstr("training"))));
  const RunResult simulate =
      RunPplda("simulate --party a=" + Path("docs") + " --party b=" + Path("docs2") +
               " --key-bits 1024 --iterations 1 --out " + Path("nonexistent/m.json"));
  EXPECT_EQ(simulate.exit_code, 1);
  EXPECT_THAT(simulate.output, AllOf(HasSubstr("does not exist"), Not(HasSubstr("dealing"))));
  const RunResult audit = RunPplda("audit --input " + Path("docs") + " --out " +
                                   Path("nonexistent/deeper/audit"));
  EXPECT_EQ(audit.exit_code, 1);
  EXPECT_THAT(audit.output, AllOf(HasSubstr("--out"), HasSubstr("does not exist")));
  const RunResult prepare = RunPplda("prepare --input " + Path("docs") + " --out " +
                                     Path("nonexistent/deeper/p"));
  EXPECT_EQ(prepare.exit_code, 1);
  EXPECT_THAT(prepare.output, HasSubstr("does not exist"));
  const RunResult folder = Train("--input " + Path("docs") + " --out " + Path("docs"));
  EXPECT_EQ(folder.exit_code, 1);
  EXPECT_THAT(folder.output, HasSubstr("is a folder"));
  EXPECT_FALSE(fs::exists(Path("nonexistent")));
}

TEST_F(BadInputTest, ReplacingAnExistingModelIsSaidAndLeavesNoTemporaryFile) {
  const std::string args = "--input " + Path("docs") + " --out " + Path("m.json");
  const RunResult first = RunPplda("train --min-df 1 --topics 2 --iterations 3 " + args);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_THAT(first.output, Not(HasSubstr("replaced")));
  const RunResult second = RunPplda("train --min-df 1 --topics 2 --iterations 3 " + args);
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_THAT(second.output, HasSubstr("model written to " + Path("m.json") +
                                       " (replaced the existing file)"));
  EXPECT_THAT(Files(), ::testing::ElementsAre("docs", "docs2", "m.json"));
  // A run that fails keeps the old model whole.
  const std::string model = Read("m.json");
  EXPECT_NE(RunPplda("train --input " + Path("nope") + " --out " + Path("m.json")).exit_code, 0);
  EXPECT_EQ(Read("m.json"), model);
}

TEST_F(BadInputTest, AnIncompletePreparedFolderIsRefusedNamingWhatIsMissing) {
  Prepare("prepared");
  fs::remove(Path("prepared/train.txt"));
  const RunResult r = Train("--input " + Path("prepared") + " --out " + Path("m.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, AllOf(HasSubstr(Path("prepared")), HasSubstr("train.txt is missing")));
  // What an interrupted prepare of an older version left: only the vocabulary.
  Write("half/vocabulary.txt", "river\nboat\n");
  Write("half/notes.txt", "river boat river boat\n");
  ASSERT_EQ(Train("--input " + Path("docs") + " --out " + Path("m0.json")).exit_code, 0);
  const RunResult half =
      RunPplda("evaluate --model " + Path("m0.json") + " --input " + Path("half"));
  EXPECT_EQ(half.exit_code, 1);
  EXPECT_THAT(half.output, HasSubstr("are missing"));
  const RunResult half_train = Train("--input " + Path("half") + " --out " + Path("m.json"));
  EXPECT_EQ(half_train.exit_code, 1);
  EXPECT_THAT(half_train.output, AllOf(HasSubstr("train.txt, test.txt, stats.json are missing"),
                                       HasSubstr("--format folder")));
  EXPECT_FALSE(fs::exists(Path("m.json")));
  // prepare leaves nothing half-written next to its output.
  fs::create_directories(dir_ / "sub");
  Prepare("sub/p2");
  EXPECT_THAT(Files("sub"), ::testing::ElementsAre("p2"));
}

TEST_F(BadInputTest, PreprocessingFlagsWithAPreparedFolderAreRefusedByName) {
  Prepare("prepared");
  const RunResult r = RunPplda("train --input " + Path("prepared") +
                               " --min-df 3 --stem --topics 2 --iterations 3 --out " +
                               Path("m.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, AllOf(HasSubstr("--min-df, --stem"), HasSubstr("prepared")));
  EXPECT_FALSE(fs::exists(Path("m.json")));
  // Without them the folder trains.
  EXPECT_EQ(RunPplda("--quiet train --input " + Path("prepared") +
                     " --topics 2 --iterations 3 --no-evaluate --out " + Path("m.json"))
                .exit_code,
            0);
}

// Two participants given the same documents (one folder twice, or a copy
// of it) are refused, naming both.
TEST_F(BadInputTest, TwoPartiesWithTheSameDocumentsAreRefused) {
  const RunResult same = RunPplda("simulate --key-bits 1024 --party a=" + Path("docs") +
                                  " --party b=" + Path("docs") + " --out " + Path("m.json"));
  EXPECT_NE(same.exit_code, 0);
  EXPECT_THAT(same.output, HasSubstr("--party a and --party b are given the same documents"));
  for (int i = 0; i < 12; ++i) {
    fs::create_directories(dir_ / "copy");
    fs::copy_file(dir_ / "docs" / ("doc" + std::to_string(i) + ".txt"),
                  dir_ / "copy" / ("doc" + std::to_string(i) + ".txt"));
  }
  const RunResult copied =
      RunPplda("simulate --key-bits 1024 --party a=" + Path("docs") + " --party b=" + Path("copy") +
               " --accept-two-holder-disclosure --out " + Path("m.json"));
  EXPECT_NE(copied.exit_code, 0);
  EXPECT_THAT(copied.output, HasSubstr("hold the same documents"));
  EXPECT_FALSE(fs::exists(dir_ / "m.json"));
}

// A committee's bad inputs are refused before anything is written: an
// even committee, a key folder without the members' shares.
TEST_F(BadInputTest, CommitteeRefusesBadInputs) {
  const std::string parties = "simulate --party a=" + Path("docs") + " --party b=" + Path("docs2") +
                              " --out " + Path("m.json");
  const std::pair<std::string, std::string> cases[] = {
      // --key-dir is read (public.key, then committee-0.key ...), not refused.
      {" --committee 3 --accept-two-holder-disclosure --key-dir " + Path("docs"),
       "docs/public.key"},
      {" --key-bits 1024 --committee 4 --accept-two-holder-disclosure",
       "an odd number, 3 or more"}};
  for (const auto& [flags, message] : cases) {
    const RunResult r = RunPplda(parties + flags);
    EXPECT_NE(r.exit_code, 0) << flags;
    EXPECT_THAT(r.output, HasSubstr(message)) << flags;
  }
  EXPECT_FALSE(fs::exists(Path("m.json")));
}

TEST_F(BadInputTest, NamesThatBecomePathsStayInTheirFolder) {
  for (const std::string name : {"..", "../evil", "a/b", "."}) {
    const RunResult sim = RunPplda("simulate --party '" + name + "=" + Path("docs") +
                                   "' --party b=" + Path("docs") + " --key-bits 1024 --out " +
                                   Path("m.json") + " --mixtures-dir " + Path("mix"));
    EXPECT_EQ(sim.exit_code, 1) << name;
    EXPECT_THAT(sim.output, HasSubstr("--party name")) << name;
    const RunResult keys = RunPplda("keys deal --bits 1024 --party a --party b --party '" + name +
                                    "' --out " + Path("keys"));
    EXPECT_EQ(keys.exit_code, 1) << name;
    EXPECT_THAT(keys.output, HasSubstr("--party name")) << name;
  }
  EXPECT_FALSE(fs::exists(Path("keys")));
  EXPECT_FALSE(fs::exists(Path("mix")));
  EXPECT_FALSE(fs::exists(Path("m.json")));
  EXPECT_FALSE(fs::exists(dir_.parent_path() / "evil.csv"));
}

}  // namespace

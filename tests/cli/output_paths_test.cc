// OutputPaths (cli/output_paths.h): outputs checked against the inputs and
// each other in canonical form, and their folders before any work.
#include "cli/output_paths.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class OutputPathsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("output_paths_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "docs");
    std::ofstream(dir_ / "docs" / "a.txt") << "words";
    std::ofstream(dir_ / "in.txt") << "words";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string P(const std::string& relative) const { return (dir_ / relative).string(); }
  fs::path dir_;
};

TEST_F(OutputPathsTest, AnInputInAnySpellingIsRefused) {
  fs::create_symlink(dir_ / "in.txt", dir_ / "link.txt");
  for (const std::string& out : {P("in.txt"), P("docs/../in.txt"), P("./in.txt"), P("link.txt")}) {
    OutputPaths paths;
    paths.AddInput("--input", P("in.txt"));
    const absl::Status s = paths.AddFile("--out", out);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << out;
    EXPECT_THAT(s.message(), HasSubstr("is also an input (--input")) << s;
  }
  OutputPaths paths;
  paths.AddInput("--input", P("in.txt"));
  EXPECT_TRUE(paths.AddFile("--out", P("model.json")).ok());
}

TEST_F(OutputPathsTest, TwoOutputsMayNotBeOneFile) {
  OutputPaths paths;
  ASSERT_TRUE(paths.AddFile("--out", P("m.json")).ok());
  const absl::Status s = paths.AddFile("--mixtures", P("./m.json"));
  EXPECT_THAT(s.message(), HasSubstr("--out"));
  EXPECT_FALSE(s.ok());
  // A file of one flag inside another flag's output folder collides too.
  ASSERT_TRUE(paths.AddFolder("--mixtures-dir", P("mix"),
                              OutputPaths::FolderUse::kCreateOrReuse).ok());
  EXPECT_TRUE(paths.AddFile("--mixtures-dir", P("mix/a.csv")).ok());  // created by the command
  EXPECT_FALSE(paths.AddFile("--other", P("mix/a.csv")).ok());
}

TEST_F(OutputPathsTest, FoldersMustExistAndNotBeInputs) {
  OutputPaths paths;
  paths.AddInput("--input", P("docs"));
  EXPECT_EQ(paths.AddFile("--out", P("none/m.json")).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(paths.AddFile("--out", P("in.txt/m.json")).code(),
            absl::StatusCode::kInvalidArgument);  // "in.txt is not a folder"
  EXPECT_THAT(paths.AddFile("--out", P("docs")).message(), HasSubstr("is a folder"));
  EXPECT_THAT(paths.AddFile("--out", P("docs/new.TXT")).message(),
              HasSubstr("read as a document"));
  EXPECT_TRUE(paths.AddFile("--out", P("docs/model.json")).ok());
  using Use = OutputPaths::FolderUse;
  EXPECT_FALSE(paths.AddFolder("--out", P("docs"), Use::kCreateOrReuse).ok());
  EXPECT_FALSE(paths.AddFolder("--out", P("docs/sub"), Use::kCreateOrReuse).ok());
  EXPECT_FALSE(paths.AddFolder("--out", dir_.string(), Use::kCreateOrReuse).ok());  // holds docs
  EXPECT_EQ(paths.AddFolder("--out", P("x/y"), Use::kNewOrEmpty).code(),
            absl::StatusCode::kNotFound);
  fs::create_directories(dir_ / "full");
  std::ofstream(dir_ / "full" / "f") << "x";
  EXPECT_EQ(paths.AddFolder("--out", P("full"), Use::kNewOrEmpty).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(paths.AddFolder("--out", P("full"), Use::kCreateOrReuse).ok());
  EXPECT_TRUE(paths.AddFolder("--prepared", P("new/"), Use::kNewOrEmpty).ok());
}

TEST_F(OutputPathsTest, RemembersWhichOutputsReplaceAFile) {
  std::ofstream(dir_ / "old.json") << "{}";
  OutputPaths paths;
  ASSERT_TRUE(paths.AddFile("--out", P("old.json")).ok());
  ASSERT_TRUE(paths.AddFile("--mixtures", P("new.csv")).ok());
  EXPECT_EQ(paths.ReplacedNote(P("old.json")), " (replaced the existing file)");
  EXPECT_EQ(paths.ReplacedNote(P("./old.json")), " (replaced the existing file)");
  EXPECT_EQ(paths.ReplacedNote(P("new.csv")), "");
}

}  // namespace
}  // namespace pplda::cli

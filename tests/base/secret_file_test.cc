// ReadSecretFile: a private regular file is read; a symbolic link (even to
// a private file), a file others may read, a folder, an oversized file and a
// missing one are refused, each naming the path.
#include "base/secret_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda {
namespace {

using ::testing::HasSubstr;

class SecretFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("secret_file_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "key") << "secret";
    ::chmod((dir_ / "key").c_str(), 0600);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(SecretFileTest, ReadsAPrivateRegularFile) {
  absl::StatusOr<std::string> read = ReadSecretFile(dir_ / "key", "private key");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, "secret");
}

TEST_F(SecretFileTest, RefusesASymbolicLinkEvenToAPrivateFile) {
  std::filesystem::create_symlink(dir_ / "key", dir_ / "link");
  const absl::Status s = ReadSecretFile(dir_ / "link", "private key").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(s.message(), HasSubstr("private key " + (dir_ / "link").string()));
  EXPECT_THAT(s.message(), HasSubstr("is a symbolic link"));
}

TEST_F(SecretFileTest, RefusesWhatOthersMayReadFoldersOversizeAndMissingFiles) {
  ::chmod((dir_ / "key").c_str(), 0640);
  absl::Status s = ReadSecretFile(dir_ / "key", "box secret key").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(s.message(), HasSubstr("(mode 0640); run `chmod 600 " + (dir_ / "key").string()));
  ::chmod((dir_ / "key").c_str(), 0600);
  s = ReadSecretFile(dir_ / "key", "box secret key", 3).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("has 6 bytes, more than 3"));
  ::chmod(dir_.c_str(), 0700);
  s = ReadSecretFile(dir_, "private key").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("is not a regular file"));
  s = ReadSecretFile(dir_ / "none", "private key").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  EXPECT_THAT(s.message(), HasSubstr((dir_ / "none").string()));
}

}  // namespace
}  // namespace pplda

// Key files: mode 0600, no overwrite, refusal of readable, foreign, symlinked,
// oversized and malformed files.
#include "crypto/paillier/paillier_key_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "crypto/paillier/paillier_testing.h"
#include "gtest/gtest.h"
#include "proto/paillier.pb.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::StatusIs;
namespace fs = std::filesystem;

const DealtKey& Key() {
  static const DealtKey key = MakeTestKey(1024, SharingScheme::kShamir, 3, 2, 61).value();
  return key;
}

class KeyFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pplda_key_file_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  static void WriteRaw(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
  }
  fs::path dir_;
};

TEST_F(KeyFileTest, ShareIsWrittenPrivateAndReadsBack) {
  const fs::path path = dir_ / "party2.share";
  ASSERT_TRUE(WriteKeyShareFile(path, Key().shares[1]).ok());
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto back = ReadKeyShareFile(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->party(), 2);
  EXPECT_EQ(back->secret_share(), Key().shares[1].secret_share());
  EXPECT_EQ(back->public_key()->fingerprint(), Key().public_key->fingerprint());
}

TEST_F(KeyFileTest, NeverOverwritesAnExistingFile) {
  const fs::path path = dir_ / "party1.share";
  WriteRaw(path, "keep me");
  EXPECT_THAT(WriteKeyShareFile(path, Key().shares[0]),
              StatusIs(absl::StatusCode::kAlreadyExists, "refusing to overwrite"));
  std::ifstream in(path);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "keep me");
}

TEST_F(KeyFileTest, RefusesShareReadableByOthers) {
  const fs::path path = dir_ / "party1.share";
  ASSERT_TRUE(WriteKeyShareFile(path, Key().shares[0]).ok());
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  EXPECT_THAT(ReadKeyShareFile(path),
              StatusIs(absl::StatusCode::kPermissionDenied,
                       "has mode 0640 and is accessible to group or others"));
  EXPECT_THAT(ReadKeyShareFile(path), StatusIs(absl::StatusCode::kPermissionDenied,
                                               "run chmod 600 " + path.string()));
}

TEST_F(KeyFileTest, RefusesMissingSymlinkedOversizedAndGarbageFiles) {
  EXPECT_THAT(ReadKeyShareFile(dir_ / "absent"),
              StatusIs(absl::StatusCode::kNotFound, (dir_ / "absent").string()));
  const fs::path real = dir_ / "real.share";
  ASSERT_TRUE(WriteKeyShareFile(real, Key().shares[0]).ok());
  const fs::path link = dir_ / "link.share";
  fs::create_symlink(real, link);
  EXPECT_THAT(ReadKeyShareFile(link),
              StatusIs(absl::StatusCode::kInvalidArgument, "must not be symbolic links"));
  const fs::path big = dir_ / "big.share";
  WriteRaw(big, std::string(kMaxKeyFileBytes + 1, 'x'));
  ::chmod(big.c_str(), 0600);
  EXPECT_THAT(ReadKeyShareFile(big),
              StatusIs(absl::StatusCode::kInvalidArgument, "more than a key file can hold"));
  const fs::path junk = dir_ / "junk.share";
  WriteRaw(junk, "\xff\xff\xff garbage");
  ::chmod(junk.c_str(), 0600);
  EXPECT_THAT(ReadKeyShareFile(junk),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       junk.string() + " is not a pplda key share file"));
  EXPECT_THAT(ReadKeyShareFile(dir_),
              StatusIs(absl::StatusCode::kInvalidArgument, "is not a regular file"));
}

TEST_F(KeyFileTest, ShareOfAnotherKeyIsNamedWithTheFile) {
  // Write a valid share, then swap its public key for another key's.
  auto other = MakeTestKey(1024, SharingScheme::kShamir, 3, 2, 62).value();
  pplda::v1::PaillierKeyShare proto;
  {
    const fs::path tmp = dir_ / "tmp.share";
    ASSERT_TRUE(WriteKeyShareFile(tmp, Key().shares[0]).ok());
    std::ifstream in(tmp, std::ios::binary);
    ASSERT_TRUE(proto.ParseFromIstream(&in));
  }
  const fs::path other_pub = dir_ / "other.pub";
  ASSERT_TRUE(WritePublicKeyFile(other_pub, *other.public_key).ok());
  auto other_key = ReadPublicKeyFile(other_pub);
  ASSERT_TRUE(other_key.ok()) << other_key.status();
  EXPECT_EQ((*other_key)->fingerprint(), other.public_key->fingerprint());
  *proto.mutable_public_key() = [&] {
    pplda::v1::ThresholdPaillierPublicKey pk;
    std::ifstream in(other_pub, std::ios::binary);
    pk.ParseFromIstream(&in);
    return pk;
  }();
  const fs::path mixed = dir_ / "mixed.share";
  std::string bytes;
  ASSERT_TRUE(proto.SerializeToString(&bytes));
  WriteRaw(mixed, bytes);
  ::chmod(mixed.c_str(), 0600);
  EXPECT_THAT(ReadKeyShareFile(mixed),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       mixed.string() + ": key share of party 1 does not match"));
}

TEST_F(KeyFileTest, PublicKeyFileIsWorldReadableAndValidated) {
  const fs::path path = dir_ / "consortium.pub";
  ASSERT_TRUE(WritePublicKeyFile(path, *Key().public_key).ok());
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  EXPECT_THAT(WritePublicKeyFile(path, *Key().public_key),
              StatusIs(absl::StatusCode::kAlreadyExists, path.string()));
  const fs::path junk = dir_ / "junk.pub";
  WriteRaw(junk, "\x08\x07");  // format_version 7, nothing else
  EXPECT_THAT(ReadPublicKeyFile(junk),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       junk.string() + ": public key: format_version 7"));
}

}  // namespace
}  // namespace pplda::crypto

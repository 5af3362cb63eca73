// Run state files: a party's and the coordinator's state read back exactly
// as written (0600, replaced whole), and every kind of bad file refused with
// its own code, naming the file, and left as it was: missing, not a run
// state file, truncated at every length, a flipped byte, a newer format,
// another kind, run or participant. The plan digest changes with each of
// its inputs.
#include "protocol/run_state_file.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::protocol {
namespace {

using ::testing::HasSubstr;

std::string ReadBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteBytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// In a child process: 0 when writing `state` under a file-size limit of
// `limit` bytes (a full disk: writes past it fail with EFBIG, for root too)
// fails naming `path`.
int WriteUnderFileSizeLimit(const std::filesystem::path& path,
                            const pplda::v1::PartyRunState& state, rlim_t limit) {
  std::signal(SIGXFSZ, SIG_IGN);
  const struct rlimit cap = {limit, limit};
  if (::setrlimit(RLIMIT_FSIZE, &cap) != 0) return 2;
  const absl::Status s = protocol::WriteRunState(path, state);
  std::fprintf(stderr, "%s\n", s.ToString().c_str());  // shown when the test fails
  return !s.ok() && std::string(s.message()).find(path.string()) != std::string::npos ? 0 : 1;
}

class RunStateFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("run_state_file_test." + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    path_ = dir_ / "run-state.pb";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static pplda::v1::PartyRunState PartyState(int iteration) {
    pplda::v1::PartyRunState s;
    s.mutable_header()->set_run_id("run-1");
    s.mutable_header()->set_participant("alpha");
    s.mutable_header()->set_iteration(iteration);
    s.mutable_header()->set_plan_digest(std::string(32, '\x07'));
    s.set_party_index(1);
    s.mutable_parameters()->set_num_topics(5);
    for (uint64_t t : {10, 20, 30}) s.add_tokens_per_party(t);
    for (int i = 0; i < 20; ++i) s.add_topics(static_cast<uint32_t>(i % 5));
    s.mutable_sent()->set_iteration(iteration);
    s.mutable_sent()->mutable_matrix()->add_ciphertexts(std::string(256, '\x42'));
    s.set_folded(iteration - 1);
    s.set_counts_digest(std::string(32, '\x09'));
    return s;
  }

  std::filesystem::path dir_, path_;
};

TEST_F(RunStateFileTest, PartyStateReadsBackExactlyAndIsPrivate) {
  ASSERT_TRUE(protocol::WriteRunState(path_, PartyState(3)).ok());
  absl::StatusOr<pplda::v1::PartyRunState> read =
      protocol::ReadPartyRunState(path_, "run-1", "alpha");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->SerializeAsString(), PartyState(3).SerializeAsString());
  struct stat st {};
  ASSERT_EQ(stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  // A later boundary replaces the file whole.
  ASSERT_TRUE(protocol::WriteRunState(path_, PartyState(4)).ok());
  EXPECT_EQ(protocol::ReadPartyRunState(path_, "run-1", "alpha")->header().iteration(), 4);
}

TEST_F(RunStateFileTest, CoordinatorStateReadsBack) {
  pplda::v1::CoordinatorRunState s;
  s.mutable_header()->set_run_id("run-1");
  s.mutable_header()->set_participant("coordinator");
  s.mutable_header()->set_iteration(2);
  s.add_parties("alpha");
  s.add_last_updates()->set_party(0);
  ASSERT_TRUE(protocol::WriteRunState(path_, s).ok());
  absl::StatusOr<pplda::v1::CoordinatorRunState> read =
      protocol::ReadCoordinatorRunState(path_, "run-1", "coordinator");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->SerializeAsString(), s.SerializeAsString());
  // The coordinator's file is not a party's.
  const absl::Status as_party = protocol::ReadPartyRunState(path_, "run-1", "coordinator").status();
  EXPECT_EQ(as_party.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(as_party.message(), HasSubstr("holds a coordinator state, expected a party state"));
}

TEST_F(RunStateFileTest, MissingFileIsNotFoundNamingIt) {
  const absl::Status s = protocol::ReadPartyRunState(path_, "run-1", "alpha").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(s.message(), HasSubstr(path_.string()));
}

TEST_F(RunStateFileTest, GarbageIsDataLossNamingTheFile) {
  WriteBytes(path_, "this is not a run state file at all\n");
  const absl::Status s = protocol::ReadPartyRunState(path_, "run-1", "alpha").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr(path_.string()));
  EXPECT_EQ(ReadBytes(path_), "this is not a run state file at all\n");  // untouched
}

TEST_F(RunStateFileTest, EveryTruncationIsRefused) {
  ASSERT_TRUE(protocol::WriteRunState(path_, PartyState(3)).ok());
  const std::string whole = ReadBytes(path_);
  for (size_t length = 0; length < whole.size(); ++length) {
    WriteBytes(path_, whole.substr(0, length));
    const absl::Status s = protocol::ReadPartyRunState(path_, "run-1", "alpha").status();
    ASSERT_EQ(s.code(), absl::StatusCode::kDataLoss) << "truncated to " << length << ": " << s;
  }
}

TEST_F(RunStateFileTest, AFlippedByteInTheStateIsAChecksumMismatch) {
  ASSERT_TRUE(protocol::WriteRunState(path_, PartyState(3)).ok());
  std::string bytes = ReadBytes(path_);
  const size_t at = bytes.find(std::string(256, '\x42'));  // inside the state
  ASSERT_NE(at, std::string::npos);
  bytes[at + 100] ^= 1;
  WriteBytes(path_, bytes);
  const absl::Status s = protocol::ReadPartyRunState(path_, "run-1", "alpha").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("checksum mismatch"));
}

TEST_F(RunStateFileTest, ANewerFormatIsRefusedAsSuch) {
  ASSERT_TRUE(protocol::WriteRunState(path_, PartyState(3)).ok());
  pplda::v1::RunStateFile file;
  ASSERT_TRUE(file.ParseFromString(ReadBytes(path_)));
  file.set_format_version(protocol::kRunStateFormatVersion + 1);
  WriteBytes(path_, file.SerializeAsString());
  const absl::Status s = protocol::ReadPartyRunState(path_, "run-1", "alpha").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("is newer than this pplda reads"));
  EXPECT_THAT(s.message(), HasSubstr(path_.string()));
}

TEST_F(RunStateFileTest, AnotherRunOrParticipantIsRefused) {
  ASSERT_TRUE(protocol::WriteRunState(path_, PartyState(3)).ok());
  absl::Status s = protocol::ReadPartyRunState(path_, "run-2", "alpha").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("belongs to run 'run-1', not 'run-2'"));
  s = protocol::ReadPartyRunState(path_, "run-1", "beta").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("written by 'alpha', not 'beta'"));
}

TEST_F(RunStateFileTest, AWriteIntoAMissingFolderFailsAndNamesIt) {
  const absl::Status s = protocol::WriteRunState(dir_ / "missing" / "run-state.pb", PartyState(1));
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("missing"));
}

TEST_F(RunStateFileTest, ThePlanDigestChangesWithEachInput) {
  pplda::v1::RunParameters p;
  p.set_num_topics(5);
  const std::vector<int64_t> tokens = {10, 20, 30};
  const protocol::PlanDigest base = protocol::ComputePlanDigest("run-1", p, tokens);
  EXPECT_EQ(protocol::ComputePlanDigest("run-1", p, tokens), base);
  EXPECT_NE(protocol::ComputePlanDigest("run-2", p, tokens), base);
  pplda::v1::RunParameters q = p;
  q.set_num_topics(6);
  EXPECT_NE(protocol::ComputePlanDigest("run-1", q, tokens), base);
  EXPECT_NE(protocol::ComputePlanDigest("run-1", p, std::vector<int64_t>{10, 20, 31}), base);
}

// Disk full while writing the next boundary's state (simulated by the
// file-size limit in a child process, as in atomic_file_test): the write
// fails naming the file, and the state read back is the previous boundary's,
// whole; no temporary is left.
TEST_F(RunStateFileTest, ADiskFullWriteLeavesThePreviousStateReadable) {
  ASSERT_TRUE(protocol::WriteRunState(path_, PartyState(3)).ok());
  pplda::v1::PartyRunState next = PartyState(4);
  for (int i = 0; i < 64; ++i) {
    next.mutable_sent()->mutable_matrix()->add_ciphertexts(std::string(1024, '\x43'));
  }
  EXPECT_EXIT(std::_Exit(WriteUnderFileSizeLimit(path_, next, 8192)), ::testing::ExitedWithCode(0),
              "");
  absl::StatusOr<pplda::v1::PartyRunState> read =
      protocol::ReadPartyRunState(path_, "run-1", "alpha");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->SerializeAsString(), PartyState(3).SerializeAsString());
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir_)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
}

}  // namespace
}  // namespace pplda::protocol

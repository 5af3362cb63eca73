#include "party/privacy_ledger.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::party {
namespace {

using ::testing::HasSubstr;

class PrivacyLedgerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pplda-privacy-ledger-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Write(const std::string& text) {
    std::ofstream(dir_ / PrivacyLedger::kFileName) << text;
  }
  std::filesystem::path dir_;
};

TEST_F(PrivacyLedgerTest, AMissingFileIsAnEmptyLedger) {
  absl::StatusOr<PrivacyLedger> ledger = PrivacyLedger::Load(dir_);
  ASSERT_TRUE(ledger.ok()) << ledger.status();
  EXPECT_TRUE(ledger->entries().empty());
  EXPECT_EQ(ledger->Spent().epsilon, 0);
}

// Epsilons and deltas add over runs; what is debited survives a reload.
TEST_F(PrivacyLedgerTest, DebitsAddUpAndPersist) {
  const PrivacyBudget budget{3.0, 3e-5};
  {
    PrivacyLedger ledger = PrivacyLedger::Load(dir_).value();
    ASSERT_TRUE(ledger.Debit("run-1", 1.0, 1e-5, budget).ok());
    ASSERT_TRUE(ledger.Debit("run-2", 1.25, 1e-5, budget).ok());
  }
  PrivacyLedger ledger = PrivacyLedger::Load(dir_).value();
  ASSERT_EQ(ledger.entries().size(), 2u);
  EXPECT_DOUBLE_EQ(ledger.Spent().epsilon, 2.25);
  EXPECT_DOUBLE_EQ(ledger.Spent().delta, 2e-5);
  EXPECT_FALSE(ledger.entries()[1].debited_at.empty());
  // Over in epsilon, then over in delta: refused, nothing recorded.
  absl::Status over = ledger.Debit("run-3", 0.8, 1e-6, budget);
  EXPECT_EQ(over.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(over.message(), HasSubstr("run run-3 would spend (epsilon 0.8, delta 1e-06)"));
  over = ledger.Debit("run-3", 0.5, 2e-5, budget);
  EXPECT_EQ(over.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(PrivacyLedger::Load(dir_)->entries().size(), 2u);
  // A run id already recorded is refused, even for a cost that would fit:
  // a reused id must not release the documents again for free.
  const absl::Status reused = ledger.Debit("run-1", 0.1, 0, budget);
  EXPECT_EQ(reused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(reused.message(), HasSubstr("run run-1 was already debited"));
  EXPECT_EQ(PrivacyLedger::Load(dir_)->entries().size(), 2u);
}

TEST_F(PrivacyLedgerTest, ADamagedFileIsRefusedNotReset) {
  for (const std::string& text :
       {std::string("not json"), std::string(R"({"format": "other", "runs": []})"),
        std::string(R"({"format": "pplda-privacy-ledger/1"})"),
        std::string(R"({"format": "pplda-privacy-ledger/1", "runs": [{"run_id": "r"}]})"),
        std::string(R"({"format": "pplda-privacy-ledger/1", "runs": [{"run_id": "r", )"
                    R"("epsilon": -1, "delta": 0}]})"),
        std::string(R"({"format": "pplda-privacy-ledger/1", "runs": [{"run_id": "r", )"
                    R"("epsilon": 1, "delta": 1}]})")}) {
    Write(text);
    const absl::StatusOr<PrivacyLedger> ledger = PrivacyLedger::Load(dir_);
    EXPECT_EQ(ledger.status().code(), absl::StatusCode::kDataLoss) << text;
    EXPECT_THAT(ledger.status().message(), HasSubstr("restore it from a backup")) << text;
  }
}

}  // namespace
}  // namespace pplda::party

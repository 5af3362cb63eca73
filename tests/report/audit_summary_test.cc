// report/audit_summary.h: reading an audit folder back, and every way a
// folder can be wrong.
#include "report/audit_summary.h"

#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"
#include "tests/report/report_test_util.h"

namespace pplda::report {
namespace {

namespace fs = std::filesystem;
using ::pplda::crypto::testing::StatusIs;
using ::pplda::report::testing::AuditJsonFixture;

class AuditSummaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("pplda_audit_summary_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void Write(const std::string& text) { std::ofstream(dir_ / "audit.json") << text; }
  fs::path dir_;
};

TEST_F(AuditSummaryTest, ReadsBothVariants) {
  Write(AuditJsonFixture().dump());
  ASSERT_OK_AND_ASSIGN(AuditSummary a, ReadAuditSummary(dir_.string()));
  ASSERT_EQ(a.variants.size(), 2u);
  EXPECT_EQ(a.variants[0].name, "online");
  EXPECT_DOUBLE_EQ(a.variants[0].tpr_at_0_1_percent_fpr, 0.05);
  EXPECT_DOUBLE_EQ(a.variants[0].tpr_at_1_percent_fpr, 0.12);
  EXPECT_DOUBLE_EQ(a.variants[0].auc, 0.71);
  EXPECT_EQ(a.variants[0].non_members, 1000);
  EXPECT_EQ(a.variants[0].roc.size(), 5u);
  EXPECT_EQ(a.variants[1].name, "offline");
  EXPECT_EQ(a.parameters["shadows_per_target"], 16);
}

TEST_F(AuditSummaryTest, MissingFolderOrFile) {
  EXPECT_THAT(ReadAuditSummary((dir_ / "nope").string()),
              StatusIs(absl::StatusCode::kNotFound, "does not exist"));
  EXPECT_THAT(ReadAuditSummary(dir_.string()),
              StatusIs(absl::StatusCode::kNotFound, "audit.json not found"));
  std::ofstream(dir_ / "file.txt") << "x";
  EXPECT_THAT(ReadAuditSummary((dir_ / "file.txt").string()),
              StatusIs(absl::StatusCode::kInvalidArgument, "is not a folder"));
}

TEST_F(AuditSummaryTest, BadContents) {
  Write("{not json");
  EXPECT_THAT(ReadAuditSummary(dir_.string()),
              StatusIs(absl::StatusCode::kInvalidArgument, "audit.json is not JSON"));
  nlohmann::json j = AuditJsonFixture();
  j["format"] = "pplda-model";
  Write(j.dump());
  EXPECT_THAT(ReadAuditSummary(dir_.string()),
              StatusIs(absl::StatusCode::kInvalidArgument, "not a pplda audit"));
  for (const auto& [key, value] : std::vector<std::pair<std::string, nlohmann::json>>{
           {"format", 5}, {"version", "1"}, {"version", 2}}) {
    j = AuditJsonFixture();
    j[key] = value;
    EXPECT_THAT(AuditSummaryFromJson(j, "a.json"),
                StatusIs(absl::StatusCode::kInvalidArgument, "not a pplda audit"))
        << key << " = " << value.dump();
  }
  EXPECT_THAT(AuditSummaryFromJson(nlohmann::json::array(), "a.json"),
              StatusIs(absl::StatusCode::kInvalidArgument, "not a pplda audit"));
  j = AuditJsonFixture();
  j["figures"]["online"]["tpr_at_fpr"] = "high";
  EXPECT_THAT(AuditSummaryFromJson(j, "a.json"),
              StatusIs(absl::StatusCode::kInvalidArgument, "tpr_at_fpr: \"0.001\" is missing"));
  j = AuditJsonFixture();
  j["figures"] = nlohmann::json::object();
  Write(j.dump());
  EXPECT_THAT(ReadAuditSummary(dir_.string()),
              StatusIs(absl::StatusCode::kInvalidArgument, "\"figures\" is missing or empty"));
  j = AuditJsonFixture();
  j["figures"]["online"].erase("auc");
  Write(j.dump());
  EXPECT_THAT(ReadAuditSummary(dir_.string()),
              StatusIs(absl::StatusCode::kInvalidArgument, "figures.online: \"auc\" is missing"));
  j = AuditJsonFixture();
  j["figures"]["offline"]["roc_fpr_tpr"][2] = {0.1, 1.5};
  Write(j.dump());
  EXPECT_THAT(ReadAuditSummary(dir_.string()),
              StatusIs(absl::StatusCode::kInvalidArgument, "figures.offline.roc_fpr_tpr[2]"));
}

}  // namespace
}  // namespace pplda::report

// The audit's output files: JSON figures equal the evaluation's, CSV shapes
// and monotone curves, a well-formed SVG with escaped labels, the Markdown
// report, and the no-overwrite rule.
#include "privacy/audit_report.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "privacy/dp_training.h"
#include "privacy/roc_plot.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

namespace fs = std::filesystem;
using testing::ExpectError;

class AuditReportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    corpus_ = new lda::Corpus(testing::MakeAuditCorpus(120, 3, 1));
    corpus_->documents[0].name = "a,\"quoted\" name";
    AuditOptions o;
    o.num_shadows = 16;
    auto r = RunLiraAudit(*corpus_, testing::UnigramTrainer(), o);
    ASSERT_TRUE(r.ok()) << r.status();
    result_ = new AuditResult(*std::move(r));
  }
  static void TearDownTestSuite() {
    delete result_;
    delete corpus_;
  }
  static std::vector<std::string> Lines(const std::string& s) {
    std::vector<std::string> lines;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
  fs::path TempDir() const {
    fs::path dir = fs::path(::testing::TempDir()) /
                   ("pplda_audit_report_" +
                    std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir);
    return dir;
  }
  static lda::Corpus* corpus_;
  static AuditResult* result_;
};
lda::Corpus* AuditReportTest::corpus_ = nullptr;
AuditResult* AuditReportTest::result_ = nullptr;

TEST_F(AuditReportTest, JsonHoldsTheFiguresOfEachVariant) {
  const nlohmann::json j = AuditJson(*result_, AuditReportOptions());
  EXPECT_EQ(j["format"], kAuditFormat);
  EXPECT_EQ(j["version"], kAuditFormatVersion);
  const VariantEvaluation& on = result_->evaluation.online;
  EXPECT_EQ(j["figures"]["online"]["tpr_at_fpr"]["0.001"].get<double>(), on.tpr_at_0_1_percent_fpr);
  EXPECT_EQ(j["figures"]["online"]["tpr_at_fpr"]["0.01"].get<double>(), on.tpr_at_1_percent_fpr);
  EXPECT_EQ(j["figures"]["online"]["auc"].get<double>(), on.auc);
  EXPECT_EQ(j["figures"]["offline"]["auc"].get<double>(), result_->evaluation.offline.auc);
  EXPECT_EQ(j["figures"]["online"]["non_members"].get<int64_t>(), on.roc.negatives);
  const nlohmann::json& roc = j["figures"]["online"]["roc_fpr_tpr"];
  ASSERT_EQ(roc.size(), 81u);  // as roc.csv: 4 decades x 20 + 1
  EXPECT_DOUBLE_EQ(roc[0][0].get<double>(), 1e-4);
  EXPECT_DOUBLE_EQ(roc[80][0].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(roc[80][1].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(roc[60][1].get<double>(), TprAtFpr(on.roc, roc[60][0].get<double>()));
  EXPECT_EQ(j["parameters"]["shadows_per_target"], 16);
  EXPECT_EQ(j["parameters"]["models_trained"], 17);
  EXPECT_EQ(j["corpus"]["documents"], 120);
  EXPECT_EQ(j["zeta"]["documents_scored"], 17 * 120);
  AuditReportOptions offline_only;
  offline_only.online = false;
  const nlohmann::json k = AuditJson(*result_, offline_only);
  EXPECT_FALSE(k["figures"].contains("online"));
  EXPECT_TRUE(k["figures"].contains("offline"));
}

TEST_F(AuditReportTest, RocCsvIsSampledOnALogGridAndMonotone) {
  const std::vector<std::string> lines = Lines(RocCsv(*result_, AuditReportOptions()));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "fpr,tpr_online,tpr_offline");
  // 17 x ~60 non-members ~ 1020: axis from 1e-4, 4 decades x 20 + 1 rows.
  EXPECT_EQ(lines.size(), 1u + 81u);
  double last_fpr = 0, last_tpr = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    double fpr, on, off;
    ASSERT_EQ(std::sscanf(lines[i].c_str(), "%lf,%lf,%lf", &fpr, &on, &off), 3) << lines[i];
    EXPECT_GT(fpr, last_fpr);
    EXPECT_GE(on, last_tpr);
    last_fpr = fpr;
    last_tpr = on;
  }
  EXPECT_DOUBLE_EQ(last_fpr, 1.0);
  EXPECT_DOUBLE_EQ(last_tpr, 1.0);
}

TEST_F(AuditReportTest, SvgHasOneCurvePerVariantAndEscapesText) {
  const std::string svg = RocSvg(*result_, AuditReportOptions());
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  size_t curves = 0;
  for (size_t p = svg.find("<polyline"); p != std::string::npos; p = svg.find("<polyline", p + 1)) {
    ++curves;
  }
  EXPECT_EQ(curves, 2u);
  EXPECT_NE(svg.find("online LiRA: TPR"), std::string::npos);
  const std::string escaped = RenderLogLogRocSvg({{"a<b & \"c\"", "#000", {{0.1, 0.2}}}}, "x<y", 0.01);
  EXPECT_NE(escaped.find("a&lt;b &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_NE(escaped.find("x&lt;y"), std::string::npos);
  EXPECT_EQ(escaped.find("a<b"), std::string::npos);
}

TEST_F(AuditReportTest, AxisMinimumIsThePowerOfTenBelowTheResolution) {
  EXPECT_DOUBLE_EQ(LogAxisMinimum(5), 0.1);
  EXPECT_DOUBLE_EQ(LogAxisMinimum(1000), 1e-3);
  EXPECT_DOUBLE_EQ(LogAxisMinimum(1020), 1e-4);
  EXPECT_DOUBLE_EQ(LogAxisMinimum(65000), 1e-5);
}

TEST_F(AuditReportTest, DocumentsCsvHasOneQuotedRowPerDocument) {
  const std::vector<std::string> lines = Lines(DocumentsCsv(*result_, *corpus_));
  ASSERT_EQ(lines.size(), 121u);
  EXPECT_EQ(lines[0], "document,tokens,in_models,mean_in,sd_in,out_models,mean_out,sd_out,separation");
  EXPECT_EQ(lines[1].rfind("\"a,\"\"quoted\"\" name\",34,", 0), 0u) << lines[1];
}

TEST_F(AuditReportTest, MarkdownReportStatesFiguresAndExposedDocuments) {
  AuditReportOptions o;
  o.run_info = {{"command", "pplda audit --input x"}};
  o.most_exposed = 3;
  const std::string md = ReportMarkdown(*result_, *corpus_, o);
  EXPECT_NE(md.find("Command: `pplda audit --input x`"), std::string::npos);
  EXPECT_NE(md.find("| online LiRA |"), std::string::npos);
  EXPECT_NE(md.find("| offline LiRA |"), std::string::npos);
  EXPECT_NE(md.find("![ROC on log-log axes](roc.svg)"), std::string::npos);
  EXPECT_NE(md.find("16 are its shadows"), std::string::npos);
  const size_t table = md.find("## Most exposed documents");
  ASSERT_NE(table, std::string::npos);
  size_t rows = 0;
  for (const std::string& line : Lines(md.substr(table))) {
    rows += line.rfind("| doc", 0) == 0 && line.rfind("| document", 0) != 0;
  }
  EXPECT_EQ(rows, 3u);
}

// The report states the models' privacy mechanisms honestly: the final-count
// noise has no DP guarantee and gets no epsilon; the DP vocabulary's budget
// is said to cover the vocabulary only; without mechanisms, none.
TEST_F(AuditReportTest, MarkdownReportClaimsNoGuaranteeForTheFinalCountNoise) {
  EXPECT_NE(ReportMarkdown(*result_, *corpus_, AuditReportOptions())
                .find("**Privacy mechanisms.** None: the models are the exact counts."),
            std::string::npos);
  AuditResult noised = *result_;
  DpTrainingOptions noise_only;
  noise_only.final_noise = FinalCountNoiseOptions{34.5};
  noised.trainer = {{"trainer", "test"}, {"privacy_mechanisms", DescribeDpOptions(noise_only)}};
  std::string md = ReportMarkdown(noised, *corpus_, AuditReportOptions());
  EXPECT_NE(md.find("sigma 34.5 added once to the final counts, a heuristic with NO "
                    "differential-privacy guarantee"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("vocabulary NOT private"), std::string::npos);
  EXPECT_NE(md.find("not a privacy guarantee"), std::string::npos);
  EXPECT_EQ(md.find(")-DP"), std::string::npos) << md;

  DpTrainingOptions both = noise_only;
  both.vocabulary = DpVocabularyOptions{2, 1e-5, 20};
  noised.trainer["privacy_mechanisms"] = DescribeDpOptions(both);
  md = ReportMarkdown(noised, *corpus_, AuditReportOptions());
  EXPECT_NE(md.find("(2, 1e-05)-DP for the list of terms only (not for the counts)"),
            std::string::npos)
      << md;
}

TEST_F(AuditReportTest, WritesEveryFileAndNeverOverwrites) {
  const fs::path dir = TempDir() / "nested";
  ASSERT_TRUE(WriteAuditOutputs(*result_, *corpus_, AuditReportOptions(), dir.string()).ok());
  for (const std::string& name : AuditOutputFiles()) {
    EXPECT_TRUE(fs::exists(dir / name)) << name;
    EXPECT_FALSE(fs::exists(dir / (name + ".tmp"))) << name;
  }
  std::ifstream json(dir / "audit.json");
  EXPECT_EQ(nlohmann::json::parse(json)["format"], kAuditFormat);
  ExpectError(WriteAuditOutputs(*result_, *corpus_, AuditReportOptions(), dir.string()),
              absl::StatusCode::kFailedPrecondition, "audit.json already exists");
  const fs::path other = TempDir() / "other";
  fs::create_directories(other);
  std::ofstream(other / "roc.svg") << "mine";
  ExpectError(CheckAuditOutputDir(other.string()), absl::StatusCode::kFailedPrecondition,
              "roc.svg already exists");
  EXPECT_TRUE(CheckAuditOutputDir((TempDir() / "absent").string()).ok());
}

TEST_F(AuditReportTest, UnwritableFolderIsAnError) {
  const fs::path file = TempDir() / "plain-file";
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "x";
  const absl::Status s =
      WriteAuditOutputs(*result_, *corpus_, AuditReportOptions(), (file / "out").string());
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("plain-file"), std::string::npos) << s;
}

}  // namespace
}  // namespace pplda::privacy

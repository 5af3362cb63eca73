// The real `pplda report` and `pplda topics --format` binaries on the
// bundled corpus (data/sotu, run from the repository root): the report with
// coherence and an audit, opened in headless Chromium where it can start;
// the exports' shapes; and the errors a user meets (--out onto an input, a
// model without topic_term_counts, a folder that is no audit, a corpus
// that is not prepared, conflicting format flags).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/cli_test_util.h"
#include "tests/report/chromium_webdriver.h"

namespace {

namespace fs = std::filesystem;
using ::pplda::cli::testing::RunPplda;
using ::pplda::cli::testing::RunResult;
using ::pplda::report::testing::ChromiumWebDriver;
using ::testing::HasSubstr;
using ::testing::Not;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// One prepared corpus and model for every test (training takes a second).
class ReportCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // ctest runs each case in its own process, possibly at the same time.
    dir_ = new fs::path(fs::path(::testing::TempDir()) /
                        ("pplda_report_cli_" + std::to_string(getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    RunResult r =
        RunPplda("--quiet prepare --input data/sotu --split sentences --out " + Path("prepared"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    r = RunPplda("--quiet train --input " + Path("prepared") +
                 " --topics 6 --iterations 40 --out " + Path("model.json"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(*dir_, ec);
    delete dir_;
  }
  static std::string Path(const std::string& name) { return (*dir_ / name).string(); }
  static fs::path* dir_;
};
fs::path* ReportCliTest::dir_ = nullptr;

TEST_F(ReportCliTest, ReportWithCoherenceOpensCleanlyInChromium) {
  const RunResult r = RunPplda("report --model " + Path("model.json") + " --corpus " +
                               Path("prepared") + " --out " + Path("report.html"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("report written to " + Path("report.html")));
  const std::string html = ReadFile(Path("report.html"));
  EXPECT_THAT(html, HasSubstr("data-chart=\"coherence\""));
  EXPECT_THAT(html, HasSubstr("data-chart=\"trace\""));
  EXPECT_THAT(html, HasSubstr("data-chart=\"topic-map\""));
  EXPECT_THAT(html, HasSubstr("No differential-privacy budget recorded"));

  std::string why;
  std::unique_ptr<ChromiumWebDriver> driver = ChromiumWebDriver::Start(&why);
  if (driver == nullptr) GTEST_SKIP() << "Chromium cannot start here: " << why;
  const std::string url = "file://" + fs::absolute(Path("report.html")).string();
  std::string error;
  ASSERT_TRUE(driver->NavigateFresh(url, &error)) << error;
  const nlohmann::json empty = driver->Execute(R"js(
    var n = 0, bad = [];
    document.querySelectorAll('svg').forEach(function (s) {
      var b = s.getBBox(); n++;
      if (!(b.width > 10 && b.height > 10)) bad.push(s.getAttribute('data-chart'));
    });
    return {count: n, bad: bad};)js");
  // map, prevalence, coherence, trace, and one per topic
  EXPECT_EQ(empty["count"], 4 + 6) << empty.dump();
  EXPECT_TRUE(empty["bad"].empty()) << empty.dump();
  for (const ChromiumWebDriver::LogEntry& e : driver->BrowserLog()) {
    EXPECT_NE(e.level, "SEVERE") << "console error: " << e.message;
  }
  bool page_seen = false;
  EXPECT_THAT(driver->FetchesBesides(url, &page_seen), ::testing::IsEmpty());
  EXPECT_TRUE(page_seen);
}

TEST_F(ReportCliTest, ReportWithAudit) {
  // A small audit: 120 documents of two themes, each pair sharing a rare word.
  {
    std::ofstream lines(Path("docs.txt"));
    const char* themes[] = {"river water boat fishing harbour sailing anchor",
                            "election senate voting ballot congress law court"};
    for (int i = 0; i < 120; ++i) {
      lines << themes[i % 2] << " " << themes[i % 2] << " rareword" << char('a' + (i / 2) % 26)
            << char('a' + (i / 52)) << "\n";
    }
  }
  RunResult r = RunPplda("--quiet audit --input " + Path("docs.txt") +
                         " --min-df 1 --max-df 1.0 --topics 2 --iterations 10 --shadows 16 --out " +
                         Path("audit"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("`pplda report --model MODEL --audit " + Path("audit") +
                                  " --out report.html`"));
  r = RunPplda("report --model " + Path("model.json") + " --audit " + Path("audit") + " --out " +
               Path("audited.html"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string html = ReadFile(Path("audited.html"));
  EXPECT_THAT(html, HasSubstr("data-chart=\"roc\""));
  EXPECT_THAT(html, HasSubstr("<th>TPR at 0.1% FPR</th><th>TPR at 1% FPR</th>"));
  EXPECT_THAT(html, HasSubstr("<td>online</td>"));
  EXPECT_THAT(html, HasSubstr("<td>offline</td>"));
}

TEST_F(ReportCliTest, ReportErrors) {
  // --out onto an input: refused before anything is read or written.
  const std::string model_before = ReadFile(Path("model.json"));
  RunResult r = RunPplda("report --model " + Path("model.json") + " --out " + Path("model.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("--out " + Path("model.json") + " is also an input (--model"));
  EXPECT_EQ(ReadFile(Path("model.json")), model_before);
  r = RunPplda("report --model " + Path("model.json") + " --out " + Path("missing/r.html"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("--out"));

  // A model without topic_term_counts.
  nlohmann::json model = nlohmann::json::parse(model_before);
  model.erase("topic_term_counts");
  std::ofstream(Path("no-counts.json")) << model.dump();
  r = RunPplda("report --model " + Path("no-counts.json") + " --out " + Path("r.html"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("'topic_term_counts' is missing"));
  EXPECT_FALSE(fs::exists(Path("r.html")));

  // Folders that are no audit.
  r = RunPplda("report --model " + Path("model.json") + " --audit " + Path("nowhere") + " --out " +
               Path("r.html"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("--audit " + Path("nowhere") + ": audit folder"));
  r = RunPplda("report --model " + Path("model.json") + " --audit " + Path("prepared") + " --out " +
               Path("r.html"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("audit.json not found"));
  fs::create_directories(Path("bad-audit"));
  std::ofstream(Path("bad-audit/audit.json"))
      << "{\"format\": \"pplda-lira-audit\", \"version\": 1}";
  r = RunPplda("report --model " + Path("model.json") + " --audit " + Path("bad-audit") +
               " --out " + Path("r.html"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("\"figures\" is missing"));

  // A corpus that is not a prepared folder.
  r = RunPplda("report --model " + Path("model.json") + " --corpus data/sotu --out " +
               Path("r.html"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("--corpus data/sotu"));
  EXPECT_FALSE(fs::exists(Path("r.html")));
}

TEST_F(ReportCliTest, TopicsExports) {
  RunResult r = RunPplda("topics --model " + Path("model.json") + " --format pyldavis");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json d = nlohmann::json::parse(r.output);
  for (const char* key :
       {"mdsDat", "tinfo", "token.table", "R", "lambda.step", "plot.opts", "topic.order"}) {
    EXPECT_TRUE(d.contains(key)) << key;
  }
  EXPECT_EQ(d.size(), 7u);
  EXPECT_EQ(d["mdsDat"]["x"].size(), 6u);
  EXPECT_EQ(d["R"], 30);

  r = RunPplda("topics --model " + Path("model.json") + " --format pyldavis --top 5 --out " +
               Path("vis.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("pyLDAvis prepared data written to " + Path("vis.json")));
  EXPECT_EQ(nlohmann::json::parse(ReadFile(Path("vis.json")))["R"], 5);

  r = RunPplda("topics --model " + Path("model.json") + " --format csv --top 3");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, ::testing::StartsWith("topic,rank,term,count,phi\n0,1,"));
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1 + 6 * 3);

  r = RunPplda("topics --model " + Path("model.json") + " --format csv --json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("--json and --format csv disagree"));
  r = RunPplda("topics --model " + Path("model.json") + " --out " + Path("t.txt"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("--out is for --format pyldavis or csv"));
  r = RunPplda("topics --model " + Path("model.json") + " --format csv --out " +
               Path("model.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("is also an input"));
  r = RunPplda("topics --model " + Path("model.json") + " --format xml");
  EXPECT_NE(r.exit_code, 0);
}

}  // namespace

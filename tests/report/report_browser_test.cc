// The HTML report in headless Chromium (tests/report/chromium_webdriver.h):
// a report with every section (trace, coherence, privacy budget, secure
// timing, audit ROC, a term that is an HTML script) must load with no
// console error, draw every chart (each SVG's content has a non-empty
// bounding box), run its own script (a click on a bubble selects the
// topic's card), run no script from the data, and make no network request
// other than the file:// page itself. Skipped, with the reason, only where
// Chromium cannot start.
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "report/html_report.h"
#include "tests/crypto/paillier_test_util.h"
#include "tests/report/chromium_webdriver.h"
#include "tests/report/report_test_util.h"

namespace pplda::report {
namespace {

namespace fs = std::filesystem;
using ::pplda::report::testing::AuditJsonFixture;
using ::pplda::report::testing::ChromiumWebDriver;
using ::pplda::report::testing::MakeModel;

constexpr char kInjected[] = "<script>window.__ppldaInjected=1</script>";

// Every section: a plaintext trace and a secure run's timing and DP budget
// together (no real model has both; the report draws what it finds).
lda::LdaModel FullModel() {
  lda::LdaModel m = MakeModel({kInjected, "river", "boat", "water", "vote", "senate", "law", "war",
                               "army", "navy", "tax", "trade"},
                              {{9, 30, 20, 25, 0, 1, 0, 0, 2, 1, 0, 3},
                               {0, 10, 12, 0, 0, 0, 0, 15, 14, 12, 0, 0},
                               {0, 0, 1, 0, 40, 35, 30, 2, 0, 0, 5, 4},
                               {0, 2, 0, 1, 3, 0, 0, 0, 0, 0, 25, 30}});
  m.metadata = {
      {"pplda_version", "0.1.0"},
      {"training",
       {{"mode", "secure (simulated consortium)"},
        {"iterations", 50},
        {"log_likelihood_per_token_trace", {{10, -7.5}, {20, -7.1}, {30, -7.0}, {50, -6.9}}},
        {"init_seconds", 1.5},
        {"iteration_seconds", 20.25},
        {"publication_seconds", 4.0},
        {"phase_seconds_party0",
         {{"selection", 1.0}, {"exchange", 2.0}, {"conversion", 6.0}, {"draw", 3.5}}}}},
      {"privacy",
       {{"setting", "secure"},
        {"leakage", "Only the noisy counts are published."},
        {"model_differentially_private", true},
        {"differential_privacy", {{"epsilon", 2.5}, {"delta", 1e-6}, {"covers", "everything"}}}}}};
  return m;
}

class ReportBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    driver_ = ChromiumWebDriver::Start(&why);
    if (driver_ == nullptr) GTEST_SKIP() << "Chromium cannot start here: " << why;
    // ctest runs each case in its own process, possibly at the same time.
    dir_ = fs::path(::testing::TempDir()) /
           ("pplda_report_browser_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }

  // Writes `html` and opens it; returns its file:// URL.
  std::string Open(const std::string& html) {
    const fs::path path = fs::absolute(dir_ / "report.html");
    std::ofstream(path) << html;
    const std::string url = "file://" + path.string();
    std::string error;
    EXPECT_TRUE(driver_->NavigateFresh(url, &error)) << error;
    return url;
  }

  std::vector<std::string> Fetches(const std::string& url) {
    bool page_seen = false;
    std::vector<std::string> fetches = driver_->FetchesBesides(url, &page_seen);
    EXPECT_TRUE(page_seen) << "the performance log saw no load of " << url;
    return fetches;
  }

  std::unique_ptr<ChromiumWebDriver> driver_;
  fs::path dir_;
};

TEST_F(ReportBrowserTest, RendersEveryChartWithoutErrorsOrNetwork) {
  const lda::LdaModel model = FullModel();
  ASSERT_OK_AND_ASSIGN(AuditSummary audit, AuditSummaryFromJson(AuditJsonFixture(), "audit.json"));
  audit.dir = "audit-out";
  const lda::CoherenceResult coherence{{-50.5, -80.25, -20.0, -35.0}, -46.4375};
  ReportInputs in;
  in.model = &model;
  in.model_path = "model.json";
  in.audit = &audit;
  in.coherence = &coherence;
  in.coherence_source = "prepared";
  ASSERT_OK_AND_ASSIGN(std::string html, BuildHtmlReport(in));
  const std::string url = Open(html);

  // Every chart drawn: each <svg>'s content has a non-empty bounding box
  // and shapes; the ROC's <svg> is named by its container.
  const nlohmann::json charts = driver_->Execute(R"js(
    return Array.from(document.querySelectorAll('svg')).map(function (s) {
      var box = s.getBBox(), rect = s.getBoundingClientRect();
      var name = s.getAttribute('data-chart') ||
                 (s.parentElement && s.parentElement.getAttribute('data-chart')) || '';
      return {name: name, width: box.width, height: box.height, shown: rect.width * rect.height,
              shapes: s.querySelectorAll('rect,line,polyline,circle,path').length};
    });)js");
  ASSERT_TRUE(charts.is_array()) << charts.dump();
  std::set<std::string> names;
  for (const nlohmann::json& c : charts) {
    const std::string name = c.value("name", "");
    names.insert(name);
    EXPECT_GT(c.value("width", 0.0), 10) << c.dump();
    EXPECT_GT(c.value("height", 0.0), 10) << c.dump();
    EXPECT_GT(c.value("shown", 0.0), 100) << c.dump();
    EXPECT_GE(c.value("shapes", 0), 3) << c.dump();
  }
  for (const char* expected :
       {"prevalence", "topic-map", "trace", "coherence", "phase-timing", "roc", "topic-words-0",
        "topic-words-1", "topic-words-2", "topic-words-3"}) {
    EXPECT_TRUE(names.count(expected)) << "chart " << expected << " missing";
  }
  EXPECT_EQ(charts.size(), 10u);

  // The term that is a script is shown as text and never runs.
  EXPECT_EQ(driver_->Execute("return typeof window.__ppldaInjected;"), "undefined");
  EXPECT_EQ(driver_->Execute("return document.querySelectorAll('script').length;"), 1);
  EXPECT_EQ(driver_->Execute("return document.body.innerText.indexOf('" + std::string(kInjected) +
                             "') >= 0;"),
            true);

  // The report's own script runs: a click on topic 2's bubble selects its card.
  EXPECT_EQ(driver_->Execute(R"js(
    document.querySelector('.bubble[data-topic="2"]').dispatchEvent(new MouseEvent('click'));
    var s = document.querySelector('.card.selected');
    return s ? s.id : null;)js"),
            "topic-2");

  for (const ChromiumWebDriver::LogEntry& e : driver_->BrowserLog()) {
    EXPECT_NE(e.level, "SEVERE") << "console error: " << e.message;
  }
  EXPECT_THAT(Fetches(url), ::testing::IsEmpty());
}

// The checks themselves catch what they are for: a page that fetches, and a
// page whose script fails.
TEST_F(ReportBrowserTest, ChecksCatchFetchesAndScriptErrors) {
  const std::string url = Open(
      "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>"
      "<img src=\"http://127.0.0.1:9/x.png\"><script>undefinedFunction();</script></body></html>");
  EXPECT_THAT(Fetches(url), ::testing::ElementsAre("http://127.0.0.1:9/x.png"));
  bool severe = false;
  for (const ChromiumWebDriver::LogEntry& e : driver_->BrowserLog()) severe |= e.level == "SEVERE";
  EXPECT_TRUE(severe);
}

}  // namespace
}  // namespace pplda::report

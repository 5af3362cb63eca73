// report/html_report.h: sections present or explained, user strings
// escaped, nothing that could fetch from the network, and input checks.
// (report_browser_test renders the page in Chromium.)
#include "report/html_report.h"

#include <regex>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"
#include "tests/report/report_test_util.h"

namespace pplda::report {
namespace {

using ::pplda::crypto::testing::StatusIs;
using ::pplda::report::testing::AuditJsonFixture;
using ::pplda::report::testing::MakeModel;
using ::pplda::report::testing::ThreeTopicModel;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Build(const ReportInputs& in) {
  absl::StatusOr<std::string> html = BuildHtmlReport(in);
  EXPECT_TRUE(html.ok()) << html.status();
  return html.ok() ? *html : "";
}

TEST(HtmlReportTest, EscapesTermsAndMetadata) {
  lda::LdaModel m = MakeModel({"<script>alert(1)</script>", "a&b", "x\"y", "plain"},
                              {{5, 1, 1, 1}, {1, 1, 1, 5}});
  m.metadata["training"] = {{"note", "<img src=x onerror=alert(2)>"}};
  ReportInputs in;
  in.model = &m;
  in.model_path = "<b>model</b>.json";
  const std::string html = Build(in);
  EXPECT_THAT(html, Not(HasSubstr("<script>alert(1)")));
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(html, Not(HasSubstr("<img")));
  EXPECT_THAT(html, HasSubstr("&lt;img src=x onerror=alert(2)&gt;"));
  EXPECT_THAT(html, Not(HasSubstr("<b>model</b>")));
  EXPECT_THAT(html, HasSubstr("a&amp;b"));
  EXPECT_THAT(html, HasSubstr("x&quot;y"));
  // Exactly one script element: the report's own.
  size_t scripts = 0;
  for (size_t at = html.find("<script"); at != std::string::npos;
       at = html.find("<script", at + 1)) {
    ++scripts;
  }
  EXPECT_EQ(scripts, 1u);
}

TEST(HtmlReportTest, NothingFetchesFromTheNetwork) {
  lda::LdaModel m = ThreeTopicModel();
  const nlohmann::json audit_json = AuditJsonFixture();
  ASSERT_OK_AND_ASSIGN(AuditSummary audit, AuditSummaryFromJson(audit_json, "audit.json"));
  ReportInputs in;
  in.model = &m;
  in.audit = &audit;
  const std::string html = Build(in);
  EXPECT_THAT(html, HasSubstr("default-src 'none'"));
  for (const char* fetching :
       {"src=", "<link", "@import", "url(", "<iframe", "<object", "<embed", "<img", "https:"}) {
    EXPECT_THAT(html, Not(HasSubstr(fetching))) << fetching;
  }
  // The only http: is the SVG namespace name, which is not fetched.
  const std::regex http("http://(?!www\\.w3\\.org/2000/svg\")");
  EXPECT_FALSE(std::regex_search(html, http));
  // Links stay inside the page.
  const std::regex href("href=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator();
       ++it) {
    EXPECT_EQ((*it)[1].str().substr(0, 1), "#") << (*it)[0];
  }
}

TEST(HtmlReportTest, PlaintextModelSections) {
  lda::LdaModel m = ThreeTopicModel();
  m.metadata = {{"pplda_version", "0.1.0"},
                {"training",
                 {{"mode", "plaintext"},
                  {"iterations", 50},
                  {"log_likelihood_per_token_trace", {{10, -7.5}, {20, -7.1}, {50, -6.9}}}}},
                {"privacy",
                 {{"setting", "plaintext"},
                  {"leakage", "Trained in plaintext: exact counts."},
                  {"differential_privacy", nullptr}}}};
  ReportInputs in;
  in.model = &m;
  in.model_path = "model.json";
  const std::string html = Build(in);
  for (const char* chart :
       {"data-chart=\"prevalence\"", "data-chart=\"topic-map\"", "data-chart=\"trace\"",
        "data-chart=\"topic-words-0\"", "data-chart=\"topic-words-2\""}) {
    EXPECT_THAT(html, HasSubstr(chart));
  }
  EXPECT_THAT(html, HasSubstr("No differential-privacy budget recorded"));
  EXPECT_THAT(html, HasSubstr("Trained in plaintext: exact counts."));
  EXPECT_THAT(html, HasSubstr("45.57%"));  // topic 2: 108 of 237 tokens
  EXPECT_THAT(html, HasSubstr("Not computed: pass <code>--corpus PREPARED</code>"));
  EXPECT_THAT(html, Not(HasSubstr("id=\"timing\"")));
  EXPECT_THAT(html, Not(HasSubstr("id=\"audit\"")));
}

TEST(HtmlReportTest, SecureDpModelWithAuditAndCoherence) {
  lda::LdaModel m = ThreeTopicModel();
  m.metadata = {
      {"training",
       {{"mode", "secure (simulated consortium)"},
        {"init_seconds", 1.5},
        {"iteration_seconds", 20.25},
        {"phase_seconds_party0", {{"selection", 1.0}, {"exchange", 2.0}, {"draw", 3.5}}}}},
      {"privacy",
       {{"setting", "secure"},
        {"leakage", "Only the noisy counts are published."},
        {"model_differentially_private", true},
        {"differential_privacy",
         {{"epsilon", 2.5},
          {"delta", 1e-6},
          {"covers", "the whole pipeline"},
          {"privacy_unit", {{"unit", "document"}}}}}}}};
  const nlohmann::json audit_json = AuditJsonFixture();
  ASSERT_OK_AND_ASSIGN(AuditSummary audit, AuditSummaryFromJson(audit_json, "audit.json"));
  audit.dir = "audit-out";
  lda::CoherenceResult coherence{{-50.5, -80.25, -20.0}, -50.25};
  ReportInputs in;
  in.model = &m;
  in.audit = &audit;
  in.coherence = &coherence;
  in.coherence_source = "prepared";
  const std::string html = Build(in);
  EXPECT_THAT(html, HasSubstr("(&epsilon; = 2.5, &delta; = 1e-06)</b> for the whole model"));
  EXPECT_THAT(html, HasSubstr("covering the whole pipeline"));
  EXPECT_THAT(html, HasSubstr("Privacy unit: one document"));
  EXPECT_THAT(html, HasSubstr("data-chart=\"phase-timing\""));
  EXPECT_THAT(html, HasSubstr("3.50 s"));
  EXPECT_THAT(html, HasSubstr("data-chart=\"coherence\""));
  EXPECT_THAT(html, HasSubstr("coherence -80.25"));
  EXPECT_THAT(html, HasSubstr("mean -50.250"));
  EXPECT_THAT(html, HasSubstr("data-chart=\"roc\""));
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">5.00%</td><td class=\"num\">12.00%</td>"));
  EXPECT_THAT(html, HasSubstr("The model records no training trace"));
}

TEST(HtmlReportTest, NoPrivacyStatement) {
  lda::LdaModel m = ThreeTopicModel();
  ReportInputs in;
  in.model = &m;
  EXPECT_THAT(Build(in), HasSubstr("The model records no privacy statement"));
}

TEST(HtmlReportTest, MetadataOfTheWrongShapes) {
  lda::LdaModel m = ThreeTopicModel();
  ReportInputs in;
  in.model = &m;
  for (const nlohmann::json& metadata :
       {nlohmann::json::array({1, 2}), nlohmann::json("text"), nlohmann::json(),
        nlohmann::json{{"training", 5},
                       {"privacy",
                        {{"differential_privacy", {{"epsilon", 1}, {"delta", 1e-6}}},
                         {"model_differentially_private", "yes"},
                         {"leakage", 7}}},
                       {"evaluation", {1}}},
        nlohmann::json{{"training",
                        {{"log_likelihood_per_token_trace", {1, {2}, {"a", 3}}},
                         {"phase_seconds_party0", {{"draw", "slow"}}}}}}}) {
    m.metadata = metadata;
    EXPECT_THAT(Build(in), HasSubstr("The model records no")) << metadata.dump();
  }
}

TEST(HtmlReportTest, RejectsBadInputs) {
  ReportInputs in;
  EXPECT_THAT(BuildHtmlReport(in), StatusIs(absl::StatusCode::kInvalidArgument, "no model"));
  lda::LdaModel m = ThreeTopicModel();
  in.model = &m;
  in.top_words = 0;
  EXPECT_THAT(BuildHtmlReport(in), StatusIs(absl::StatusCode::kInvalidArgument, "top words"));
  in.top_words = 10;
  lda::CoherenceResult two{{-1, -2}, -1.5};
  in.coherence = &two;
  EXPECT_THAT(BuildHtmlReport(in),
              StatusIs(absl::StatusCode::kInvalidArgument, "coherence for 2 topics"));
  in.coherence = nullptr;
  m.topic_term_counts.clear();
  EXPECT_THAT(BuildHtmlReport(in), StatusIs(absl::StatusCode::kInvalidArgument, ""));
}

}  // namespace
}  // namespace pplda::report

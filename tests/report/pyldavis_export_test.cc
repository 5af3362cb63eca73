// report/pyldavis_export.h against the field list and shapes of pyLDAvis's
// PreparedData.to_json() (pyLDAvis/_prepare.py: to_dict) and what LDAvis's
// ldavis.js reads, and against values worked out by hand on a small model.
#include "report/pyldavis_export.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"
#include "tests/report/report_test_util.h"

namespace pplda::report {
namespace {

using ::pplda::crypto::testing::StatusIs;
using ::pplda::report::testing::MakeModel;
using ::pplda::report::testing::ThreeTopicModel;
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

std::vector<std::string> Keys(const nlohmann::json& object) {
  std::vector<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.push_back(it.key());
  return keys;
}

// Every column of a "to_dict(orient='list')" frame: a list of one length.
size_t ColumnLength(const nlohmann::json& frame) {
  size_t n = frame.begin()->size();
  for (const auto& column : frame) {
    EXPECT_TRUE(column.is_array());
    EXPECT_EQ(column.size(), n);
  }
  return n;
}

TEST(PyLdavisExportTest, FieldListAndShapes) {
  const lda::LdaModel model = ThreeTopicModel();
  ASSERT_OK_AND_ASSIGN(nlohmann::json d, PyLdavisPreparedData(model, {.relevant_terms = 4}));
  EXPECT_THAT(Keys(d), UnorderedElementsAre("mdsDat", "tinfo", "token.table", "R", "lambda.step",
                                            "plot.opts", "topic.order"));
  // mdsDat: x, y, topics, cluster, Freq; K rows.
  EXPECT_THAT(Keys(d["mdsDat"]), UnorderedElementsAre("x", "y", "topics", "cluster", "Freq"));
  EXPECT_EQ(ColumnLength(d["mdsDat"]), 3u);
  EXPECT_EQ(d["mdsDat"]["topics"], nlohmann::json({1, 2, 3}));
  EXPECT_EQ(d["mdsDat"]["cluster"], nlohmann::json({1, 1, 1}));
  double freq_sum = 0;
  for (const auto& f : d["mdsDat"]["Freq"]) freq_sum += f.get<double>();
  EXPECT_NEAR(freq_sum, 100, 1e-9);
  EXPECT_TRUE(std::is_sorted(d["mdsDat"]["Freq"].rbegin(), d["mdsDat"]["Freq"].rend()));
  for (const auto& v : d["mdsDat"]["x"]) EXPECT_TRUE(v.is_number());
  // tinfo: six columns of one length: R Default rows, then Topic1..TopicK.
  EXPECT_THAT(Keys(d["tinfo"]),
              UnorderedElementsAre("Term", "Freq", "Total", "Category", "logprob", "loglift"));
  const size_t rows = ColumnLength(d["tinfo"]);
  const nlohmann::json& category = d["tinfo"]["Category"];
  for (int i = 0; i < 4; ++i) EXPECT_EQ(category[i], "Default");
  std::map<std::string, int> per_category;
  for (const auto& c : category) per_category[c.get<std::string>()]++;
  EXPECT_EQ(per_category.size(), 4u);
  for (const char* topic : {"Topic1", "Topic2", "Topic3"}) EXPECT_GE(per_category[topic], 4);
  for (size_t i = 4; i < rows; ++i) {
    EXPECT_LE(d["tinfo"]["logprob"][i].get<double>(), 0);
    EXPECT_GE(d["tinfo"]["Total"][i].get<double>(), d["tinfo"]["Freq"][i].get<double>() - 1e-9);
  }
  // token.table: Topic, Freq, Term of one length, sorted by term then topic.
  EXPECT_THAT(Keys(d["token.table"]), UnorderedElementsAre("Topic", "Freq", "Term"));
  const size_t tokens = ColumnLength(d["token.table"]);
  ASSERT_GT(tokens, 0u);
  std::set<std::string> tinfo_terms;
  for (const auto& t : d["tinfo"]["Term"]) tinfo_terms.insert(t.get<std::string>());
  std::map<std::string, double> share_by_term;
  for (size_t i = 0; i < tokens; ++i) {
    const std::string term = d["token.table"]["Term"][i];
    EXPECT_TRUE(tinfo_terms.count(term)) << term;
    const int topic = d["token.table"]["Topic"][i];
    EXPECT_GE(topic, 1);
    EXPECT_LE(topic, 3);
    share_by_term[term] += d["token.table"]["Freq"][i].get<double>();
    if (i > 0) {
      const std::string prev = d["token.table"]["Term"][i - 1];
      EXPECT_TRUE(prev < term || (prev == term && d["token.table"]["Topic"][i - 1] < topic));
    }
  }
  for (const auto& [term, share] : share_by_term) EXPECT_NEAR(share, 1, 0.05) << term;
  EXPECT_EQ(d["R"], 4);
  EXPECT_DOUBLE_EQ(d["lambda.step"].get<double>(), 0.01);
  EXPECT_EQ(d["plot.opts"], nlohmann::json({{"xlab", "PC1"}, {"ylab", "PC2"}}));
  EXPECT_THAT(Keys(d["plot.opts"]), ElementsAre("xlab", "ylab"));
}

TEST(PyLdavisExportTest, TopicsRenumberedByShare) {
  // Token totals: topic 0 has 78, topic 1 has 51, topic 2 has 108.
  ASSERT_OK_AND_ASSIGN(nlohmann::json d, PyLdavisPreparedData(ThreeTopicModel()));
  EXPECT_EQ(d["topic.order"], nlohmann::json({3, 1, 2}));
  EXPECT_NEAR(d["mdsDat"]["Freq"][0].get<double>(), 100.0 * 108 / 237, 1e-9);
  EXPECT_NEAR(d["mdsDat"]["Freq"][2].get<double>(), 100.0 * 51 / 237, 1e-9);
  // R = min(30, V).
  EXPECT_EQ(d["R"], 8);
}

TEST(PyLdavisExportTest, HandWorkedValues) {
  // Two topics over two terms, beta = 0.01: phi(0) = (90.01, 10.01) / 100.02,
  // phi(1) = (0.01, 100.01) / 100.02; both topics hold 100 tokens, so
  // term_frequency = 100 (phi(0, t) + phi(1, t)).
  lda::LdaModel m = MakeModel({"a", "b"}, {{90, 10}, {0, 100}});
  ASSERT_OK_AND_ASSIGN(nlohmann::json d, PyLdavisPreparedData(m, {.relevant_terms = 1}));
  const double pa0 = 90.01 / 100.02, pb0 = 10.01 / 100.02, pa1 = 0.01 / 100.02,
               pb1 = 100.01 / 100.02;
  const double fa = 100 * (pa0 + pa1), fb = 100 * (pb0 + pb1);
  // Equal shares: order kept.
  EXPECT_EQ(d["topic.order"], nlohmann::json({1, 2}));
  // Default row: the more salient term. saliency(t) = p(t) sum_k p(k|t) log(p(k|t) / 0.5).
  auto saliency = [](double p0, double p1, double f) {
    const double a = p0 / (p0 + p1), b = p1 / (p0 + p1);
    return f / 200 * (a * std::log(a / 0.5) + b * std::log(b / 0.5));
  };
  const bool a_first = saliency(pa0, pa1, fa) > saliency(pb0, pb1, fb);
  EXPECT_EQ(d["tinfo"]["Term"][0], a_first ? "a" : "b");
  EXPECT_EQ(d["tinfo"]["Freq"][0], std::floor(a_first ? fa : fb));
  EXPECT_EQ(d["tinfo"]["logprob"][0], 1);
  // Topic1's terms: "a" leads both rankings (lambda = 1: phi; lambda = 0:
  // lift); row values rounded to 4 decimals.
  size_t row = 1;
  ASSERT_EQ(d["tinfo"]["Category"][row], "Topic1");
  EXPECT_EQ(d["tinfo"]["Term"][row], "a");
  EXPECT_NEAR(d["tinfo"]["Freq"][row].get<double>(), 100 * pa0, 1e-9);
  EXPECT_NEAR(d["tinfo"]["Total"][row].get<double>(), fa, 1e-9);
  EXPECT_NEAR(d["tinfo"]["logprob"][row].get<double>(), std::round(std::log(pa0) * 1e4) / 1e4,
              1e-12);
  EXPECT_NEAR(d["tinfo"]["loglift"][row].get<double>(),
              std::round(std::log(pa0 / (fa / 200)) * 1e4) / 1e4, 1e-12);
  // token.table: "a" in topic 1 only (topic 2's 0.01 < 0.5); its Freq =
  // round(90.01 / 100.02 * 100) / fa.
  ASSERT_EQ(d["token.table"]["Term"][0], "a");
  EXPECT_EQ(d["token.table"]["Topic"][0], 1);
  EXPECT_NEAR(d["token.table"]["Freq"][0].get<double>(), std::round(100 * pa0) / fa, 1e-12);
  EXPECT_EQ(d["token.table"]["Term"][1], "b");
  // Two topics: the map puts them symmetric about 0 on the first axis.
  EXPECT_NEAR(d["mdsDat"]["x"][0].get<double>(), -d["mdsDat"]["x"][1].get<double>(), 1e-12);
  EXPECT_GT(std::abs(d["mdsDat"]["x"][0].get<double>()), 0.1);
}

TEST(PyLdavisExportTest, TopicTermsCoverEveryLambda) {
  // "a" is common to both topics, "b" and "c" each belong to one. With R = 1
  // a topic's rows are its top term by lift (lambda = 0) and then its top
  // term by phi (lambda = 1), in that order.
  lda::LdaModel m = MakeModel({"a", "b", "c"}, {{50, 5, 0}, {60, 0, 40}});
  ASSERT_OK_AND_ASSIGN(nlohmann::json d, PyLdavisPreparedData(m, {.relevant_terms = 1}));
  EXPECT_EQ(d["topic.order"], nlohmann::json({2, 1}));
  std::map<std::string, std::vector<std::string>> terms;
  for (size_t i = 0; i < d["tinfo"]["Term"].size(); ++i) {
    terms[d["tinfo"]["Category"][i]].push_back(d["tinfo"]["Term"][i]);
  }
  EXPECT_THAT(terms["Topic1"], ElementsAre("c", "a"));
  EXPECT_THAT(terms["Topic2"], ElementsAre("b", "a"));
}

// Every number is finite (JSON has no NaN: nlohmann writes it as null).
void ExpectAllNumbersFinite(const nlohmann::json& j) {
  if (j.is_structured()) {
    for (const auto& e : j) ExpectAllNumbersFinite(e);
  } else {
    EXPECT_FALSE(j.is_null());
    if (j.is_number()) EXPECT_TRUE(std::isfinite(j.get<double>()));
  }
}

TEST(PyLdavisExportTest, ModelWithoutTokens) {
  lda::LdaModel m = MakeModel({"a", "b", "c"}, {{0, 0, 0}, {0, 0, 0}});
  ASSERT_OK_AND_ASSIGN(nlohmann::json d, PyLdavisPreparedData(m));
  EXPECT_NEAR(d["mdsDat"]["Freq"][0].get<double>(), 50, 1e-9);
  ExpectAllNumbersFinite(d);
}

TEST(PyLdavisExportTest, TopicWithoutTokens) {
  lda::LdaModel m = MakeModel({"a", "b", "c"}, {{5, 3, 0}, {0, 0, 0}});
  ASSERT_OK_AND_ASSIGN(nlohmann::json d, PyLdavisPreparedData(m));
  EXPECT_EQ(d["mdsDat"]["Freq"][1], 0.0);
  ExpectAllNumbersFinite(d);
  // Saliency over topic 0 alone (share 1): p(0|t) log p(0|t) times the
  // term's proportion: c (-2.6e-5) > b (-0.126) > a (-0.174). Counting the
  // empty topic would make every saliency infinite and the order a, b, c.
  const nlohmann::json& terms = d["tinfo"]["Term"];
  EXPECT_EQ(terms[0], "c");
  EXPECT_EQ(terms[1], "b");
  EXPECT_EQ(terms[2], "a");
}

TEST(PyLdavisExportTest, RejectsBadInputs) {
  lda::LdaModel m = ThreeTopicModel();
  EXPECT_THAT(PyLdavisPreparedData(m, {.relevant_terms = 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, "R = 0"));
  EXPECT_THAT(PyLdavisPreparedData(m, {.relevant_terms = 5, .lambda_step = 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, "lambda step"));
  m.topic_term_counts.pop_back();
  EXPECT_THAT(PyLdavisPreparedData(m), StatusIs(absl::StatusCode::kInvalidArgument, ""));
}

}  // namespace
}  // namespace pplda::report

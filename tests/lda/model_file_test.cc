#include "lda/model_file.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "lda/lda_model.h"
#include "tests/lda/model_test_util.h"

namespace pplda::lda {
namespace {

using model_testing::ExpectError;
using nlohmann::json;

LdaModel SmallModel() {
  LdaModel m;
  m.vocabulary = *Vocabulary::FromTerms({"apple", "banana", "cherry"});
  m.num_topics = 2;
  m.alpha = 0.5;
  m.beta = 1.0;
  m.topic_term_counts = {3, 1, 0, 0, 0, 6};
  m.metadata = {{"sampler", "standard"}, {"iterations", 7}};
  return m;
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) /
          ("pplda_model_file_" + std::to_string(getpid()) + "_" + name))
      .string();
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(LdaModelTest, CountsTotalsAndPhi) {
  const LdaModel m = SmallModel();
  EXPECT_EQ(m.count(0, 0), 3);
  EXPECT_EQ(m.count(1, 2), 6);
  EXPECT_EQ(m.topic_totals(), (std::vector<int64_t>{4, 6}));
  // phi(0, .) = (n + 1) / (4 + 3), phi(1, .) = (n + 1) / (6 + 3).
  EXPECT_DOUBLE_EQ(m.phi(0, 0), 4.0 / 7);
  EXPECT_DOUBLE_EQ(m.phi(0, 2), 1.0 / 7);
  EXPECT_DOUBLE_EQ(m.phi(1, 2), 7.0 / 9);
  const std::vector<double> phi = m.PhiMatrix();
  ASSERT_EQ(phi.size(), 6u);
  EXPECT_DOUBLE_EQ(phi[1], 2.0 / 7);
  EXPECT_DOUBLE_EQ(phi[3], 1.0 / 9);
  EXPECT_TRUE(m.Validate().ok());
}

TEST(LdaModelTest, ValidateNamesTheBrokenInvariant) {
  LdaModel m = SmallModel();
  m.num_topics = 0;
  ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument, "num_topics");
  m = SmallModel();
  m.vocabulary = Vocabulary();
  ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument, "vocabulary");
  m = SmallModel();
  m.alpha = 0;
  ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument, "alpha");
  m = SmallModel();
  m.beta = -1;
  ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument, "beta");
  m = SmallModel();
  m.beta = std::nan("");
  ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument, "beta");
  m = SmallModel();
  m.topic_term_counts.pop_back();
  ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument, "5 entries");
  m = SmallModel();
  m.topic_term_counts[4] = -2;
  ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument, "[1][1] (term 'banana')");
}

// Found by fuzz_model_file: hyperparameters that made phi infinite or 0,
// and topic totals whose sum overflowed int64 (UBSan).
TEST(LdaModelTest, ValidateKeepsPhiFiniteAndTotalsExact) {
  for (double bad : {1e-7, 1e6 * 1.0000001, 1e308, 5e-324}) {
    LdaModel m = SmallModel();
    m.beta = bad;
    ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument, "it must be in [1e-06, 1e+06]");
    m = SmallModel();
    m.alpha = bad;
    ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument, "model: alpha is");
  }
  LdaModel m = SmallModel();
  m.alpha = kMinPrior;
  m.beta = kMaxPrior;
  EXPECT_TRUE(m.Validate().ok());
  m.topic_term_counts[0] = kMaxModelCount + 1;
  ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument, "[0][0] (term 'apple')");
  m = SmallModel();
  m.topic_term_counts[0] = kMaxModelCount;
  m.topic_term_counts[1] = 0;
  m.topic_term_counts[2] = 0;
  EXPECT_TRUE(m.Validate().ok());
  m.topic_term_counts[2] = 1;
  ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument,
              "counts of topic 0 add up to more than 2^53 (at term 'cherry')");
  // Every entry at 2^53: the sum would overflow int64 after 1024 terms.
  std::vector<std::string> terms;
  for (int t = 0; t < 1100; ++t) terms.push_back("t" + std::to_string(t));
  m.vocabulary = *Vocabulary::FromTerms(terms);
  m.num_topics = 1;
  m.topic_term_counts.assign(1100, kMaxModelCount);
  ExpectError(m.Validate(), absl::StatusCode::kInvalidArgument, "add up to more than 2^53");
}

TEST(ModelFileTest, JsonLayoutIsTheDocumentedOne) {
  const json j = ModelToJson(SmallModel());
  EXPECT_EQ(j["format"], "pplda-model");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["vocabulary"], json({"apple", "banana", "cherry"}));
  EXPECT_EQ(j["alpha"], 0.5);
  EXPECT_EQ(j["beta"], 1.0);
  EXPECT_EQ(j["num_topics"], 2);
  EXPECT_EQ(j["topic_term_counts"], json::parse("[[3,1,0],[0,0,6]]"));
  EXPECT_EQ(j["metadata"]["iterations"], 7);
}

TEST(ModelFileTest, FileRoundTripKeepsEverything) {
  const std::string path = TempPath("roundtrip.json");
  const LdaModel m = SmallModel();
  ASSERT_TRUE(WriteModelFile(m, path).ok());
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  absl::StatusOr<LdaModel> back = ReadModelFile(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->vocabulary.terms(), m.vocabulary.terms());
  EXPECT_EQ(back->num_topics, 2);
  EXPECT_EQ(back->alpha, 0.5);
  EXPECT_EQ(back->beta, 1.0);
  EXPECT_EQ(back->topic_term_counts, m.topic_term_counts);
  EXPECT_EQ(back->metadata, m.metadata);
  std::filesystem::remove(path);
}

// The file writer streams the counts into the text; what it writes is
// exactly ModelToJson's dump, also when the metadata and the vocabulary
// hold the counts' key.
TEST(ModelFileTest, FileTextIsTheJsonDumpEvenWithTheCountsKeyElsewhere) {
  const std::string path = TempPath("streamed.json");
  LdaModel m = SmallModel();
  m.vocabulary = *Vocabulary::FromTerms({"topic_term_counts", "b\"x", "null"});
  m.topic_term_counts = {9, 10, 0, 99, 1234567890123, 100};
  m.metadata["topic_term_counts"] = nullptr;
  m.metadata["nested"] = {{"topic_term_counts", nullptr}};
  ASSERT_TRUE(WriteModelFile(m, path).ok());
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, ModelToJson(m).dump() + "\n");
  absl::StatusOr<LdaModel> back = ReadModelFile(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->topic_term_counts, m.topic_term_counts);
  std::filesystem::remove(path);
}

TEST(ModelFileTest, HyperparametersSurviveExactly) {
  LdaModel m = SmallModel();
  m.alpha = 0.1;
  m.beta = 1.0 / 3;
  absl::StatusOr<LdaModel> back = ModelFromJson(json::parse(ModelToJson(m).dump()));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->alpha, 0.1);
  EXPECT_EQ(back->beta, 1.0 / 3);
}

TEST(ModelFileTest, MinimalFileWithoutOptionalKeysIsRead) {
  absl::StatusOr<LdaModel> m = ModelFromJson(json::parse(
      R"({"vocabulary":["x","y"],"alpha":1,"beta":2,"topic_term_counts":[[1,2]],"extra":true})"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->num_topics, 1);
  EXPECT_EQ(m->alpha, 1.0);
  EXPECT_TRUE(m->metadata.is_object());
}

TEST(ModelFileTest, IntegralFloatCountsAreAccepted) {
  absl::StatusOr<LdaModel> m = ModelFromJson(json::parse(
      R"({"vocabulary":["x","y"],"alpha":1,"beta":2,"topic_term_counts":[[12.0,0.0]]})"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->topic_term_counts, (std::vector<int64_t>{12, 0}));
}

// Each case: a change to the valid model JSON and what the error must name.
struct BadCase {
  std::string name;
  std::string patch;  // JSON merge patch applied to the valid model
  std::string expected;
};

class MalformedModelTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(MalformedModelTest, IsRejectedNamingTheField) {
  json j = ModelToJson(SmallModel());
  j.merge_patch(json::parse(GetParam().patch));
  absl::StatusOr<LdaModel> m = ModelFromJson(j);
  ExpectError(m.status(), absl::StatusCode::kInvalidArgument, GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    AllPaths, MalformedModelTest,
    ::testing::Values(
        BadCase{"WrongFormat", R"({"format":"other"})", "'format'"},
        BadCase{"WrongVersion", R"({"version":2})", "'version'"},
        BadCase{"MissingVocabulary", R"({"vocabulary":null})", "'vocabulary' is missing"},
        BadCase{"VocabularyNotArray", R"({"vocabulary":"apple"})", "'vocabulary' must be an array"},
        BadCase{"EmptyVocabulary", R"({"vocabulary":[]})", "'vocabulary' is empty"},
        BadCase{"TermNotString", R"({"vocabulary":["a",2,"c"]})", "entry 1 is a number"},
        BadCase{"EmptyTerm", R"({"vocabulary":["a","","c"]})", "term 1 is empty"},
        BadCase{"DuplicateTerm", R"({"vocabulary":["a","b","a"]})", "'a' appears twice"},
        BadCase{"MissingAlpha", R"({"alpha":null})", "'alpha' is missing"},
        BadCase{"AlphaNotNumber", R"({"alpha":"0.1"})", "'alpha' must be a number"},
        BadCase{"AlphaZero", R"({"alpha":0})", "'alpha' is 0"},
        BadCase{"BetaNegative", R"({"beta":-0.5})", "'beta' is -0.5"},
        BadCase{"BetaHuge", R"({"beta":1e308})", "beta is 1e+308; it must be in [1e-06, 1e+06]"},
        BadCase{"AlphaTiny", R"({"alpha":5e-324})", "alpha is 4.94066e-324; it must be in"},
        BadCase{"MissingCounts", R"({"topic_term_counts":null})", "'topic_term_counts' is missing"},
        BadCase{"CountsNotArray", R"({"topic_term_counts":{"a":1}})", "array of rows"},
        BadCase{"NoRows", R"({"topic_term_counts":[]})", "has no rows"},
        BadCase{"RowNotArray", R"({"topic_term_counts":[[1,2,3],5]})", "row 1 is a number"},
        BadCase{"RaggedRow", R"({"topic_term_counts":[[1,2,3],[4,5]]})",
                "row 1 has 2 entries; expected 3"},
        BadCase{"CountNotNumber", R"({"topic_term_counts":[[1,"2",3],[4,5,6]]})",
                "entry [0][1] (term 'banana') is a string"},
        BadCase{"NegativeCount", R"({"topic_term_counts":[[1,2,3],[4,-5,6]]})",
                "entry [1][1] (term 'banana') is -5"},
        BadCase{"FractionalCount", R"({"topic_term_counts":[[1,2,3.5],[4,5,6]]})",
                "entry [0][2] (term 'cherry') is 3.5"},
        BadCase{"HugeCount", R"({"topic_term_counts":[[1,2,1e300],[4,5,6]]})",
                "must be <= 2^53"},
        BadCase{"NumTopicsMismatch", R"({"num_topics":3})", "'num_topics' is 3"},
        BadCase{"NumTopicsNotInteger", R"({"num_topics":"2"})", "'num_topics' must be an integer"},
        BadCase{"MetadataNotObject", R"({"metadata":[1]})", "'metadata' must be an object"}),
    [](const auto& info) { return info.param.name; });

TEST(ModelFileTest, TopLevelMustBeAnObject) {
  ExpectError(ModelFromJson(json::parse("[1,2]")).status(), absl::StatusCode::kInvalidArgument,
              "JSON object");
}

TEST(ModelFileTest, MissingFileIsNotFound) {
  ExpectError(ReadModelFile(TempPath("does-not-exist.json")).status(),
              absl::StatusCode::kNotFound, "does-not-exist.json");
}

TEST(ModelFileTest, DirectoryIsNotAModelFile) {
  ExpectError(ReadModelFile(::testing::TempDir()).status(), absl::StatusCode::kInvalidArgument,
              "is a directory");
}

TEST(ModelFileTest, NonJsonNamesLineAndColumn) {
  const std::string path = TempPath("broken.json");
  WriteText(path, "{\n  \"vocabulary\": [\"a\"],\n  \"alpha\": oops\n}\n");
  const absl::Status s = ReadModelFile(path).status();
  ExpectError(s, absl::StatusCode::kInvalidArgument, "line 3, column 12");
  ExpectError(s, absl::StatusCode::kInvalidArgument, "broken.json");
  std::filesystem::remove(path);
}

// Found by fuzz_model_file: a number beyond a double's range anywhere in
// the file aborted every command that reads a model (an uncaught
// nlohmann::json out_of_range, exit 134).
TEST(ModelFileTest, NumberBeyondADoubleIsAnErrorNamingTheFile) {
  const std::string path = TempPath("overflow.json");
  WriteText(path, R"({"vocabulary":["a"],"alpha":1,"beta":1,"topic_term_counts":[[0]],)"
                  R"("metadata":{"x":1e400}})");
  const absl::Status s = ReadModelFile(path).status();
  ExpectError(s, absl::StatusCode::kInvalidArgument, "overflow.json' is not valid JSON");
  ExpectError(s, absl::StatusCode::kInvalidArgument, "1e400");
  std::filesystem::remove(path);
}

TEST(ModelFileTest, FieldErrorsFromAFileNameThePath) {
  const std::string path = TempPath("ragged.json");
  json j = ModelToJson(SmallModel());
  j["topic_term_counts"][1] = {1, 2};
  WriteText(path, j.dump());
  const absl::Status s = ReadModelFile(path).status();
  ExpectError(s, absl::StatusCode::kInvalidArgument, "ragged.json");
  ExpectError(s, absl::StatusCode::kInvalidArgument, "row 1 has 2 entries");
  std::filesystem::remove(path);
}

TEST(ModelFileTest, InvalidModelIsNotWrittenAndOldFileSurvives) {
  const std::string path = TempPath("keep.json");
  ASSERT_TRUE(WriteModelFile(SmallModel(), path).ok());
  const std::string before = ReadText(path);
  LdaModel bad = SmallModel();
  bad.topic_term_counts[0] = -1;
  ExpectError(WriteModelFile(bad, path), absl::StatusCode::kInvalidArgument, "[0][0]");
  EXPECT_EQ(ReadText(path), before);
  std::filesystem::remove(path);
}

TEST(ModelFileTest, UnwritablePathIsAnError) {
  const absl::Status s = WriteModelFile(SmallModel(), TempPath("no-such-dir/model.json"));
  ExpectError(s, absl::StatusCode::kNotFound, "no-such-dir");
}

}  // namespace
}  // namespace pplda::lda

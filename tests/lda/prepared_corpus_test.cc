#include "lda/prepared_corpus.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/lda/corpus_test_util.h"

namespace pplda::lda {
namespace {

using ::pplda::lda::testing_util::ScratchDir;
using ::pplda::lda::testing_util::StatusIs;
using ::testing::ElementsAre;

RawCorpus MakeRaw(const std::vector<std::pair<std::string, std::string>>& docs) {
  RawCorpus raw;
  for (const auto& [name, text] : docs) {
    RawDocument d;
    d.name = name;
    d.text = text;
    raw.documents.push_back(std::move(d));
  }
  raw.report.documents = static_cast<int64_t>(docs.size());
  return raw;
}

std::vector<std::string> Names(const Corpus& corpus) {
  std::vector<std::string> names;
  for (const auto& d : corpus.documents) names.push_back(d.name);
  return names;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Seven documents; with test_every = 3, documents 2 and 5 are held out.
RawCorpus SevenDocuments() {
  return MakeRaw({{"a", "apple pear"},
                  {"b", "apple plum"},
                  {"c", "apple kiwi"},  // test
                  {"d", "pear plum"},
                  {"e", "plum pear apple"},
                  {"f", "kiwi"},        // test: kiwi is not in the training vocabulary
                  {"g\tx\\y", "apple pear"}});
}

PreprocessOptions Loose() {
  PreprocessOptions options;
  options.min_df = 1;
  options.max_df = 1.0;
  return options;
}

TEST(PrepareCorpusTest, SplitRuleAndVocabularyFromTrain) {
  PreprocessReport report;
  auto prepared = PrepareCorpus(SevenDocuments(), Loose(), SplitOptions{3}, &report);
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  EXPECT_THAT(prepared->train.vocabulary.terms(), ElementsAre("apple", "pear", "plum"));
  EXPECT_THAT(Names(prepared->train), ElementsAre("a", "b", "d", "e", "g\tx\\y"));
  EXPECT_THAT(Names(prepared->test), ElementsAre("c"));
  EXPECT_THAT(prepared->test.documents[0].tokens, ElementsAre(0));
  EXPECT_EQ(prepared->test.vocabulary.terms(), prepared->train.vocabulary.terms());
  EXPECT_EQ(report.documents_in, 7);
  EXPECT_EQ(report.documents_out, 6);
  EXPECT_EQ(report.dropped_empty, 1);
  EXPECT_EQ(report.unknown_tokens, 2);  // kiwi in c and f
  EXPECT_EQ(report.terms_after_df, 3);
  const nlohmann::json& stats = prepared->stats;
  EXPECT_EQ(stats["vocabulary_size"], 3);
  EXPECT_EQ(stats["train"]["documents"], 5);
  EXPECT_EQ(stats["train"]["tokens"], 11);
  EXPECT_EQ(stats["test"]["documents"], 1);
  EXPECT_EQ(stats["split"]["test_every"], 3);
  EXPECT_EQ(stats["split"]["rule"],
            "raw document i (0-based, reading order) is a test document iff i % 3 == 2");
  EXPECT_EQ(stats["preprocess"]["min_df"], 1);
  EXPECT_EQ(stats["preprocess_report"]["test"]["unknown_tokens"], 2);
}

TEST(PrepareCorpusTest, NoTestSetAndInvalidSplit) {
  auto all = PrepareCorpus(SevenDocuments(), Loose(), SplitOptions{0}, nullptr);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->train.num_documents(), 7);
  EXPECT_EQ(all->test.num_documents(), 0);
  EXPECT_EQ(all->test.vocabulary.size(), 4);
  for (int bad : {-1, 1}) {
    EXPECT_TRUE(StatusIs(PrepareCorpus(SevenDocuments(), Loose(), SplitOptions{bad}, nullptr),
                         absl::StatusCode::kInvalidArgument, {"test_every"}));
  }
}

TEST(PreparedFolderTest, RoundTrip) {
  ScratchDir dir;
  auto prepared = PrepareCorpus(SevenDocuments(), Loose(), SplitOptions{3}, nullptr);
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  prepared->stats["input"] = "somewhere";
  const std::string out = dir.Path("prepared/nested");
  ASSERT_TRUE(WritePreparedCorpus(*prepared, out).ok());
  EXPECT_TRUE(IsPreparedCorpusDir(out));
  EXPECT_EQ(ReadAll(out + "/vocabulary.txt"), "apple\npear\nplum\n");
  EXPECT_EQ(ReadAll(out + "/train.txt"),
            "a\t0 1\nb\t0 2\nd\t1 2\ne\t2 1 0\ng\\tx\\\\y\t0 1\n");
  EXPECT_EQ(ReadAll(out + "/test.txt"), "c\t0\n");

  auto back = ReadPreparedCorpus(out);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->train.vocabulary.terms(), prepared->train.vocabulary.terms());
  EXPECT_EQ(back->test.vocabulary.terms(), prepared->train.vocabulary.terms());
  ASSERT_EQ(back->train.num_documents(), prepared->train.num_documents());
  for (int m = 0; m < back->train.num_documents(); ++m) {
    EXPECT_EQ(back->train.documents[m].name, prepared->train.documents[m].name);
    EXPECT_EQ(back->train.documents[m].tokens, prepared->train.documents[m].tokens);
  }
  ASSERT_EQ(back->test.num_documents(), 1);
  EXPECT_EQ(back->test.documents[0].tokens, prepared->test.documents[0].tokens);
  EXPECT_EQ(back->stats, prepared->stats);
}

TEST(PreparedFolderTest, RefusesAFolderThatHoldsFiles) {
  ScratchDir dir;
  dir.Write("out/keep.txt", "precious");
  auto prepared = PrepareCorpus(SevenDocuments(), Loose(), SplitOptions{3}, nullptr);
  ASSERT_TRUE(prepared.ok());
  EXPECT_TRUE(StatusIs(WritePreparedCorpus(*prepared, dir.Path("out")),
                       absl::StatusCode::kFailedPrecondition, {dir.Path("out"), "already holds"}));
  EXPECT_EQ(ReadAll(dir.Path("out/keep.txt")), "precious");
  EXPECT_FALSE(std::filesystem::exists(dir.Path("out/train.txt")));
  EXPECT_FALSE(IsPreparedCorpusDir(dir.Path("out")));
  // An existing empty folder is fine.
  std::filesystem::create_directories(dir.Path("empty"));
  EXPECT_TRUE(WritePreparedCorpus(*prepared, dir.Path("empty")).ok());
}

TEST(PreparedFolderTest, WritesThroughATemporaryFolderItRenames) {
  ScratchDir dir;
  auto prepared = PrepareCorpus(SevenDocuments(), Loose(), SplitOptions{3}, nullptr);
  ASSERT_TRUE(prepared.ok());
  ASSERT_TRUE(WritePreparedCorpus(*prepared, dir.Path("parent/out/")).ok());
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.Path("parent"))) {
    names.push_back(e.path().filename().string());
  }
  EXPECT_THAT(names, ::testing::ElementsAre("out"));  // no ".out.tmp-*" left
  EXPECT_TRUE(IsPreparedCorpusDir(dir.Path("parent/out")));
  const auto mode = std::filesystem::status(dir.Path("parent/out")).permissions();
  EXPECT_TRUE((mode & std::filesystem::perms::others_read) != std::filesystem::perms::none);
}

TEST(PreparedFolderTest, DetectsCompleteIncompleteAndRawFolders) {
  ScratchDir dir;
  auto prepared = PrepareCorpus(SevenDocuments(), Loose(), SplitOptions{3}, nullptr);
  ASSERT_TRUE(prepared.ok());
  ASSERT_TRUE(WritePreparedCorpus(*prepared, dir.Path("p")).ok());
  auto complete = DetectPreparedCorpusDir(dir.Path("p"));
  ASSERT_TRUE(complete.ok()) << complete.status();
  EXPECT_TRUE(*complete);

  std::filesystem::remove(dir.Path("p/train.txt"));
  EXPECT_FALSE(IsPreparedCorpusDir(dir.Path("p")));
  EXPECT_TRUE(StatusIs(DetectPreparedCorpusDir(dir.Path("p")),
                       absl::StatusCode::kFailedPrecondition,
                       {dir.Path("p"), "train.txt is missing", "--format folder"}));
  // What an interrupted prepare of an older version left: the vocabulary only.
  dir.Write("half/vocabulary.txt", "apple\n");
  EXPECT_TRUE(StatusIs(DetectPreparedCorpusDir(dir.Path("half")),
                       absl::StatusCode::kFailedPrecondition,
                       {"holds vocabulary.txt", "train.txt, test.txt, stats.json are missing"}));
  // Raw documents, a file and a missing path are simply not prepared.
  dir.Write("raw/a.txt", "words");
  dir.Write("raw/train.txt", "a document named train");
  for (const std::string& path : {dir.Path("raw"), dir.Path("raw/a.txt"), dir.Path("none")}) {
    auto detected = DetectPreparedCorpusDir(path);
    ASSERT_TRUE(detected.ok()) << path << ": " << detected.status();
    EXPECT_FALSE(*detected) << path;
  }
}

TEST(PreparedFolderTest, RefusesCorporaItCannotWrite) {
  ScratchDir dir;
  PreparedCorpus p;
  p.train.vocabulary.Add("a");
  p.test.vocabulary = p.train.vocabulary;
  p.train.documents.push_back({"empty", {}});
  EXPECT_TRUE(StatusIs(WritePreparedCorpus(p, dir.Path("x")), absl::StatusCode::kInvalidArgument,
                       {"empty", "no tokens"}));
  p.train.documents = {{"ok", {0}}};
  p.test.vocabulary.Add("b");
  EXPECT_TRUE(StatusIs(WritePreparedCorpus(p, dir.Path("x")), absl::StatusCode::kInvalidArgument,
                       {"training vocabulary"}));
  p.test.vocabulary = p.train.vocabulary;
  p.train.documents = {{"bad", {3}}};
  EXPECT_TRUE(StatusIs(WritePreparedCorpus(p, dir.Path("x")), absl::StatusCode::kInvalidArgument,
                       {"bad", "term id 3"}));
  EXPECT_FALSE(std::filesystem::exists(dir.Path("x")));
}

// Writes a valid folder, then replaces one file and expects an error.
class BadPreparedFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto prepared = PrepareCorpus(SevenDocuments(), Loose(), SplitOptions{3}, nullptr);
    ASSERT_TRUE(prepared.ok());
    ASSERT_TRUE(WritePreparedCorpus(*prepared, dir_.Path("p")).ok());
  }
  void Replace(const std::string& file, const std::string& contents) {
    dir_.Write("p/" + file, contents);
  }
  absl::Status Read() { return ReadPreparedCorpus(dir_.Path("p")).status(); }

  ScratchDir dir_;
};

TEST_F(BadPreparedFolderTest, MissingFolderOrFile) {
  EXPECT_TRUE(StatusIs(ReadPreparedCorpus(dir_.Path("none")).status(),
                       absl::StatusCode::kNotFound, {"none"}));
  EXPECT_TRUE(StatusIs(ReadPreparedCorpus(dir_.Path("p/train.txt")).status(),
                       absl::StatusCode::kInvalidArgument, {"not a folder"}));
  std::filesystem::remove(dir_.Path("p/test.txt"));
  EXPECT_TRUE(StatusIs(Read(), absl::StatusCode::kNotFound, {"test.txt"}));
  EXPECT_FALSE(IsPreparedCorpusDir(dir_.Path("none")));
}

TEST_F(BadPreparedFolderTest, BadVocabulary) {
  Replace("vocabulary.txt", "apple\n\nplum\n");
  EXPECT_TRUE(StatusIs(Read(), absl::StatusCode::kInvalidArgument,
                       {"vocabulary.txt:2", "empty term"}));
  Replace("vocabulary.txt", "apple\npear\napple\n");
  EXPECT_TRUE(StatusIs(Read(), absl::StatusCode::kInvalidArgument,
                       {"vocabulary.txt:3", "already appears on line 1"}));
  Replace("vocabulary.txt", "apple\npe\xFFr\nplum\n");
  EXPECT_TRUE(StatusIs(Read(), absl::StatusCode::kInvalidArgument,
                       {"vocabulary.txt:2", "UTF-8"}));
  Replace("vocabulary.txt", "");
  EXPECT_TRUE(StatusIs(Read(), absl::StatusCode::kInvalidArgument, {"vocabulary.txt", "no terms"}));
}

TEST_F(BadPreparedFolderTest, BadDocumentLines) {
  const struct {
    std::string train;
    std::vector<std::string> fragments;
  } cases[] = {
      {"a\t0 1\nb 0 2\n", {"train.txt:2", "tab"}},
      {"a\t0 3\n", {"train.txt:1", "token 2", "\"3\"", "0..2"}},
      {"a\t0 -1\n", {"train.txt:1", "\"-1\""}},
      {"a\t0 x1\n", {"train.txt:1", "\"x1\""}},
      {"a\t\n", {"train.txt:1", "no tokens"}},
      {"a\\q\t0\n", {"train.txt:1", "bad escape"}},
      {"", {"train.txt", "no training documents"}},
  };
  for (const auto& c : cases) {
    Replace("train.txt", c.train);
    EXPECT_TRUE(StatusIs(Read(), absl::StatusCode::kInvalidArgument, c.fragments)) << c.train;
  }
}

TEST_F(BadPreparedFolderTest, BadStats) {
  const std::string good = ReadAll(dir_.Path("p/stats.json"));
  nlohmann::json stats = nlohmann::json::parse(good);
  Replace("stats.json", "{not json");
  EXPECT_TRUE(StatusIs(Read(), absl::StatusCode::kInvalidArgument, {"stats.json", "JSON"}));

  nlohmann::json wrong = stats;
  wrong["format"] = "something-else";
  Replace("stats.json", wrong.dump());
  EXPECT_TRUE(StatusIs(Read(), absl::StatusCode::kInvalidArgument, {"stats.json", "format"}));

  wrong = stats;
  wrong["version"] = 2;
  Replace("stats.json", wrong.dump());
  EXPECT_TRUE(StatusIs(Read(), absl::StatusCode::kInvalidArgument, {"version 2"}));

  wrong = stats;
  wrong["train"]["tokens"] = 12;
  Replace("stats.json", wrong.dump());
  EXPECT_TRUE(StatusIs(Read(), absl::StatusCode::kInvalidArgument,
                       {"stats.json", "train.tokens", "12", "train.txt has 11"}));

  wrong = stats;
  wrong.erase("test");
  Replace("stats.json", wrong.dump());
  EXPECT_TRUE(StatusIs(Read(), absl::StatusCode::kInvalidArgument, {"\"test\""}));

  Replace("stats.json", good);
  EXPECT_TRUE(Read().ok());
}

}  // namespace
}  // namespace pplda::lda

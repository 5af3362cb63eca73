#include "lda/tokenizer.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/lda/corpus_test_util.h"

namespace pplda::lda {
namespace {

using ::pplda::lda::testing_util::ScratchDir;
using ::pplda::lda::testing_util::StatusIs;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

RawDocument Text(std::string text) {
  RawDocument doc;
  doc.name = "doc";
  doc.text = std::move(text);
  return doc;
}

RawDocument Words(std::vector<std::string> words) {
  RawDocument doc;
  doc.name = "bag";
  doc.words = std::move(words);
  doc.pretokenized = true;
  return doc;
}

std::vector<std::string> MustTokenize(const RawDocument& doc, const PreprocessOptions& options) {
  auto tokens = Tokenize(doc, options);
  EXPECT_TRUE(tokens.ok()) << tokens.status();
  return tokens.ok() ? *tokens : std::vector<std::string>{};
}

TEST(TokenizerTest, DefaultRules) {
  // Lower case; split at non-letters (apostrophe, hyphen, digit, punctuation);
  // "the" and "over" are stop words; "s", "au", "ox" are shorter than 3;
  // the 16-letter word is longer than 15; accented letters are letters.
  const std::string text =
      "The QUICK brown fox's 2jumps over; Caf\xC3\xA9-au-lait NA\xC3\x8FVE "
      "abcdefghijklmnop abcdefghijklmno ox";
  EXPECT_THAT(MustTokenize(Text(text), PreprocessOptions{}),
              ElementsAre("quick", "brown", "fox", "jumps", "caf\xC3\xA9", "lait",
                          "na\xC3\xAFve", "abcdefghijklmno"));
}

TEST(TokenizerTest, LengthIsCountedInCodePoints) {
  PreprocessOptions options;
  options.min_length = 4;
  options.max_length = 4;
  // "café" is 4 code points (5 bytes); "cafés" 5; "cab" 3.
  EXPECT_THAT(MustTokenize(Text("caf\xC3\xA9 caf\xC3\xA9s cab cabs"), options),
              ElementsAre("caf\xC3\xA9", "cabs"));
}

TEST(TokenizerTest, StopwordsCanBeKeptOrReplaced) {
  PreprocessOptions keep;
  keep.remove_stopwords = false;
  EXPECT_THAT(MustTokenize(Text("the cat and the hat"), keep),
              ElementsAre("the", "cat", "and", "the", "hat"));

  ScratchDir dir;
  PreprocessOptions custom;
  custom.stopwords_path = dir.Write("stop.txt", "# my list\n  CAT \n\nhat\r\n");
  EXPECT_THAT(MustTokenize(Text("the cat and the hat"), custom),
              ElementsAre("the", "and", "the"));
}

TEST(TokenizerTest, BundledStopwords) {
  auto words = LoadStopwords("");
  ASSERT_TRUE(words.ok()) << words.status();
  EXPECT_EQ(words->size(), 301u);
  EXPECT_EQ(words->front(), "a");
  EXPECT_THAT(*words, Contains("the"));
  EXPECT_THAT(*words, Contains("over"));
}

TEST(TokenizerTest, StopwordFileErrors) {
  EXPECT_TRUE(StatusIs(LoadStopwords("/nonexistent/stop.txt"), absl::StatusCode::kNotFound,
                       {"/nonexistent/stop.txt"}));
  ScratchDir dir;
  const std::string bad = dir.Write("bad.txt", "ok\nba\xFF" "d\n");
  EXPECT_TRUE(StatusIs(LoadStopwords(bad), absl::StatusCode::kInvalidArgument,
                       {"bad.txt:2", "UTF-8"}));
  PreprocessOptions options;
  options.stopwords_path = "/nonexistent/stop.txt";
  EXPECT_TRUE(StatusIs(Tokenizer::Create(options), absl::StatusCode::kNotFound, {"stop.txt"}));
}

TEST(TokenizerTest, SnowballStemming) {
  PreprocessOptions options;
  options.stem = true;
  EXPECT_THAT(MustTokenize(Text("Running runs easily; connection connected ran"), options),
              ElementsAre("run", "run", "easili", "connect", "connect", "ran"));
  options.stem_language = "klingon";
  EXPECT_TRUE(StatusIs(Tokenizer::Create(options), absl::StatusCode::kInvalidArgument,
                       {"'klingon'", "english"}));
}

TEST(TokenizerTest, NoPreprocessKeepsWhitespaceTokensExactly) {
  PreprocessOptions off;
  off.enabled = false;
  off.stem = true;              // ignored
  off.stem_language = "bogus";  // not even checked
  EXPECT_THAT(MustTokenize(Text("  The QUICK,\tfox's 2 a\r\n\xC3\xA9t\xC3\xA9 "), off),
              ElementsAre("The", "QUICK,", "fox's", "2", "a", "\xC3\xA9t\xC3\xA9"));
  EXPECT_THAT(MustTokenize(Words({"Hello-World", "", "the", "x"}), off),
              ElementsAre("Hello-World", "the", "x"));
  EXPECT_THAT(MustTokenize(Text(" \n "), off), IsEmpty());
}

TEST(TokenizerTest, PretokenizedWordsGoThroughTheSameRules) {
  EXPECT_THAT(MustTokenize(Words({"Hello-World", "the", "ab", "Zebra"}), PreprocessOptions{}),
              ElementsAre("hello", "world", "zebra"));
}

TEST(TokenizerTest, InvalidUtf8InADocumentIsAnError) {
  EXPECT_TRUE(StatusIs(Tokenize(Text("ok \xC3"), PreprocessOptions{}),
                       absl::StatusCode::kInvalidArgument, {"document doc", "byte offset 3"}));
}

TEST(TokenizerTest, CountRawTokens) {
  EXPECT_EQ(CountRawTokens(Text("a b,c  d\n")), 3);
  EXPECT_EQ(CountRawTokens(Words({"x", "y"})), 2);
}

TEST(PreprocessOptionsTest, ValidationNamesTheField) {
  struct Case {
    void (*mutate)(PreprocessOptions*);
    std::string field;
  };
  const Case cases[] = {
      {[](PreprocessOptions* o) { o->min_length = 0; }, "min_length"},
      {[](PreprocessOptions* o) { o->max_length = 2; }, "max_length"},
      {[](PreprocessOptions* o) { o->min_df = 0; }, "min_df"},
      {[](PreprocessOptions* o) { o->max_df = 0.0; }, "max_df"},
      {[](PreprocessOptions* o) { o->max_df = 1.5; }, "max_df"},
      {[](PreprocessOptions* o) { o->max_tokens_per_doc = -1; }, "max_tokens_per_doc"},
  };
  for (const Case& c : cases) {
    PreprocessOptions o;
    c.mutate(&o);
    EXPECT_TRUE(StatusIs(ValidatePreprocessOptions(o), absl::StatusCode::kInvalidArgument,
                         {c.field}));
  }
  EXPECT_TRUE(ValidatePreprocessOptions(PreprocessOptions{}).ok());
}

TEST(PreprocessOptionsTest, JsonRoundTripAndErrors) {
  PreprocessOptions o;
  o.enabled = false;
  o.stopwords_path = "s.txt";
  o.min_length = 2;
  o.max_df = 0.25;
  o.stem = true;
  o.stem_language = "german";
  o.max_tokens_per_doc = 7;
  auto back = PreprocessOptionsFromJson(PreprocessOptionsToJson(o));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(PreprocessOptionsToJson(*back), PreprocessOptionsToJson(o));
  EXPECT_EQ(back->max_tokens_per_doc, 7);

  EXPECT_TRUE(StatusIs(PreprocessOptionsFromJson({{"min_df", "two"}}),
                       absl::StatusCode::kInvalidArgument, {"min_df", "wrong type"}));
  EXPECT_TRUE(StatusIs(PreprocessOptionsFromJson({{"max_df", 2.0}}),
                       absl::StatusCode::kInvalidArgument, {"max_df"}));
  EXPECT_TRUE(StatusIs(PreprocessOptionsFromJson(nlohmann::json::array()),
                       absl::StatusCode::kInvalidArgument, {"JSON object"}));
}

}  // namespace
}  // namespace pplda::lda

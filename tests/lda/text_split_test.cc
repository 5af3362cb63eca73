#include "lda/text_split.h"

#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::lda {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(CountWordsTest, WhitespaceSeparated) {
  EXPECT_EQ(CountWords(""), 0);
  EXPECT_EQ(CountWords(" \t\n "), 0);
  EXPECT_EQ(CountWords("one"), 1);
  EXPECT_EQ(CountWords("  two\twords\r\n"), 2);
  EXPECT_EQ(CountWords("a-b c,d e.f"), 3);
}

TEST(SplitParagraphsTest, BlankLinesSeparate) {
  EXPECT_THAT(SplitParagraphs("First line\nstill first.\n\nSecond.\n \t\n\n\nThird\n"),
              ElementsAre("First line\nstill first.", "Second.", "Third"));
  EXPECT_THAT(SplitParagraphs("\n\n  only one  \n\n"), ElementsAre("only one"));
  EXPECT_THAT(SplitParagraphs("crlf one\r\n\r\ncrlf two"), ElementsAre("crlf one", "crlf two"));
  EXPECT_THAT(SplitParagraphs(" \n\n "), IsEmpty());
}

TEST(SplitSentencesTest, TerminatorsFollowedBySpaceOrEnd) {
  EXPECT_THAT(SplitSentences("One two. Three?! Four\nfive... Six"),
              ElementsAre("One two.", "Three?!", "Four\nfive...", "Six"));
  // No split inside numbers or without a following space.
  EXPECT_THAT(SplitSentences("Pi is 3.14 today.Really. Yes"),
              ElementsAre("Pi is 3.14 today.Really.", "Yes"));
  // Closing quotes and brackets stay with their sentence.
  EXPECT_THAT(SplitSentences("He said \"stop.\" Then (he left.) End"),
              ElementsAre("He said \"stop.\"", "Then (he left.)", "End"));
  // U+2026 and typographic quotes.
  EXPECT_THAT(SplitSentences("Wait\xE2\x80\xA6 \xE2\x80\x9CGo!\xE2\x80\x9D Done."),
              ElementsAre("Wait\xE2\x80\xA6", "\xE2\x80\x9CGo!\xE2\x80\x9D", "Done."));
  // No abbreviation list: "Mr." ends a sentence; trailing whitespace is no
  // sentence.
  EXPECT_THAT(SplitSentences("Mr. Smith came. \n "), ElementsAre("Mr.", "Smith came."));
}

// A long run of terminators that ends no sentence ("....x") is scanned
// once: each position of the run used to rescan the rest of it (quadratic;
// 4 MiB of dots, well under the reader's 256 MiB file limit, took hours).
TEST(SplitSentencesTest, LongTerminatorRunsTakeLinearTime) {
  for (const std::string& tail : {std::string("x end."), std::string(")))x end.")}) {
    const std::string text = "Start " + std::string(size_t{4} << 20, '.') + tail;
    const absl::Time start = absl::Now();
    const std::vector<std::string_view> sentences = SplitSentences(text);
    const absl::Duration took = absl::Now() - start;
    ASSERT_EQ(sentences.size(), 1u);
    EXPECT_EQ(sentences[0].size(), text.size());
    EXPECT_LT(took, absl::Seconds(5)) << "quadratic again?";
  }
  EXPECT_THAT(SplitSentences("a ...x b... c"), ElementsAre("a ...x b...", "c"));
  EXPECT_THAT(SplitSentences("a .\xE2\x80\xA6.x b?!\xE2\x80\xA6\" c"),
              ElementsAre("a .\xE2\x80\xA6.x b?!\xE2\x80\xA6\"", "c"));
}

TEST(PackSentenceWindowsTest, GreedyWholeSentences) {
  // Sentences of 2, 3, 1, 4 and 2 words, window of 5 words.
  const std::string text = "a b. c d e. f. g h i j. k l.";
  EXPECT_THAT(PackSentenceWindows(text, 5),
              ElementsAre("a b. c d e.", "f. g h i j.", "k l."));
  EXPECT_THAT(PackSentenceWindows(text, 100), ElementsAre(text));
  EXPECT_THAT(PackSentenceWindows(text, 1),
              ElementsAre("a b.", "c d e.", "f.", "g h i j.", "k l."));
}

TEST(PackSentenceWindowsTest, LongSentenceIsItsOwnWindow) {
  EXPECT_THAT(PackSentenceWindows("x. one two three four five six. y z.", 3),
              ElementsAre("x.", "one two three four five six.", "y z."));
  EXPECT_THAT(PackSentenceWindows("", 3), IsEmpty());
}

}  // namespace
}  // namespace pplda::lda

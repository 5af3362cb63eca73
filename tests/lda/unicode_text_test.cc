#include "lda/unicode_text.h"

#include <random>
#include <string>

#include "gtest/gtest.h"

namespace pplda::lda {
namespace {

TEST(FindInvalidUtf8Test, AcceptsWellFormedText) {
  EXPECT_FALSE(FindInvalidUtf8("").has_value());
  EXPECT_FALSE(FindInvalidUtf8("plain ASCII\n").has_value());
  // é (2 bytes), € (3 bytes), 😀 (4 bytes), U+10FFFF (largest).
  EXPECT_FALSE(FindInvalidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF")
                   .has_value());
}

TEST(FindInvalidUtf8Test, ReportsOffsetAndLineOfFirstBadSequence) {
  struct Case {
    std::string text;
    size_t offset, line;
  };
  const Case cases[] = {
      {"ab\xFF", 2, 1},                 // byte never valid
      {"a\nb\nc\x80", 5, 3},            // lone continuation byte on line 3
      {"\xC0\xAF", 0, 1},               // overlong '/'
      {"x\xE0\x80\xAF", 1, 1},          // overlong 3-byte form
      {"\xED\xA0\x80", 0, 1},           // UTF-16 surrogate U+D800
      {"\xF4\x90\x80\x80", 0, 1},       // above U+10FFFF
      {"ok\n\xC3", 3, 2},               // truncated at the end
      {"\xE2\x82 x", 0, 1},             // truncated in the middle
  };
  for (const Case& c : cases) {
    auto bad = FindInvalidUtf8(c.text);
    ASSERT_TRUE(bad.has_value()) << c.text;
    EXPECT_EQ(bad->byte_offset, c.offset) << c.text;
    EXPECT_EQ(bad->line, c.line) << c.text;
  }
}

TEST(Utf8CodecTest, DecodeAndEncodeRoundTrip) {
  const std::string text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  size_t pos = 0;
  EXPECT_EQ(DecodeUtf8At(text, &pos), U'a');
  EXPECT_EQ(DecodeUtf8At(text, &pos), char32_t{0xE9});
  EXPECT_EQ(DecodeUtf8At(text, &pos), char32_t{0x20AC});
  EXPECT_EQ(DecodeUtf8At(text, &pos), char32_t{0x1F600});
  EXPECT_EQ(pos, text.size());
  std::string out;
  for (char32_t cp : {U'a', char32_t{0xE9}, char32_t{0x20AC}, char32_t{0x1F600}}) {
    AppendUtf8(cp, &out);
  }
  EXPECT_EQ(out, text);
  EXPECT_EQ(CountCodePoints(text), 4u);
}

TEST(IsWordLetterTest, LettersAndSeparators) {
  for (char32_t cp : {U'a', U'Z', char32_t{0xE9}, char32_t{0x0301} /*combining acute*/,
                      char32_t{0x03B1} /*alpha*/, char32_t{0x0436} /*zhe*/,
                      char32_t{0x4E2D} /*CJK*/, char32_t{0x05D0} /*alef*/}) {
    EXPECT_TRUE(IsWordLetter(cp)) << static_cast<uint32_t>(cp);
  }
  for (char32_t cp : {U'0', U'9', U' ', U'\'', U'-', U'_', char32_t{0xA0} /*NBSP*/,
                      char32_t{0xD7}, char32_t{0x2019} /*’*/, char32_t{0x2014} /*—*/,
                      char32_t{0x20AC} /*€*/, char32_t{0x3002} /*。*/,
                      char32_t{0x1F600} /*emoji*/, char32_t{0x0663} /*Arabic 3*/,
                      char32_t{0xFEFF}}) {
    EXPECT_FALSE(IsWordLetter(cp)) << static_cast<uint32_t>(cp);
  }
}

TEST(ToLowerCaseTest, CoveredScripts) {
  EXPECT_EQ(ToLowerCaseUtf8("HeLLo"), "hello");
  EXPECT_EQ(ToLowerCaseUtf8("\xC3\x89T\xC3\x89"), "\xC3\xA9t\xC3\xA9");  // ÉTÉ -> été
  EXPECT_EQ(ToLowerCaseUtf8("\xC5\x81\xC3\x93\xC4\x86"),                // ŁÓĆ -> łóć
            "\xC5\x82\xC3\xB3\xC4\x87");
  EXPECT_EQ(ToLowerCaseUtf8("\xCE\xA3\xCE\x9F\xCE\xA6"),                // ΣΟΦ -> σοφ
            "\xCF\x83\xCE\xBF\xCF\x86");
  EXPECT_EQ(ToLowerCaseUtf8("\xD0\x9C\xD0\x98\xD0\xA0\xD0\x81"),        // МИРЁ -> мирё
            "\xD0\xBC\xD0\xB8\xD1\x80\xD1\x91");
  EXPECT_EQ(ToLowerCase(0x178), char32_t{0xFF});                        // Ÿ -> ÿ
  EXPECT_EQ(ToLowerCase(0x130), U'i');                                  // İ -> i
  EXPECT_EQ(ToLowerCase(0xDF), char32_t{0xDF});                         // ß unchanged
  EXPECT_EQ(ToLowerCase(0x4E2D), char32_t{0x4E2D});                     // no case
}

// Property over random byte strings (fixed seed): text accepted as valid
// decodes into code points that re-encode to exactly the same bytes, and
// text rejected is rejected at the first byte where decoding could not
// proceed (the prefix before it is valid).
TEST(FindInvalidUtf8Test, RandomBytesAgreeWithDecoder) {
  std::mt19937 rng(20240601);
  // Bias towards bytes that form multi-byte sequences.
  const unsigned char alphabet[] = {'a', ' ', '\n', 0x80, 0x9F, 0xA0, 0xBF, 0xC2, 0xC3,
                                    0xDF, 0xE0, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
  std::uniform_int_distribution<size_t> pick(0, sizeof(alphabet) - 1);
  std::uniform_int_distribution<size_t> length(0, 12);
  int valid = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text;
    for (size_t n = length(rng); n > 0; --n) text.push_back(static_cast<char>(alphabet[pick(rng)]));
    auto bad = FindInvalidUtf8(text);
    const std::string checked = bad ? text.substr(0, bad->byte_offset) : text;
    ASSERT_FALSE(FindInvalidUtf8(checked).has_value());
    std::string reencoded;
    size_t pos = 0;
    while (pos < checked.size()) AppendUtf8(DecodeUtf8At(checked, &pos), &reencoded);
    ASSERT_EQ(reencoded, checked);
    if (!bad) ++valid;
  }
  EXPECT_GT(valid, 1000);  // both outcomes were exercised
  EXPECT_LT(valid, 19000);
}

}  // namespace
}  // namespace pplda::lda

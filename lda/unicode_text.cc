#include "lda/unicode_text.h"

#include <cstdint>

namespace pplda::lda {
namespace {

bool IsContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length of the well-formed sequence starting at text[i], or 0 if invalid.
size_t ValidSequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlong forms
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // no overlong forms
    if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    if (!IsContinuation(byte(i + k))) return 0;
  }
  return len;
}

struct Range {
  char32_t first, last;
};

// Non-ASCII code points that separate words (see the header).
constexpr Range kNonLetterRanges[] = {
    {0x0080, 0x00BF}, {0x00D7, 0x00D7}, {0x00F7, 0x00F7},
    {0x037E, 0x037E}, {0x0387, 0x0387}, {0x055A, 0x055F},
    {0x0589, 0x058A}, {0x05BE, 0x05BE}, {0x05C0, 0x05C0},
    {0x05C3, 0x05C3}, {0x05F3, 0x05F4}, {0x060C, 0x060D},
    {0x061B, 0x061B}, {0x061F, 0x061F}, {0x0660, 0x066D},
    {0x06D4, 0x06D4}, {0x06F0, 0x06F9}, {0x0964, 0x096F},
    {0x2000, 0x2BFF}, {0x2E00, 0x2E7F}, {0x3000, 0x303F},
    {0xE000, 0xF8FF}, {0xFE10, 0xFE1F}, {0xFE30, 0xFE6F},
    {0xFEFF, 0xFEFF}, {0xFF00, 0xFF20}, {0xFF3B, 0xFF40},
    {0xFF5B, 0xFF65}, {0xFFF0, 0xFFFF}, {0x1F000, 0x1FAFF},
    {0xE0000, 0xE007F}, {0xF0000, 0x10FFFF},
};

// Maps an upper-case letter of a block whose pairs alternate (upper, lower)
// starting at an even (or odd) code point.
char32_t LowerAlternating(char32_t cp, bool upper_is_even) {
  const bool even = (cp % 2) == 0;
  return even == upper_is_even ? cp + 1 : cp;
}

char32_t LowerLatin(char32_t cp) {
  if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) return cp + 0x20;
  if (cp == 0x130) return U'i';
  if (cp >= 0x100 && cp <= 0x137) return LowerAlternating(cp, true);
  if (cp >= 0x139 && cp <= 0x148) return LowerAlternating(cp, false);
  if (cp >= 0x14A && cp <= 0x177) return LowerAlternating(cp, true);
  if (cp == 0x178) return 0xFF;
  if (cp >= 0x179 && cp <= 0x17E) return LowerAlternating(cp, false);
  if (cp >= 0x1E00 && cp <= 0x1E95) return LowerAlternating(cp, true);
  if (cp >= 0x1EA0 && cp <= 0x1EFF) return LowerAlternating(cp, true);
  return cp;
}

char32_t LowerGreekCyrillicArmenian(char32_t cp) {
  if (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) return cp + 0x20;
  if (cp == 0x386) return 0x3AC;
  if (cp >= 0x388 && cp <= 0x38A) return cp + 0x25;
  if (cp == 0x38C) return 0x3CC;
  if (cp == 0x38E || cp == 0x38F) return cp + 0x3F;
  if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50;
  if (cp >= 0x410 && cp <= 0x42F) return cp + 0x20;
  if (cp >= 0x460 && cp <= 0x481) return LowerAlternating(cp, true);
  if (cp >= 0x48A && cp <= 0x4BF) return LowerAlternating(cp, true);
  if (cp >= 0x4D0 && cp <= 0x4FF) return LowerAlternating(cp, true);
  if (cp >= 0x531 && cp <= 0x556) return cp + 0x30;
  return cp;
}

}  // namespace

std::optional<Utf8ErrorPosition> FindInvalidUtf8(std::string_view text) {
  size_t line = 1;
  size_t i = 0;
  while (i < text.size()) {
    const size_t len = ValidSequenceLength(text, i);
    if (len == 0) return Utf8ErrorPosition{i, line};
    if (text[i] == '\n') ++line;
    i += len;
  }
  return std::nullopt;
}

char32_t DecodeUtf8At(std::string_view text, size_t* pos) {
  const auto byte = [&](size_t k) {
    return static_cast<char32_t>(static_cast<unsigned char>(text[k]));
  };
  size_t i = *pos;
  const char32_t c = byte(i);
  if (c < 0x80) {
    *pos = i + 1;
    return c;
  }
  size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  char32_t cp = c & (0x7F >> len);
  for (size_t k = 1; k < len && i + k < text.size(); ++k) {
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  *pos = i + len;
  return cp;
}

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

size_t CountCodePoints(std::string_view valid_utf8) {
  size_t n = 0;
  for (char c : valid_utf8) {
    if (!IsContinuation(static_cast<unsigned char>(c))) ++n;
  }
  return n;
}

bool IsWordLetter(char32_t cp) {
  if (cp < 0x80) return (cp >= U'a' && cp <= U'z') || (cp >= U'A' && cp <= U'Z');
  for (const Range& r : kNonLetterRanges) {
    if (cp < r.first) return true;  // ranges are sorted
    if (cp <= r.last) return false;
  }
  return true;
}

char32_t ToLowerCase(char32_t cp) {
  if (cp < 0x80) return (cp >= U'A' && cp <= U'Z') ? cp + 0x20 : cp;
  if (cp >= 0xFF21 && cp <= 0xFF3A) return cp + 0x20;
  if (cp < 0x370 || (cp >= 0x1E00 && cp <= 0x1EFF)) return LowerLatin(cp);
  if (cp < 0x590) return LowerGreekCyrillicArmenian(cp);
  return cp;
}

std::string ToLowerCaseUtf8(std::string_view valid_utf8) {
  std::string out;
  out.reserve(valid_utf8.size());
  size_t pos = 0;
  while (pos < valid_utf8.size()) {
    AppendUtf8(ToLowerCase(DecodeUtf8At(valid_utf8, &pos)), &out);
  }
  return out;
}

}  // namespace pplda::lda

// UTF-8 helpers for the corpus readers and the tokenizer: validation with the
// position of the first bad byte, decoding, and the small, table-driven notion
// of "letter" and "lower case" that preprocessing uses.
//
// Letters (IsWordLetter): ASCII a-z and A-Z; every non-ASCII code point is a
// letter except these ranges, which separate words like ASCII punctuation:
// U+0080-U+00BF (Latin-1 controls, punctuation, symbols, NBSP), U+00D7,
// U+00F7, Greek / Armenian / Hebrew / Arabic / Devanagari punctuation and the
// Arabic-Indic and Devanagari digits, U+2000-U+2BFF (general punctuation,
// spaces, currency, letterlike and math symbols, arrows, shapes, dingbats),
// U+2E00-U+2E7F, U+3000-U+303F (CJK punctuation), U+FE10-U+FE1F,
// U+FE30-U+FE6F, fullwidth ASCII punctuation and digits, U+FEFF,
// U+FFF0-U+FFFF, the private-use areas, U+1F000-U+1FAFF (emoji and symbols)
// and U+E0000-U+E007F (tags). Combining diacritics (U+0300-U+036F) count as
// letters, so decomposed accents stay inside their word.
//
// Lower case (ToLowerCase): simple one-to-one mappings for ASCII, Latin-1,
// Latin Extended-A, Latin Extended Additional, Greek, Cyrillic, Armenian and
// fullwidth Latin. Other code points are returned unchanged (most other
// scripts have no case). No Unicode normalisation is applied.
//
// All functions are pure and thread-safe.
#ifndef PPLDA_LDA_UNICODE_TEXT_H_
#define PPLDA_LDA_UNICODE_TEXT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pplda::lda {

// Where the first invalid UTF-8 sequence of a text starts.
struct Utf8ErrorPosition {
  size_t byte_offset = 0;  // 0-based, from the start of the text
  size_t line = 1;         // 1-based line holding that byte
};

// Checks well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF). Returns nullopt when valid.
std::optional<Utf8ErrorPosition> FindInvalidUtf8(std::string_view text);

// Decodes the code point starting at text[*pos] and advances *pos past it.
// Requires valid UTF-8 (checked by FindInvalidUtf8) and *pos < text.size().
char32_t DecodeUtf8At(std::string_view text, size_t* pos);

// Appends the UTF-8 encoding of `cp` (a valid scalar value) to *out.
void AppendUtf8(char32_t cp, std::string* out);

// Number of code points in valid UTF-8 text.
size_t CountCodePoints(std::string_view valid_utf8);

bool IsWordLetter(char32_t cp);
char32_t ToLowerCase(char32_t cp);

// Lower-cases every code point of valid UTF-8 text.
std::string ToLowerCaseUtf8(std::string_view valid_utf8);

// The UTF-8 byte-order mark; readers drop it at the start of a file.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

}  // namespace pplda::lda

#endif  // PPLDA_LDA_UNICODE_TEXT_H_

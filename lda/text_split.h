// Cutting one text into several documents: paragraphs, sentences, and
// windows of consecutive whole sentences. Used by the document reader's
// --split modes; pure functions over UTF-8 text, thread-safe.
//
// Rules (also stated in docs/corpus.md):
// - Words: maximal runs of characters other than ASCII whitespace
//   (space, \t, \n, \v, \f, \r). Window sizes are counted in these words.
// - Paragraphs: text separated by one or more blank lines (a blank line is
//   empty or holds only whitespace). Paragraphs are trimmed; empty ones are
//   not returned.
// - Sentences: a sentence ends after a run of '.', '!', '?' or U+2026 '…',
//   optionally followed by closing quotes or brackets (" ' ) ] } ” ’ »),
//   when the next character is whitespace or the text ends. Text after the
//   last terminator is a final sentence. Sentences are trimmed; ones without
//   any word are dropped. No abbreviation list: "Mr. Smith" is two sentences.
// - Windows: sentences are packed greedily, in order, into windows of at most
//   `window_words` words; a sentence that would push the current window over
//   the limit starts a new window, so a window exceeds the limit only when it
//   is one sentence longer than the limit on its own.
#ifndef PPLDA_LDA_TEXT_SPLIT_H_
#define PPLDA_LDA_TEXT_SPLIT_H_

#include <string>
#include <string_view>
#include <vector>

namespace pplda::lda {

// Number of whitespace-separated words in `text`.
int CountWords(std::string_view text);

// Paragraphs of `text`, as views into it.
std::vector<std::string_view> SplitParagraphs(std::string_view text);

// Sentences of `text`, as views into it.
std::vector<std::string_view> SplitSentences(std::string_view text);

// Windows of whole sentences of `text`; each window is its sentences joined
// by one space. Requires window_words >= 1.
std::vector<std::string> PackSentenceWindows(std::string_view text, int window_words);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_TEXT_SPLIT_H_

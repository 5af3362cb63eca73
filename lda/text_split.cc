#include "lda/text_split.h"

namespace pplda::lda {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Length of the sentence terminator starting at text[i] ('.', '!', '?',
// "…"), or 0.
size_t TerminatorLength(std::string_view text, size_t i) {
  const char c = text[i];
  if (c == '.' || c == '!' || c == '?') return 1;
  if (text.substr(i, 3) == "\xE2\x80\xA6") return 3;  // U+2026
  return 0;
}

// Length of the closing quote or bracket starting at text[i], or 0.
size_t CloserLength(std::string_view text, size_t i) {
  const char c = text[i];
  if (c == '"' || c == '\'' || c == ')' || c == ']' || c == '}') return 1;
  for (std::string_view closer : {"\xE2\x80\x9D", "\xE2\x80\x99", "\xC2\xBB"}) {  // ” ’ »
    if (text.substr(i, closer.size()) == closer) return closer.size();
  }
  return 0;
}

// If a sentence ends at text[i], returns the index just past its terminator
// and closers; otherwise 0. *run_end is the end of the run of terminators
// starting at i (i when there is none): no sentence ends at a position
// inside that run either (from there the same run, closers and next
// character follow), so the caller resumes at *run_end, which keeps
// SplitSentences linear on a long run of dots.
size_t SentenceEndAt(std::string_view text, size_t i, size_t* run_end) {
  size_t j = i;
  bool any = false;
  while (j < text.size()) {
    const size_t len = TerminatorLength(text, j);
    if (len == 0) break;
    j += len;
    any = true;
  }
  *run_end = j;
  if (!any) return 0;
  while (j < text.size()) {
    const size_t len = CloserLength(text, j);
    if (len == 0) break;
    j += len;
  }
  return (j == text.size() || IsSpace(text[j])) ? j : 0;
}

}  // namespace

int CountWords(std::string_view text) {
  int words = 0;
  bool in_word = false;
  for (char c : text) {
    const bool space = IsSpace(c);
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

std::vector<std::string_view> SplitParagraphs(std::string_view text) {
  std::vector<std::string_view> paragraphs;
  size_t start = 0;       // start of the current paragraph
  size_t line_start = 0;  // start of the current line
  const auto flush = [&](size_t end) {
    std::string_view p = Trim(text.substr(start, end - start));
    if (!p.empty()) paragraphs.push_back(p);
  };
  while (line_start < text.size()) {
    size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    if (Trim(text.substr(line_start, line_end - line_start)).empty()) {
      flush(line_start);
      start = line_end;
    }
    line_start = line_end + 1;
  }
  if (start < text.size()) flush(text.size());
  return paragraphs;
}

std::vector<std::string_view> SplitSentences(std::string_view text) {
  std::vector<std::string_view> sentences;
  const auto add = [&](size_t begin, size_t end) {
    std::string_view s = Trim(text.substr(begin, end - begin));
    if (CountWords(s) > 0) sentences.push_back(s);
  };
  size_t begin = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t run_end = i;
    const size_t end = SentenceEndAt(text, i, &run_end);
    if (end == 0) {
      i = run_end > i ? run_end : i + 1;
      continue;
    }
    add(begin, end);
    begin = i = end;
  }
  if (begin < text.size()) add(begin, text.size());
  return sentences;
}

std::vector<std::string> PackSentenceWindows(std::string_view text, int window_words) {
  std::vector<std::string> windows;
  std::string current;
  int current_words = 0;
  for (std::string_view sentence : SplitSentences(text)) {
    const int words = CountWords(sentence);
    if (current_words > 0 && current_words + words > window_words) {
      windows.push_back(std::move(current));
      current.clear();
      current_words = 0;
    }
    if (!current.empty()) current.push_back(' ');
    current.append(sentence);
    current_words += words;
  }
  if (current_words > 0) windows.push_back(std::move(current));
  return windows;
}

}  // namespace pplda::lda

// libFuzzer target: text splitting (lda/text_split.h) on arbitrary bytes.
// The first byte chooses the window size (1..64 words); the rest is the
// text. Besides crashes, sanitizer reports and hangs, the splitting rules
// are checked as properties (a broken one aborts, which is a finding):
// every paragraph and sentence is a non-empty, trimmed view into the text,
// in order and without overlap; no word is lost or cut (the words of the
// paragraphs, of the sentences and of the windows each add up to the
// text's); a window over the limit holds a single sentence.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "lda/text_split.h"

namespace {

void Require(bool condition) {
  if (!condition) std::abort();
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// Non-empty, trimmed views into `text`, in order, not overlapping.
void CheckViews(std::string_view text, const std::vector<std::string_view>& views) {
  const char* last_end = text.data();
  for (std::string_view v : views) {
    Require(!v.empty());
    Require(!IsSpace(v.front()) && !IsSpace(v.back()));
    Require(v.data() >= last_end && v.data() + v.size() <= text.data() + text.size());
    last_end = v.data() + v.size();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const int window_words = 1 + data[0] % 64;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const int words = pplda::lda::CountWords(text);

  const std::vector<std::string_view> paragraphs = pplda::lda::SplitParagraphs(text);
  CheckViews(text, paragraphs);
  int paragraph_words = 0;
  for (std::string_view p : paragraphs) paragraph_words += pplda::lda::CountWords(p);
  Require(paragraph_words == words);

  const std::vector<std::string_view> sentences = pplda::lda::SplitSentences(text);
  CheckViews(text, sentences);
  int sentence_words = 0;
  for (std::string_view s : sentences) {
    Require(pplda::lda::CountWords(s) > 0);
    sentence_words += pplda::lda::CountWords(s);
  }
  Require(sentence_words == words);

  const std::vector<std::string> windows = pplda::lda::PackSentenceWindows(text, window_words);
  int window_words_total = 0;
  size_t next_sentence = 0;
  for (const std::string& w : windows) {
    const int n = pplda::lda::CountWords(w);
    Require(n > 0);
    window_words_total += n;
    // The window is the next sentences joined by single spaces.
    std::string joined;
    int joined_words = 0;
    size_t used = 0;
    while (joined_words < n && next_sentence + used < sentences.size()) {
      if (!joined.empty()) joined.push_back(' ');
      joined.append(sentences[next_sentence + used]);
      joined_words += pplda::lda::CountWords(sentences[next_sentence + used]);
      ++used;
    }
    Require(joined == w);
    Require(n <= window_words || used == 1);
    next_sentence += used;
  }
  Require(next_sentence == sentences.size());
  Require(window_words_total == words);
  return 0;
}

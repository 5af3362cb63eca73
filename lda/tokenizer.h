// Turning one raw document into terms: the per-document part of
// preprocessing (everything except document-frequency filtering and the
// token cap, which lda/preprocessor.h applies across the corpus).
//
// With options.enabled (the default), in this order:
//   1. split the text into words at every non-letter (lda/unicode_text.h
//      defines letters: ASCII letters plus most non-ASCII letters; digits,
//      punctuation, apostrophes and symbols separate words), lower-casing
//      each letter (ASCII, Latin, Greek, Cyrillic, Armenian; see
//      unicode_text.h). "Don't" gives "don" and "t"; "COVID-19" gives "covid".
//   2. drop stop words (remove_stopwords; the list is lower-cased on load);
//   3. drop words shorter than min_length or longer than max_length code
//      points (measured before stemming);
//   4. Snowball-stem the word (stem; libstemmer, stem_language).
// Pretokenized documents (UCI input) go through the same steps word by word.
// With enabled == false (--no-preprocess) the tokens are the maximal runs of
// non-whitespace bytes (ASCII whitespace), or the given words of a
// pretokenized document, exactly as they are: no case change, no filter.
//
// Defaults follow the topic-model privacy literature (docs/corpus.md): the
// preprocessing of Manzonelli, Zhang and Vadhan, "Membership Inference
// Attacks and Privacy in Topic Modeling", section 3.5: non-alphabetic
// characters removed, stop words removed, tokens shorter than 3 or longer
// than 15 characters removed (we stem instead of lemmatising, and only when
// asked). min_df = 2 drops terms that occur in a single document: section 3.4
// shows that documents with rare words are the ones LDA memorises and the
// attack identifies, and a term of one document in the public vocabulary
// names that document's content. max_df = 0.5 drops terms in more than half
// of the documents (corpus-specific stop words, as gensim's no_above = 0.5);
// it has no privacy role. Neither is a DP guarantee: that is privacy/'s DP
// vocabulary selection.
//
// Thread-safety: a Tokenizer owns a Snowball stemmer, which is not
// thread-safe; use one Tokenizer per thread. Free functions are reentrant.
#ifndef PPLDA_LDA_TOKENIZER_H_
#define PPLDA_LDA_TOKENIZER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lda/document_reader.h"
#include "nlohmann/json.hpp"

struct sb_stemmer;

namespace pplda::lda {

struct PreprocessOptions {
  bool enabled = true;           // false = --no-preprocess (see above)
  bool remove_stopwords = true;
  std::string stopwords_path;    // empty = the bundled English list
  int min_length = 3;            // code points, >= 1
  int max_length = 15;           // code points, >= min_length
  int min_df = 2;                // keep terms in at least this many documents, >= 1
  double max_df = 0.5;           // ... and in at most this fraction of them, (0, 1]
  bool stem = false;
  std::string stem_language = "english";  // a libstemmer algorithm name
  int max_tokens_per_doc = 0;    // 0 = no cap; else keep the first L tokens (>= 0)
};

// InvalidArgument naming the field and value if an option is out of range.
absl::Status ValidatePreprocessOptions(const PreprocessOptions& options);

// The options as JSON (every field) and back. FromJson starts from the
// defaults, reads the fields present, ignores unknown keys, and fails
// (InvalidArgument naming the field) on a wrong type or an invalid value.
nlohmann::json PreprocessOptionsToJson(const PreprocessOptions& options);
absl::StatusOr<PreprocessOptions> PreprocessOptionsFromJson(const nlohmann::json& json);

// Stop words, lower-cased, from a file with one word per line (blank lines
// and lines starting with '#' ignored; surrounding whitespace removed).
// Empty path = the bundled English list. NotFound if the file is missing;
// InvalidArgument naming file and line on invalid UTF-8.
absl::StatusOr<std::vector<std::string>> LoadStopwords(const std::string& path);

// Number of raw tokens of a document: whitespace-separated words of its text,
// or its words when pretokenized. This is PreprocessReport::tokens_in.
int64_t CountRawTokens(const RawDocument& doc);

class Tokenizer {
 public:
  // Validates the options, loads the stop words and opens the stemmer.
  // InvalidArgument for a bad option or an unknown stem_language (the
  // message lists the known ones); errors of LoadStopwords.
  static absl::StatusOr<Tokenizer> Create(const PreprocessOptions& options);

  Tokenizer(Tokenizer&&) noexcept;
  Tokenizer& operator=(Tokenizer&&) noexcept;
  ~Tokenizer();

  // The document's terms after steps 1-4 above (or the raw tokens when
  // preprocessing is off). Internal if the stemmer fails (out of memory).
  absl::StatusOr<std::vector<std::string>> Tokenize(const RawDocument& doc);

  const PreprocessOptions& options() const { return options_; }

 private:
  struct StemmerDeleter {
    void operator()(sb_stemmer* stemmer) const;
  };

  explicit Tokenizer(const PreprocessOptions& options) : options_(options) {}
  absl::Status AddWordsOf(std::string_view text, std::vector<std::string>* out);
  absl::Status AddWord(std::string word, std::vector<std::string>* out);

  PreprocessOptions options_;
  absl::flat_hash_set<std::string> stopwords_;
  std::unique_ptr<sb_stemmer, StemmerDeleter> stemmer_;
};

// One-shot form: creates a Tokenizer and tokenizes one document (before
// document-frequency filtering and the cap).
absl::StatusOr<std::vector<std::string>> Tokenize(const RawDocument& doc,
                                                  const PreprocessOptions& options);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_TOKENIZER_H_

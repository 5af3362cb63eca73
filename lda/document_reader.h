// Reading raw documents from disk: a folder of .txt files, a file with one
// document per line, or a UCI bag-of-words pair (docword + vocab). The result
// is a RawCorpus of UTF-8 texts (or, for UCI, pretokenized words) ready for
// the preprocessor. Nothing is dropped silently: every skipped file, line or
// document is counted in the ReadReport.
//
// Formats (docs/corpus.md has the full statement):
// - kFolder: every *.txt file under the folder (recursive; the extension is
//   matched case-insensitively; directory symlinks are not followed), one
//   document per file, in byte order of the '/'-separated relative path.
//   Other files are counted in skipped_non_txt. A single file given with
//   --format folder is one document. Names: "rel/path.txt".
// - kLines: one document per non-empty line of a file (lines holding only
//   whitespace count in skipped_empty). Names: "file.txt:LINE" (1-based).
// - kUci: docword file ("D", "W", "NNZ" header lines, then lines
//   "docID wordID count", ids 1-based) and vocab file (W lines, one word
//   each). Each document's words are expanded `count` times in line order
//   and marked pretokenized. Names: "docword.X.txt#docID". Documents with no
//   entries are counted in skipped_empty. A (docID, wordID) pair given on
//   several lines has its counts added.
// - kAuto: a directory is kFolder; a file whose name starts with "docword."
//   is kUci; any other file is kLines.
//
// Split modes (folder and lines input; see lda/text_split.h for the exact
// rules): kParagraphs cuts each file at blank lines (names "rel/path.txt#P",
// P 1-based; only for folder input, since a line holds no blank line);
// kSentences packs whole sentences into windows of at most window_words words
// (a single longer sentence is its own window); names "rel/path.txt#W" or
// "file.txt:LINE#W", W 1-based.
//
// Checks and errors: a missing path is NotFound. Invalid UTF-8 is
// InvalidArgument naming the file, line and byte offset. A file over
// max_file_bytes, or a total over max_corpus_bytes, is InvalidArgument naming
// the file and the limit; so is a UCI file whose counts add up to more than
// max_corpus_tokens tokens, or whose header declares more data lines (NNZ)
// than its size can hold, both found before anything is allocated for them.
// Empty (or whitespace-only) files are skipped with a
// counted warning. Malformed UCI lines, out-of-range ids, counts <= 0 and a
// header that disagrees with the data are InvalidArgument naming file and
// line. A corpus with no document at all is InvalidArgument saying what was
// skipped. A leading UTF-8 byte-order mark is dropped; lines may end in CRLF.
//
// Thread-safety: the functions are reentrant; they share no state.
#ifndef PPLDA_LDA_DOCUMENT_READER_H_
#define PPLDA_LDA_DOCUMENT_READER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lda/warning_list.h"

namespace pplda::lda {

enum class InputFormat { kAuto, kFolder, kLines, kUci };
enum class SplitMode { kNone, kParagraphs, kSentences };

// "auto", "folder", "lines", "uci"; anything else is InvalidArgument.
absl::StatusOr<InputFormat> ParseInputFormat(std::string_view name);
// "none", "paragraphs", "sentences"; anything else is InvalidArgument.
absl::StatusOr<SplitMode> ParseSplitMode(std::string_view name);
std::string_view InputFormatName(InputFormat format);
std::string_view SplitModeName(SplitMode mode);

inline constexpr int64_t kDefaultMaxCorpusTokens = 50'000'000;

struct ReadOptions {
  InputFormat format = InputFormat::kAuto;
  SplitMode split = SplitMode::kNone;
  int window_words = 100;        // kSentences: words per window, >= 1
  std::string uci_vocab_path;    // empty: vocab.X.txt next to docword.X.txt
  int64_t max_file_bytes = int64_t{256} << 20;
  int64_t max_corpus_bytes = int64_t{8} << 30;
  // UCI input: the most tokens the counts may expand to, checked from the
  // declared counts before anything is expanded (training takes about 100
  // bytes of memory per token, so the default is about 5 GB).
  int64_t max_corpus_tokens = kDefaultMaxCorpusTokens;
};

struct RawDocument {
  std::string name;                 // see the naming rules above
  std::string text;                 // valid UTF-8 (empty when pretokenized)
  std::vector<std::string> words;   // UCI input: the bag expanded to tokens
  bool pretokenized = false;
};

struct ReadReport {
  int64_t files = 0;            // files that hold documents and were read
  int64_t documents = 0;        // documents returned
  int64_t bytes = 0;            // bytes read, all files included
  int64_t skipped_empty = 0;    // empty files, empty lines, empty UCI documents
  int64_t skipped_non_txt = 0;  // folder input: files not named *.txt
  std::vector<std::string> warnings;  // human-readable, at most kMaxReportWarnings + 1
  int64_t warnings_dropped = 0;       // warnings beyond the cap

  // Appends a warning, respecting the cap (lda/warning_list.h).
  void AddWarning(std::string line) { AddCappedWarning(&warnings, &warnings_dropped, std::move(line)); }
};

struct RawCorpus {
  std::vector<RawDocument> documents;
  ReadReport report;
};

absl::StatusOr<RawCorpus> ReadDocuments(const std::string& path, const ReadOptions& options);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_DOCUMENT_READER_H_

// The prepared data folder written by `pplda prepare` and read by `train`
// and `evaluate`: a training corpus, a held-out test corpus over the same
// vocabulary, and statistics.
//
// Split rule (SplitOptions): raw document i (0-based, reading order, before
// preprocessing) goes to the test set iff test_every > 0 and
// i % test_every == test_every - 1; test_every = 0 means no test set and
// test_every = 1 is rejected (no training data). The vocabulary is built from
// the training documents only (BuildCorpus); test documents are mapped onto
// it (MapToVocabulary: unknown terms dropped and counted, documents left
// empty dropped with a warning).
//
// Folder format (UTF-8, '\n' line ends, every file ends with '\n' when not
// empty):
//   vocabulary.txt  one term per line; the term on line i has id i - 1.
//   train.txt       one document per line: NAME, a tab, then its term ids in
//   test.txt        reading order separated by single spaces. NAME escapes
//                   '\\' as "\\\\", tab as "\\t", newline as "\\n", CR as "\\r".
//                   Every document has at least one token.
//   stats.json      {"format": "pplda-prepared-corpus", "version": 1,
//                    "vocabulary_size", "train": {"documents", "tokens"},
//                    "test": {...}, "split": {"rule", "test_every"},
//                    "preprocess": options, "preprocess_report": {train, test},
//                    "reader": read counts}; other keys are kept and ignored.
// ReadPreparedCorpus checks everything: missing folder or file (NotFound),
// an empty, duplicate or non-UTF-8 term, a line without a tab, a bad escape,
// a document without tokens, an id that is not an integer in
// [0, vocabulary size), stats.json that is not JSON, has the wrong format or
// version, or disagrees with the files' counts (InvalidArgument naming the
// file and line, or the JSON field).
//
// WritePreparedCorpus creates the folder (and parents); it refuses
// (FailedPrecondition) a folder that already holds anything, so nothing
// already there is lost. Every file is written into a temporary sibling
// folder (".NAME.tmp-XXXXXX", removed on error) that is renamed onto the
// folder once complete, so an interrupted prepare never leaves a
// half-written folder. Thread-safety: no shared state.
#ifndef PPLDA_LDA_PREPARED_CORPUS_H_
#define PPLDA_LDA_PREPARED_CORPUS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lda/corpus.h"
#include "lda/document_reader.h"
#include "lda/preprocessor.h"
#include "nlohmann/json.hpp"

namespace pplda::lda {

struct SplitOptions {
  int test_every = 10;  // see the split rule above; 0 = no test set
};

struct PreparedCorpus {
  Corpus train;
  Corpus test;          // same vocabulary as train
  nlohmann::json stats; // the contents of stats.json
};

inline constexpr char kPreparedCorpusFormat[] = "pplda-prepared-corpus";
inline constexpr int kPreparedCorpusVersion = 1;

// Splits, preprocesses and fills stats. *report (may be null) receives the
// sum of the training and test reports (terms_* are the training ones,
// unknown_tokens the test ones). Errors of BuildCorpus; InvalidArgument for
// test_every < 0 or == 1.
absl::StatusOr<PreparedCorpus> PrepareCorpus(const RawCorpus& raw,
                                             const PreprocessOptions& options,
                                             const SplitOptions& split,
                                             PreprocessReport* report);

absl::Status WritePreparedCorpus(const PreparedCorpus& prepared, const std::string& dir);
absl::StatusOr<PreparedCorpus> ReadPreparedCorpus(const std::string& dir);

// True iff `path` is a folder holding vocabulary.txt, train.txt, test.txt
// and stats.json (a cheap check; ReadPreparedCorpus validates).
bool IsPreparedCorpusDir(const std::string& path);

// Like IsPreparedCorpusDir, but a folder that looks prepared (it holds
// stats.json or vocabulary.txt) without all four files is an error, not a
// folder of raw documents: FailedPrecondition naming the folder and the
// missing files (an interrupted prepare of an older version, or a file
// deleted since).
absl::StatusOr<bool> DetectPreparedCorpusDir(const std::string& path);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_PREPARED_CORPUS_H_

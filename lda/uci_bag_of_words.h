// The UCI bag-of-words format (as in the UCI "Bag of Words" data sets:
// docword.X.txt and vocab.X.txt), read into pretokenized raw documents.
//
// docword file: three header lines D (documents), W (vocabulary size) and
// NNZ (number of data lines), each one integer (D >= 1, W >= 1, NNZ >= 0);
// then NNZ lines "docID wordID count" of three integers separated by spaces
// or tabs, 1 <= docID <= D, 1 <= wordID <= W, count >= 1. Blank lines after
// the header are ignored. vocab file: exactly W non-blank lines, one word
// each (surrounding whitespace removed; words must be distinct).
//
// Each document's words are expanded `count` times in the order of its data
// lines; the corpus is in docID order. Documents without data lines are
// counted in skipped_empty with a warning. Errors (InvalidArgument, naming
// the file and line): a header line that is not a positive integer, a data
// line that is not three integers, an id out of range, a count <= 0, NNZ
// different from the number of data lines, a vocab file with a different
// number of words than W, an empty or duplicate word. A missing file is
// NotFound; a compressed (.gz) file is InvalidArgument asking to unpack it;
// sizes as in ReadOptions.
#ifndef PPLDA_LDA_UCI_BAG_OF_WORDS_H_
#define PPLDA_LDA_UCI_BAG_OF_WORDS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lda/document_reader.h"

namespace pplda::lda {

// vocab.X.txt next to docword.X.txt; InvalidArgument if the file name does
// not start with "docword.".
absl::StatusOr<std::string> UciVocabPathFor(const std::string& docword_path);

// Appends the documents of the pair to *corpus and updates its report.
absl::Status ReadUciBagOfWords(const std::string& docword_path, const std::string& vocab_path,
                               const ReadOptions& options, RawCorpus* corpus);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_UCI_BAG_OF_WORDS_H_

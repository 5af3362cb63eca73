// A vocabulary file: the consortium's public list of terms, one per line
// (UTF-8, no duplicates, blank lines and a trailing CR ignored). Term ids
// are line order. Errors name the file: NotFound when it cannot be read,
// InvalidArgument for a duplicate term or an empty list. Written atomically
// (base/atomic_file.h).
#ifndef PPLDA_LDA_VOCABULARY_FILE_H_
#define PPLDA_LDA_VOCABULARY_FILE_H_

#include <string>

#include "absl/status/statusor.h"
#include "lda/vocabulary.h"

namespace pplda::lda {

absl::StatusOr<Vocabulary> ReadVocabularyFile(const std::string& path);
absl::Status WriteVocabularyFile(const Vocabulary& vocabulary, const std::string& path);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_VOCABULARY_FILE_H_

// A vocabulary file: the consortium's public list of terms, one per line
// (UTF-8, no duplicates, blank lines and a trailing CR ignored). Term ids
// are line order. Errors name the file: NotFound when it cannot be read,
// InvalidArgument naming the line for text that is not UTF-8 (a model
// cannot hold it: nlohmann's dump throws, which would end the coordinator
// at publication, after the whole run), a term
// holding whitespace (no token can match it), a duplicate term, an empty
// list, or a file over kMaxVocabularyFileBytes. Written atomically
// (base/atomic_file.h).
#ifndef PPLDA_LDA_VOCABULARY_FILE_H_
#define PPLDA_LDA_VOCABULARY_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "lda/vocabulary.h"

namespace pplda::lda {

inline constexpr int64_t kMaxVocabularyFileBytes = int64_t{256} << 20;

absl::StatusOr<Vocabulary> ReadVocabularyFile(const std::string& path);
absl::Status WriteVocabularyFile(const Vocabulary& vocabulary, const std::string& path);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_VOCABULARY_FILE_H_

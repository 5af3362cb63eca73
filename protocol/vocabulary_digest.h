// The digest by which every participant of a run checks that it holds the
// same vocabulary: SHA-256 (lowercase hex) of the vocabulary's terms, one
// per line with '\n', i.e. the hash of the file WriteVocabularyFile writes.
// Pure function; thread-safe.
#ifndef PPLDA_PROTOCOL_VOCABULARY_DIGEST_H_
#define PPLDA_PROTOCOL_VOCABULARY_DIGEST_H_

#include <string>

#include "lda/vocabulary.h"

namespace pplda::protocol {

std::string VocabularySha256(const lda::Vocabulary& vocabulary);

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_VOCABULARY_DIGEST_H_

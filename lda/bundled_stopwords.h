// The English stop-word list bundled into the library (lda/data/
// stopwords-en.txt, 301 words, one a line; provenance in lda/data/README.md).
// Embedded at build time by lda/CMakeLists.txt; thread-safe (constant data).
#ifndef PPLDA_LDA_BUNDLED_STOPWORDS_H_
#define PPLDA_LDA_BUNDLED_STOPWORDS_H_

#include <string_view>

namespace pplda::lda {

// The file's text, exactly as stored in the repository.
std::string_view BundledEnglishStopwordsText();

}  // namespace pplda::lda

#endif  // PPLDA_LDA_BUNDLED_STOPWORDS_H_

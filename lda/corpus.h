// A corpus ready for topic modelling: documents as sequences of term ids
// over one vocabulary. Invariant: every token id is in [0, vocabulary.size()).
#ifndef PPLDA_LDA_CORPUS_H_
#define PPLDA_LDA_CORPUS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "lda/vocabulary.h"

namespace pplda::lda {

struct Document {
  std::string name;             // where it came from: "path", "path:line", "path#window"
  std::vector<TermId> tokens;   // in reading order
};

struct Corpus {
  Vocabulary vocabulary;
  std::vector<Document> documents;

  int64_t num_tokens() const;
  int32_t num_documents() const { return static_cast<int32_t>(documents.size()); }
  // Checks the invariant above; names the first offending document.
  absl::Status Validate() const;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_CORPUS_H_

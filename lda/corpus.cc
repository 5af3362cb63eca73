#include "lda/corpus.h"

#include "absl/strings/str_cat.h"

namespace pplda::lda {

int64_t Corpus::num_tokens() const {
  int64_t n = 0;
  for (const auto& d : documents) n += static_cast<int64_t>(d.tokens.size());
  return n;
}

absl::Status Corpus::Validate() const {
  for (size_t m = 0; m < documents.size(); ++m) {
    for (TermId t : documents[m].tokens) {
      if (t < 0 || t >= vocabulary.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "document ", m, " (", documents[m].name, ") has term id ", t,
            " outside the vocabulary of ", vocabulary.size(), " terms"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace pplda::lda

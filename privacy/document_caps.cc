#include "privacy/document_caps.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"

namespace pplda::privacy {

absl::Status ValidateDocumentCaps(const DocumentCaps& caps) {
  if (caps.max_tokens < 1 || caps.max_tokens > 1000000) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the per-document token cap L must be in [1, 10^6] (--dp-max-tokens), got %d",
        caps.max_tokens));
  }
  if (caps.max_per_term < 1 || caps.max_per_term > 1000000) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the per-document per-term cap c must be in [1, 10^6] (--dp-max-term-count), got %d",
        caps.max_per_term));
  }
  return absl::OkStatus();
}

int64_t SensitivitySquared(const DocumentCaps& caps) {
  const int64_t l = caps.max_tokens;
  const int64_t c = caps.max_per_term < caps.max_tokens ? caps.max_per_term : caps.max_tokens;
  const int64_t rest = l % c;
  return (l / c) * c * c + rest * rest;
}

lda::Document CapDocument(const lda::Document& document, const DocumentCaps& caps) {
  lda::Document out;
  out.name = document.name;
  absl::flat_hash_map<lda::TermId, int> kept;
  for (lda::TermId t : document.tokens) {
    if (static_cast<int>(out.tokens.size()) >= caps.max_tokens) break;
    int& n = kept[t];
    if (n >= caps.max_per_term) continue;
    ++n;
    out.tokens.push_back(t);
  }
  return out;
}

lda::Corpus CapDocuments(const lda::Corpus& corpus, const DocumentCaps& caps,
                         int64_t* capped_documents) {
  lda::Corpus out;
  out.vocabulary = corpus.vocabulary;
  out.documents.reserve(corpus.documents.size());
  int64_t capped = 0;
  for (const lda::Document& d : corpus.documents) {
    out.documents.push_back(CapDocument(d, caps));
    if (out.documents.back().tokens.size() != d.tokens.size()) ++capped;
  }
  if (capped_documents != nullptr) *capped_documents = capped;
  return out;
}

}  // namespace pplda::privacy

// Per-document caps for DP training, and the L2 sensitivity they give.
//
// A document is truncated deterministically, in reading order: a token is
// kept when its term has been kept fewer than c = max_per_term times in
// this document and fewer than L = max_tokens tokens have been kept in all;
// other tokens are dropped (documents left empty are kept, empty). The cap
// depends on the document alone, so it is a per-document policy: adding or
// removing one document changes no other document.
//
// Sensitivity. Let x_t <= c be the capped document's count of term t, with
// sum_t x_t <= L. In any topic-term count matrix its tokens add n_k(t) >= 0
// with sum_k n_k(t) = x_t, so the matrix of one document has squared L2 norm
//     sum_{k,t} n_k(t)^2 <= sum_t x_t^2 <= floor(L/c) c^2 + (L mod c)^2
//                                        <= (L/c) c^2 = L c
// (the middle maximum puts the mass in as few terms as the cap allows; it
// equals L c when c divides L, and is L^2 when c >= L). So the count matrix
// of a corpus has L2 sensitivity sqrt(SensitivitySquared()) <= sqrt(L c) to
// adding or removing one document, whatever the topic assignments are.
//
// Ranges (InvalidArgument naming the flag): L in [1, 10^6]
// (--dp-max-tokens), c in [1, 10^6] (--dp-max-term-count).
// Thread-safety: pure functions.
#ifndef PPLDA_PRIVACY_DOCUMENT_CAPS_H_
#define PPLDA_PRIVACY_DOCUMENT_CAPS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "lda/corpus.h"

namespace pplda::privacy {

struct DocumentCaps {
  int max_tokens = 50;    // L
  int max_per_term = 5;   // c
};

absl::Status ValidateDocumentCaps(const DocumentCaps& caps);

// floor(L/c) c^2 + (L mod c)^2 (<= L c): the squared L2 sensitivity of a
// count matrix built from documents capped by `caps`.
int64_t SensitivitySquared(const DocumentCaps& caps);

// One document truncated as above.
lda::Document CapDocument(const lda::Document& document, const DocumentCaps& caps);

// Every document capped (same vocabulary, same documents in the same order;
// *capped_documents, when given, counts those that lost a token: an exact
// figure for the operator's log only).
lda::Corpus CapDocuments(const lda::Corpus& corpus, const DocumentCaps& caps,
                         int64_t* capped_documents);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DOCUMENT_CAPS_H_

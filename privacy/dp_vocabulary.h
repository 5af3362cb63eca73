// DP vocabulary selection: a differentially private set union of the terms
// of a corpus (the DPSU step of Manzonelli et al.'s fully DP topic model,
// sec. 4.2), so that rare terms that identify a document never enter the
// published vocabulary. Document-level adjacency (add or remove one
// document).
//
// Mechanism (Gaussian thresholding, as in Korolova et al. 2009 and the
// Gaussian baseline of Gopi et al., "Differentially Private Set Union", 2020):
//   1. policy: each document contributes its at most Delta0 =
//      max_terms_per_document distinct terms, its most frequent ones (ties
//      by first occurrence); c(t) = number of documents contributing t;
//   2. each term with c(t) >= 1 gets exact discrete Gaussian noise Z_t ~
//      N_Z(0, sigma^2) (privacy/discrete_gaussian.h);
//   3. t is selected iff c(t) + Z_t >= T.
// Privacy, for (epsilon, delta): (epsilon, delta)-DP for the released set,
// in the unit of one document as pplda reads it (privacy/privacy_unit.h:
// with --split a window or paragraph, not the source file). Proof, for
// neighbours D and D' = D + {x}, x contributing the set S_x, |S_x| <= Delta0:
//   - the policy is per document (what y contributes depends on y alone), so
//     x changes c(t) by +1 on S_x and nowhere else;
//   - "old" terms, c_D(t) >= 1, are noised in both worlds; their count
//     vector changes by +1 on at most Delta0 coordinates, L2 sensitivity
//     sqrt(Delta0). sigma^2 = Delta0 / (2 rho) with rho from (epsilon,
//     delta1), delta1 = delta (1 - delta) / 2 (privacy/zcdp_calibration.h:
//     CKS20 Thm. 14 and BS16 Prop. 1.3), makes the old terms' selection A
//     (epsilon, delta1)-DP (thresholding is post-processing);
//   - "new" terms, c_D(t) = 0 and t in S_x, are never output from D and are
//     output from D' with probability P[1 + Z >= T] <= exp(-(T-1)^2 /
//     (2 sigma^2)) (N_Z(0, sigma^2) is sigma-subgaussian, CKS20) <= delta /
//     (2 Delta0) for T = 1 + ceil(sigma sqrt(2 ln(2 Delta0 / delta))); over
//     at most Delta0 of them, the new-term output N is non-empty with
//     probability p <= delta / 2, independently of A.
//   Adding x: P[M(D') in O] <= P[A' in O, N empty] + p <= e^eps P[M(D) in O]
//     + delta1 + p.
//   Removing x: P[M(D') in O] >= (1 - p) P[A' in O'] (O' the outputs in O
//     without new terms), so P[M(D) in O] - e^eps P[M(D') in O] is at most the
//     hockey-stick divergence of A, A' at eps' = eps + ln(1 - p), which is at
//     most delta1 + (eps - eps') (its slope in eps is at least -1) = delta1 -
//     ln(1 - p) <= delta1 + p / (1 - p).
//   Both are at most delta1 + delta / (2 - delta) <= delta1 + delta/2 +
//   delta^2/2 = delta. Only the selected set is released (the noisy counts
//   are discarded, and the number of candidate terms is not released); its
//   order is the input vocabulary's, which must not depend on the data
//   beyond the set (pplda's vocabularies are sorted by string, and
//   PrepareDpTrainingCorpus sorts the selection by string). The (epsilon,
//   delta) covers this set and nothing computed from the documents after it:
//   a model trained on the restricted corpus has counts it does not cover.
//
// Ranges (InvalidArgument naming the option): epsilon, delta as
// ValidateEpsilonDelta; max_terms_per_document in [1, 10^6].
// Thread-safety: a pure function of its inputs and the rng's stream.
#ifndef PPLDA_PRIVACY_DP_VOCABULARY_H_
#define PPLDA_PRIVACY_DP_VOCABULARY_H_

#include <gmpxx.h>

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/random/secure_rng.h"
#include "lda/corpus.h"
#include "privacy/privacy_accountant.h"

namespace pplda::privacy {

// The vocabulary mechanism's budget and per-document contribution; the
// secure set union's options (CandidateUnionOptions) extend them.
struct DpVocabularyOptions {
  double epsilon = 1.0;
  double delta = 1e-5;
  int max_terms_per_document = 20;  // Delta0
};

absl::Status ValidateDpVocabularyOptions(const DpVocabularyOptions& options);

struct DpVocabularySelection {
  std::vector<lda::TermId> selected;  // ascending ids of the input corpus's vocabulary
  mpq_class sigma_squared;
  int64_t threshold = 0;              // T
  // Terms with c(t) >= 1: an exact, data-dependent count, for the operator's
  // log and error messages only; Release() does not record it.
  int64_t candidate_terms = 0;
  DpVocabularyOptions options;

  // What this selection spent, for the accountant.
  DpRelease Release() const;
};

absl::StatusOr<DpVocabularySelection> SelectDpVocabulary(const lda::Corpus& corpus,
                                                         const DpVocabularyOptions& options,
                                                         crypto::SecureRng& rng);

// The policy of step 1: the document's at most `limit` most frequent
// distinct terms (ties: first occurrence first), in that order.
std::vector<lda::TermId> ContributedTerms(const lda::Document& doc, int limit);

// `corpus` restricted to `terms` (ascending ids of its vocabulary): the new
// vocabulary holds those terms in that order, tokens of other terms are
// dropped, and documents left empty are dropped (counted in
// *dropped_documents when given). Requires ids in range.
lda::Corpus RestrictToTerms(const lda::Corpus& corpus, absl::Span<const lda::TermId> terms,
                            int64_t* dropped_documents);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DP_VOCABULARY_H_

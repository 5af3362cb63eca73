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
// Privacy, for (epsilon, delta), with delta split in two halves:
//   - terms counted in both neighbours: the count vector has L2 sensitivity
//     sqrt(Delta0), so sigma^2 = Delta0 / (2 rho) with rho from
//     (epsilon, delta/2) (privacy/zcdp_calibration.h) gives
//     (epsilon, delta/2)-DP;
//   - terms only the added document contributes (c(t) = 1 there, absent
//     without it) are released with probability P[Z >= T - 1] <=
//     exp(-(T-1)^2 / (2 sigma^2)) (subgaussian tail) <= delta / (2 Delta0)
//     for T = 1 + ceil(sigma sqrt(2 ln(2 Delta0 / delta))); over at most
//     Delta0 such terms, at most delta/2.
//   Together (epsilon, delta)-DP. Only the selected set is released; the
//   noisy counts are discarded.
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
#include "crypto/secure_rng.h"
#include "lda/corpus.h"
#include "privacy/privacy_accountant.h"

namespace pplda::privacy {

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
  int64_t candidate_terms = 0;        // terms with c(t) >= 1
  DpVocabularyOptions options;

  // What this selection spent, for the accountant.
  DpRelease Release() const;
};

absl::StatusOr<DpVocabularySelection> SelectDpVocabulary(const lda::Corpus& corpus,
                                                         const DpVocabularyOptions& options,
                                                         crypto::SecureRng& rng);

// `corpus` restricted to `terms` (ascending ids of its vocabulary): the new
// vocabulary holds those terms in that order, tokens of other terms are
// dropped, and documents left empty are dropped (counted in
// *dropped_documents when given). Requires ids in range.
lda::Corpus RestrictToTerms(const lda::Corpus& corpus, absl::Span<const lda::TermId> terms,
                            int64_t* dropped_documents);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DP_VOCABULARY_H_

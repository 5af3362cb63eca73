// DP publication of a topic model: exact discrete Gaussian noise added to
// every topic-term count n_k(t) before release (DESIGN sec. 6, "DP
// publication"), then negative counts clamped to 0 (post-processing, free).
//
// Sensitivity: document-level adjacency with every document capped at L
// tokens. A document's L tokens change the K x V count matrix by a vector
// of non-negative integers summing to L, so its L1 and L2 sensitivities are
// both at most L (all L tokens may land in one cell); sigma^2 = L^2/(2 rho)
// with rho from (epsilon, delta) (privacy/zcdp_calibration.h).
// What this accounts for, stated in every release: the counts as a function
// of the documents' own token assignments. The Gibbs chain that produced
// them also depends on every other token, and that dependence is not
// bounded here (the sampler is not itself a DP mechanism); docs/privacy.md
// discusses it.
//
// Errors: InvalidArgument naming the option (epsilon, delta as
// ValidateEpsilonDelta; L in [1, 10^7]); FailedPrecondition naming the first
// document longer than L (the cap must be applied when the corpus is built:
// `--max-tokens L`).
// Thread-safety: a pure function of its inputs and the rng's stream.
#ifndef PPLDA_PRIVACY_DP_MODEL_RELEASE_H_
#define PPLDA_PRIVACY_DP_MODEL_RELEASE_H_

#include <gmpxx.h>

#include <cstdint>

#include "absl/status/statusor.h"
#include "crypto/secure_rng.h"
#include "lda/corpus.h"
#include "lda/lda_model.h"
#include "privacy/privacy_accountant.h"

namespace pplda::privacy {

struct DpModelOptions {
  double epsilon = 1.0;
  double delta = 1e-5;
  int32_t max_tokens_per_document = 0;  // L; must be set (>= 1)
};

absl::Status ValidateDpModelOptions(const DpModelOptions& options);

// OK when every document of `corpus` has at most L tokens.
absl::Status CheckDocumentCap(const lda::Corpus& corpus, int32_t max_tokens_per_document);

struct DpModelNoise {
  mpq_class sigma_squared;
  int64_t cells = 0;          // K x V
  int64_t clamped_cells = 0;  // noisy counts below 0, set to 0
  DpModelOptions options;

  DpRelease Release() const;
};

// Adds the noise to model->topic_term_counts in place.
absl::StatusOr<DpModelNoise> AddDpNoiseToCounts(const DpModelOptions& options,
                                                crypto::SecureRng& rng, lda::LdaModel* model);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DP_MODEL_RELEASE_H_

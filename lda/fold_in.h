// Fold-in: estimates a document's topic mixture theta under a fixed model
// by Gibbs sampling with Phi fixed, averaging (n_m(k) + alpha) / (N + K alpha)
// over the sweeps after burn-in (the exact rule is in lda/metrics.h).
// Used by HeldOutPerplexity and InferDocumentTopics.
//
// Ranges: 1 <= sweeps, 0 <= burn_in < sweeps (checked by the metrics).
// Thread-safety: Theta() is const and may run concurrently with its own Rng.
#ifndef PPLDA_LDA_FOLD_IN_H_
#define PPLDA_LDA_FOLD_IN_H_

#include <span>
#include <vector>

#include "lda/lda_model.h"
#include "lda/random.h"

namespace pplda::lda {

class FoldIn {
 public:
  FoldIn(const LdaModel& model, int sweeps, int burn_in);

  // theta for a document made of `tokens` (K entries summing to 1).
  std::vector<double> Theta(std::span<const TermId> tokens, Rng& rng) const;
  // p(t | theta) = sum_k theta(k) phi(k, t).
  double TermProbability(const std::vector<double>& theta, TermId t) const;

 private:
  const double* phi_row(TermId t) const { return &phi_by_term_[static_cast<size_t>(t) * k_]; }

  int k_;
  double alpha_;
  int sweeps_;
  int burn_in_;
  std::vector<double> phi_by_term_;  // V x K, term-major: phi(k, t) at t * K + k
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_FOLD_IN_H_

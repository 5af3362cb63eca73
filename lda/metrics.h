// Quality metrics of a topic model, exactly as DESIGN.md section 5 defines
// them (docs/lda.md repeats the definitions). Every function checks the model
// (LdaModel::Validate) and that a corpus uses the model's vocabulary (same
// terms in the same order); both failures are InvalidArgument naming the
// field or the first differing term.
//
// Fold-in (theta of a document given a fixed model): with phi(k, t) from the
// model, topics of the document's tokens start uniformly random and are
// resampled `sweeps` times by Gibbs sampling with Phi fixed:
//   p(z_i = k | rest) ∝ phi(k, t_i) (n_m(k)^-i + alpha);
// after each sweep s >= burn_in the estimate (n_m(k) + alpha) / (N + K alpha)
// is accumulated, and theta is the average over those sweeps - burn_in
// sweeps. Document m draws from its own stream of `seed`, so results do not
// depend on the thread count. A document with no tokens gets theta = 1/K.
//
// Held-out perplexity by document completion (Wallach et al., ICML 2009,
// sec. 4.2): each test document's tokens at even positions (0, 2, 4, ...)
// estimate theta by fold-in; the tokens at odd positions are evaluated:
//   perplexity = exp(- sum_{odd i} log sum_k theta_m(k) phi(k, t_i) / #odd tokens)
// summed over all test documents.
//
// UMass coherence (Mimno et al., EMNLP 2011, eq. 1) of a topic with top words
// w_1, ..., w_N (N = min(top_n, V), ranked by phi, ties by lower term id):
//   C = sum_{i=2..N} sum_{j=1..i-1} log((D(w_i, w_j) + 1) / D(w_j))
// where D(w) counts the reference documents containing w and D(w, w')
// those containing both. Pairs with D(w_j) = 0 (a top word absent from the
// reference corpus) are left out of the sum. mean = average of C over topics.
//
// Thread-safety: pure functions; they may run concurrently.
#ifndef PPLDA_LDA_METRICS_H_
#define PPLDA_LDA_METRICS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lda/corpus.h"
#include "lda/lda_model.h"

namespace pplda::lda {

struct PerplexityOptions {
  int sweeps = 50;    // fold-in Gibbs sweeps per document, >= 1
  int burn_in = 10;   // sweeps before averaging, in [0, sweeps)
  uint64_t seed = 1;
  int threads = 0;    // 0 = all cores; results do not depend on it
};

// InvalidArgument when a test document set is empty, the model or options
// are invalid, the vocabularies differ, or no document has 2 tokens or more
// (nothing to evaluate).
absl::StatusOr<double> HeldOutPerplexity(const LdaModel& model, const Corpus& test,
                                         const PerplexityOptions& options);

struct CoherenceResult {
  std::vector<double> per_topic;
  double mean = 0;
};
// InvalidArgument when top_n < 2, the reference corpus has no documents, or
// as above.
absl::StatusOr<CoherenceResult> UMassCoherence(const LdaModel& model, const Corpus& reference,
                                               int top_n = 10);

// For each topic, its min(n, V) most probable terms with phi(k, t), by
// decreasing phi (ties: lower term id first). Requires a valid model.
std::vector<std::vector<std::pair<TermId, double>>> TopWords(const LdaModel& model, int n);

// n_k / sum_k n_k per topic (1/K each when the model has no tokens).
// Requires a valid model.
std::vector<double> TopicPrevalence(const LdaModel& model);

// Fold-in theta (above) of every document of `docs`, using all its tokens:
// one row of K probabilities per document. Errors as HeldOutPerplexity,
// except that an empty document set gives an empty result.
absl::StatusOr<std::vector<std::vector<double>>> InferDocumentTopics(
    const LdaModel& model, const Corpus& docs, const PerplexityOptions& options);

// InvalidArgument unless `corpus` is valid and its vocabulary equals the
// model's (used by every metric above; exposed for callers that check early).
absl::Status CheckSameVocabulary(const LdaModel& model, const Corpus& corpus);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_METRICS_H_

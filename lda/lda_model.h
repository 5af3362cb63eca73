// A trained (or published) LDA topic model: the vocabulary, the Dirichlet
// hyperparameters and the topic-term counts n_k(t), plus free-form metadata
// (run parameters, corpus statistics, sampler, iterations, seed, privacy
// fields). This is the plaintext samplers' output and the secure runs'
// published model; lda/model_file.h reads and writes it.
//
// Invariants (checked by Validate()): num_topics >= 1; vocabulary non-empty;
// topic_term_counts has num_topics * V entries, row-major by topic (entry
// k * V + t is n_k(t)), every entry in [0, 2^53] and every topic's total n_k
// at most 2^53 (exact as doubles; no sum overflows); alpha and beta in
// [kMinPrior, kMaxPrior] (so that every phi below is finite and positive:
// a beta of 1e308 made V * beta infinite and every phi 0, one of 5e-324
// made 1 / (V * beta) infinite).
//
// Topic-term distribution (smoothed, as in collapsed Gibbs sampling):
//   phi(k, t) = (n_k(t) + beta) / (n_k + V * beta),  n_k = sum_t n_k(t).
//
// Thread-safety: a plain value; concurrent const access is safe.
#ifndef PPLDA_LDA_LDA_MODEL_H_
#define PPLDA_LDA_LDA_MODEL_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "lda/vocabulary.h"
#include "nlohmann/json.hpp"

namespace pplda::lda {

// The range of alpha and beta (also every trainer's: the CLI's --alpha and
// --beta, and the secure protocol's resolution of 1e-6).
inline constexpr double kMinPrior = 1e-6;
inline constexpr double kMaxPrior = 1e6;
// The largest count and the largest topic total of a model: 2^53.
inline constexpr int64_t kMaxModelCount = int64_t{1} << 53;

struct LdaModel {
  Vocabulary vocabulary;
  int num_topics = 0;
  double alpha = 0.1;
  double beta = 0.01;
  std::vector<int64_t> topic_term_counts;  // K x V row-major: n_k(t)
  nlohmann::json metadata = nlohmann::json::object();

  int32_t num_terms() const { return vocabulary.size(); }
  // n_k(t). Requires k in [0, K), t in [0, V).
  int64_t count(int k, TermId t) const {
    return topic_term_counts[static_cast<size_t>(k) * num_terms() + t];
  }
  // n_k for every topic k.
  std::vector<int64_t> topic_totals() const;
  // phi(k, t) as above. O(V) per call (it sums row k); use PhiMatrix() when
  // many values are needed.
  double phi(int k, TermId t) const;
  // Every phi(k, t), K x V row-major (entry k * V + t).
  std::vector<double> PhiMatrix() const;
  // InvalidArgument naming the first violated invariant (field and index).
  absl::Status Validate() const;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_LDA_MODEL_H_

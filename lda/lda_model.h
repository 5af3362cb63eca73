// A trained (or published) LDA topic model: the vocabulary, the Dirichlet
// hyperparameters and the topic-term counts n_k(t), plus free-form metadata
// (run parameters, corpus statistics, sampler, iterations, seed, privacy
// fields). This is the plaintext samplers' output and the secure runs'
// published model; lda/model_file.h reads and writes it.
//
// Invariants (checked by Validate()): num_topics >= 1; vocabulary non-empty;
// topic_term_counts has num_topics * V entries, row-major by topic (entry
// k * V + t is n_k(t)), every entry >= 0; alpha and beta finite and > 0.
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

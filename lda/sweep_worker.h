// One thread's state in the sparse sampler's sweeps (sparse_gibbs_sampler.h):
// its document set, random stream, its view of the topic totals (merged
// after every sub-sweep) and scratch sized K once. Internal to the sampler.
#ifndef PPLDA_LDA_SWEEP_WORKER_H_
#define PPLDA_LDA_SWEEP_WORKER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "lda/random.h"
#include "lda/reciprocal_table.h"

namespace pplda::lda {

struct SweepWorker {
  std::vector<int32_t> documents;  // this thread's documents, in corpus order
  Rng rng{0};
  const ReciprocalTable* reciprocal = nullptr;  // the engine's
  std::vector<int64_t> totals;        // n_k as this thread sees it
  std::vector<double> denom_inv;      // 1 / (n_k + V beta)
  std::vector<double> denom_inv_less; // 1 / (n_k - 1 + V beta), 0 when n_k = 0
  std::vector<double> coef;           // (n_m(k) + alpha) / (n_k + V beta)
  std::vector<double> q_weight;       // running sums of the term bucket
  std::vector<float> doc_weight;      // dense rows: (n_m(k) + alpha) / (n_k + V beta), padded
  std::vector<float> cumulative;      // dense rows: running sums of one token's weights
  std::vector<int32_t> doc_counts;    // n_m(k) of the current document (else 0)
  std::vector<int32_t> doc_topics;    // topics with n_m(k) > 0
  std::vector<int32_t> doc_pos;       // k -> index in doc_topics, or -1
};

// How many tokens ahead a sweep prefetches a term's list head and entries.
constexpr size_t kHeadPrefetch = 8;
constexpr size_t kListPrefetch = 3;

}  // namespace pplda::lda

#endif  // PPLDA_LDA_SWEEP_WORKER_H_

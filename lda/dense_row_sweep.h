// The sparse sampler's dense-row sweep (sparse_gibbs_sampler.h; only when
// CountLayout::kDenseRows is asked for): the
// conditional over a term's whole padded dense row (PaddedTopicRows), four
// topics per vector. Internal to the sampler.
#ifndef PPLDA_LDA_DENSE_ROW_SWEEP_H_
#define PPLDA_LDA_DENSE_ROW_SWEEP_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>

#include "lda/corpus.h"
#include "lda/document_topic_lists.h"
#include "lda/padded_topic_rows.h"
#include "lda/sweep_worker.h"

namespace pplda::lda {

using FloatLanes = float __attribute__((vector_size(4 * kTopicLanes)));
using IntLanes = int32_t __attribute__((vector_size(4 * kTopicLanes)));
static_assert(kTopicLanes == 4, "the prefix sums below are written for 4 lanes");

// The conditional drawn from a term's whole dense row: weights
// (n_k(t) + beta) (n_m(k) + alpha) / (n_k + V beta) for every k, four topics
// per vector, running sums in the vector, and the topic found by counting
// the running sums below the uniform draw (no data-dependent branch).
// Weights, running sums and the draw are single precision: a topic's
// probability is off by at most about K 2^-24 of the total weight (a topic
// lighter than that may be drawn less often than it should), and a draw
// that rounds up to the total (probability about 2^-25) goes to topic K - 1.
class DenseRowSweep {
 public:
  // Counts each document from its assignments: with a K-wide write-back,
  // keeping its counts between visits measured 7% slower (SOTU, K = 20).
  static constexpr bool kKeepsDocumentLists = false;

  DenseRowSweep(PaddedTopicRows& rows, DocumentTopicLists& /*unused*/, SweepWorker& w,
                double alpha, double beta)
      : rows_(rows), w_(w), k_(static_cast<int>(w.totals.size())), stride_(rows.stride()),
        alpha_(alpha), beta_(static_cast<float>(beta)) {
    for (int k = 0; k < k_; ++k) {
      w_.denom_inv[k] = (*w_.reciprocal)(w_.totals[k]);
      w_.denom_inv_less[k] = w_.reciprocal->Less(w_.totals[k]);
    }
  }

  // Resamples tokens [first, last) of document m, whose assignments are
  // doc_z (all its tokens; [first, last) is a part of it), terms `terms`.
  void Document(int32_t /*m*/, std::span<const TermId> terms, std::span<int32_t> doc_z,
                size_t first, size_t last) {
    int32_t* ndk = w_.doc_counts.data();
    float* weight = w_.doc_weight.data();
    for (const int k : doc_z) ++ndk[k];
    for (int k = 0; k < k_; ++k) weight[k] = DocWeight(ndk[k], w_.denom_inv[k]);
    for (size_t i = first; i < last; ++i) {
      const TermId t = terms[i];
      if (i + kListPrefetch < last) __builtin_prefetch(rows_.row(terms[i + kListPrefetch]));
      int32_t* row = rows_.row(t);
      const int old_k = doc_z[i];
      // Take the token out; a draw back into old_k puts back what was saved.
      const float saved_weight = weight[old_k];
      const double saved_inv = w_.denom_inv[old_k];
      --row[old_k];
      --ndk[old_k];
      --w_.totals[old_k];
      w_.denom_inv[old_k] = w_.denom_inv_less[old_k];
      weight[old_k] = DocWeight(ndk[old_k], w_.denom_inv[old_k]);
      const int k = Draw(row, weight);
      if (k == old_k) {
        ++row[old_k];
        ++ndk[old_k];
        ++w_.totals[old_k];
        w_.denom_inv[old_k] = saved_inv;
        weight[old_k] = saved_weight;
        continue;
      }
      w_.denom_inv_less[old_k] = w_.reciprocal->Less(w_.totals[old_k]);
      ++row[k];
      ++ndk[k];
      ++w_.totals[k];
      w_.denom_inv_less[k] = w_.denom_inv[k];
      w_.denom_inv[k] = (*w_.reciprocal)(w_.totals[k]);
      weight[k] = DocWeight(ndk[k], w_.denom_inv[k]);
      doc_z[i] = k;
    }
    for (const int k : doc_z) ndk[k] = 0;
  }

 private:
  float DocWeight(int32_t n, double inv) const {
    return static_cast<float>((n + alpha_) * inv);
  }

  int Draw(const int32_t* row, const float* weight) {
    const FloatLanes zero = {0, 0, 0, 0};
    FloatLanes carry = zero;
    float* cumulative = w_.cumulative.data();
    for (int v = 0; v < stride_; v += kTopicLanes) {
      IntLanes counts;
      FloatLanes doc;
      std::memcpy(&counts, row + v, sizeof counts);
      std::memcpy(&doc, weight + v, sizeof doc);
      FloatLanes x = (__builtin_convertvector(counts, FloatLanes) + beta_) * doc;
      x += __builtin_shufflevector(x, zero, 4, 0, 1, 2);
      x += __builtin_shufflevector(x, zero, 4, 4, 0, 1);
      x += carry;
      std::memcpy(cumulative + v, &x, sizeof x);
      carry = __builtin_shufflevector(x, x, 3, 3, 3, 3);
    }
    const float u = static_cast<float>(w_.rng.Uniform()) * carry[0];
    const FloatLanes threshold = {u, u, u, u};
    IntLanes below = {0, 0, 0, 0};
    for (int v = 0; v < stride_; v += kTopicLanes) {
      FloatLanes x;
      std::memcpy(&x, cumulative + v, sizeof x);
      below += (x <= threshold);  // -1 per lane below the draw
    }
    const int index = -(below[0] + below[1] + below[2] + below[3]);
    return std::min(index, k_ - 1);
  }

  PaddedTopicRows& rows_;
  SweepWorker& w_;
  const int k_, stride_;
  const double alpha_;
  const float beta_;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_DENSE_ROW_SWEEP_H_

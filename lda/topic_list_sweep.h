// The sparse sampler's sweep (sparse_gibbs_sampler.h; what `auto` runs at
// every K): SparseLDA's buckets (Yao, Mimno & McCallum, KDD 2009; notation
// of collapsed_gibbs_sampler.h) over the term's packed list
// (TopicCountLists). Internal to the sampler.
//
// Invariant between tokens: the worker's coef, denom_inv, denom_inv_less
// and the sums s_, r_ equal their formulas over the worker's totals and the
// current document's counts.
#ifndef PPLDA_LDA_TOPIC_LIST_SWEEP_H_
#define PPLDA_LDA_TOPIC_LIST_SWEEP_H_

#include <algorithm>
#include <cstdint>
#include <span>

#include "lda/corpus.h"
#include "lda/document_topic_lists.h"
#include "lda/topic_count_lists.h"
#include "lda/sweep_worker.h"
#include "lda/term_bucket.h"

namespace pplda::lda {

// One SparseLDA sweep (bucket notation of collapsed_gibbs_sampler.h) of some
// tokens of a worker's documents against the shared lists and the worker's
// totals.
template <typename Entry>
class TopicListSweep {
 public:
  // Starts each document from its kept topic counts (document_topic_lists.h).
  static constexpr bool kKeepsDocumentLists = true;

  TopicListSweep(TopicCountLists<Entry>& counts, DocumentTopicLists& docs, SweepWorker& w,
                 double alpha, double beta)
      : counts_(counts), docs_(docs), w_(w), k_(static_cast<int>(w.totals.size())), alpha_(alpha),
        beta_(beta), alpha_beta_(alpha * beta) {
    for (int k = 0; k < k_; ++k) {
      w_.denom_inv[k] = (*w_.reciprocal)(w_.totals[k]);
      w_.denom_inv_less[k] = w_.reciprocal->Less(w_.totals[k]);
      w_.coef[k] = alpha_ * w_.denom_inv[k];
      s_ += alpha_beta_ * w_.denom_inv[k];
    }
  }

  // Resamples tokens [first, last) of document m, whose assignments are
  // doc_z (all its tokens; [first, last) is a part of it), terms `terms`.
  void Document(int32_t m, std::span<const TermId> terms, std::span<int32_t> doc_z, size_t first,
                size_t last) {
    int32_t* ndk = w_.doc_counts.data();
    BeginDocument(m, ndk);
    for (size_t i = first; i < last; ++i) {
      const TermId t = terms[i];
      // Heads far ahead, entries nearer (their head is in cache by then).
      if (i + kHeadPrefetch < last) __builtin_prefetch(counts_.head_address(terms[i + kHeadPrefetch]));
      if (i + kListPrefetch < last) __builtin_prefetch(counts_.list_address(terms[i + kListPrefetch]));
      const int old_k = doc_z[i];
      // The token leaves topic old_k in the document, the totals and the
      // buckets; in its term's list only if it moves (Sample discounts it).
      const Removal removal = Remove(old_k, ndk);
      const Draw draw = Sample(t, old_k, ndk);
      const int k = draw.topic;
      if (k == old_k) {
        Restore(old_k, removal, ndk);
        continue;
      }
      FinishRemoval(old_k, ndk);
      Add(k, ndk);
      counts_.Transfer(t, draw.own_index, k, draw.index);
      doc_z[i] = k;
    }
    EndDocument(m, ndk);
  }

 private:
  // The document's counts from its list into the worker's K-wide scratch
  // (cache-resident, unlike a row of a D x K table), with its topics in
  // the list's order.
  void BeginDocument(int32_t m, int32_t* ndk) {
    const std::span<const DocumentTopic> list = docs_.topics(m);
    r_ = 0;
    num_doc_topics_ = static_cast<int32_t>(list.size());
    for (int32_t j = 0; j < num_doc_topics_; ++j) {
      const int k = list[j].topic;
      const int32_t count = list[j].count;
      ndk[k] = count;
      w_.doc_pos[k] = j;
      w_.doc_topics[j] = k;
      r_ += count * beta_ * w_.denom_inv[k];
      w_.coef[k] = (count + alpha_) * w_.denom_inv[k];
    }
  }

  // The document's counts back into its list; the scratch cleared.
  void EndDocument(int32_t m, int32_t* ndk) {
    DocumentTopic* list = docs_.mutable_topics(m);
    for (int32_t j = 0; j < num_doc_topics_; ++j) {
      const int k = w_.doc_topics[j];
      list[j] = {k, ndk[k]};
      ndk[k] = 0;
      w_.coef[k] = alpha_ * w_.denom_inv[k];
      w_.doc_pos[k] = -1;
    }
    docs_.set_size(m, num_doc_topics_);
  }

  // What Remove changed, so that a token drawn back into its topic costs no
  // division and leaves the sums exactly as they were.
  struct Removal {
    double s, r, denom_inv, coef;
  };


  // Takes one token out of topic k of the document and the totals. The
  // topic stays on the document's list until FinishRemoval (with weight 0 in
  // the document bucket if its count reached 0).
  Removal Remove(int k, int32_t* ndk) {
    const Removal before{s_, r_, w_.denom_inv[k], w_.coef[k]};
    s_ -= alpha_beta_ * before.denom_inv;
    r_ -= ndk[k] * beta_ * before.denom_inv;
    --ndk[k];
    --w_.totals[k];
    const double inv = w_.denom_inv_less[k];
    w_.denom_inv[k] = inv;
    s_ += alpha_beta_ * inv;
    r_ += ndk[k] * beta_ * inv;
    w_.coef[k] = (ndk[k] + alpha_) * inv;
    return before;
  }

  // Undoes Remove(k) when the token is drawn back into topic k.
  void Restore(int k, const Removal& before, int32_t* ndk) {
    ++ndk[k];
    ++w_.totals[k];
    w_.denom_inv[k] = before.denom_inv;
    w_.coef[k] = before.coef;
    s_ = before.s;
    r_ = before.r;
  }

  // Completes Remove(k) when the token moves to another topic.
  void FinishRemoval(int k, const int32_t* ndk) {
    w_.denom_inv_less[k] = w_.reciprocal->Less(w_.totals[k]);
    if (ndk[k] > 0) return;
    const int32_t pos = w_.doc_pos[k];
    const int32_t last = w_.doc_topics[--num_doc_topics_];
    w_.doc_topics[pos] = last;
    w_.doc_pos[last] = pos;
    w_.doc_pos[k] = -1;
    if (num_doc_topics_ == 0) r_ = 0;
  }

  // Adds one token to topic k of the document and the totals.
  void Add(int k, int32_t* ndk) {
    const double old_inv = w_.denom_inv[k];
    s_ -= alpha_beta_ * old_inv;
    r_ -= ndk[k] * beta_ * old_inv;
    ++ndk[k];
    ++w_.totals[k];
    const double inv = (*w_.reciprocal)(w_.totals[k]);
    w_.denom_inv_less[k] = old_inv;
    w_.denom_inv[k] = inv;
    s_ += alpha_beta_ * inv;
    r_ += ndk[k] * beta_ * inv;
    w_.coef[k] = (ndk[k] + alpha_) * inv;
    if (ndk[k] == 1) {
      w_.doc_pos[k] = num_doc_topics_;
      w_.doc_topics[num_doc_topics_++] = k;
    }
  }

  // A topic drawn and where it came from: its index in the term's list when
  // drawn from the term bucket (else -1), and the index of the token's own
  // topic there (always present: the list still counts the token).
  struct Draw {
    int topic;
    int32_t index;
    int32_t own_index;
  };

  // A draw from the conditional; the term's list still counts the token
  // under `own_topic`, which is discounted here. The term bucket is summed
  // and searched over whole groups of kListLanes entries (the padding
  // weighs 0: sentinel topic K, coef[K] = 0), and the search counts the
  // running sums at or below the draw instead of stopping at the first one
  // above it: loops whose trip counts change little between tokens, where
  // data-dependent exits would cost a mispredicted branch each.
  Draw Sample(TermId t, int own_topic, const int32_t* ndk) {
    const std::span<const Entry> list = counts_.padded_entries(t);
    const int32_t n = static_cast<int32_t>(list.size());
    double* running = w_.q_weight.data();
    const TermBucketSum bucket = SumTermBucket<Entry>(
        {list.data(), n, counts_.topic_bits(), counts_.topic_mask()}, own_topic, w_.coef.data(),
        running, avx2_);
    const double q = bucket.total;
    const int32_t own_index = bucket.own_index;
    double u = w_.rng.Uniform() * (s_ + r_ + q);
    if (u < q) {
      const int32_t index = CountAtOrBelow(running, n, u, avx2_);
      return {counts_.topic(list[index]), index, own_index};
    }
    u -= q;
    if (u < r_ && num_doc_topics_ > 0) {
      for (int i = 0; i + 1 < num_doc_topics_; ++i) {
        const int k = w_.doc_topics[i];
        u -= ndk[k] * beta_ * w_.denom_inv[k];
        if (u < 0) return {k, -1, own_index};
      }
      return {w_.doc_topics[num_doc_topics_ - 1], -1, own_index};
    }
    u = std::max(0.0, u - r_);
    for (int k = 0; k + 1 < k_; ++k) {
      u -= alpha_beta_ * w_.denom_inv[k];
      if (u < 0) return {k, -1, own_index};
    }
    return {k_ - 1, -1, own_index};
  }

  TopicCountLists<Entry>& counts_;
  DocumentTopicLists& docs_;
  SweepWorker& w_;
  const int k_;
  const double alpha_, beta_, alpha_beta_;
  const bool avx2_ = TermBucketHasAvx2();
  double s_ = 0;  // sum_k s_k
  double r_ = 0;  // sum_k r_k for the current document
  int32_t num_doc_topics_ = 0;
};


}  // namespace pplda::lda

#endif  // PPLDA_LDA_TOPIC_LIST_SWEEP_H_

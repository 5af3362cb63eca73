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
      min_total_ = std::min(min_total_, w_.totals[k]);
    }
  }

  // Resamples tokens [first, last) of document m, whose assignments are
  // doc_z (all its tokens; [first, last) is a part of it), terms `terms`.
  void Document(int32_t m, std::span<const TermId> terms, std::span<int32_t> doc_z, size_t first,
                size_t last) {
    int32_t* ndk = w_.doc_counts.data();
    doc_z_ = doc_z.data();
    doc_length_ = static_cast<uint32_t>(doc_z.size());
    BeginDocument(m, ndk);
    for (size_t i = first; i < last; ++i) {
      const TermId t = terms[i];
      // Heads far ahead, entries nearer (their head is in cache by then).
      if (i + kHeadPrefetch < last) __builtin_prefetch(counts_.head_address(terms[i + kHeadPrefetch]));
      if (i + kListPrefetch < last) __builtin_prefetch(counts_.list_address(terms[i + kListPrefetch]));
      const int old_k = doc_z[i];
      // The draw sees the token out of topic old_k (Withdraw); the counts
      // and sums change only if it moves (in its term's list too: Sample
      // discounts it there).
      const Withdrawal removal = Withdraw(old_k, ndk);
      const Draw draw = Sample(t, old_k, removal, ndk, static_cast<uint32_t>(i));
      const int k = draw.topic;
      if (k == old_k) {
        w_.coef[old_k] = removal.coef;
        continue;
      }
      Commit(old_k, removal, ndk);
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

  // One token out of topic k of the document, as the draw sees it: the
  // bucket sums without it (s, r) and coef[k] set to its value without it
  // (the one table entry the term bucket reads for it). Nothing else
  // changes until Commit, so a token drawn back into k costs one store to
  // undo (coef[k] = the returned coef).
  struct Withdrawal {
    double s, r, coef;
  };
  Withdrawal Withdraw(int k, const int32_t* ndk) {
    const double d = w_.denom_inv[k], d_less = w_.denom_inv_less[k];
    const int32_t n = ndk[k];
    const Withdrawal out{(s_ - alpha_beta_ * d) + alpha_beta_ * d_less,
                         (r_ - n * beta_ * d) + (n - 1) * beta_ * d_less, w_.coef[k]};
    w_.coef[k] = ((n - 1) + alpha_) * d_less;
    return out;
  }

  // Applies Withdraw(k) to the counts, totals and sums.
  void Commit(int k, const Withdrawal& removal, int32_t* ndk) {
    s_ = removal.s;
    r_ = removal.r;
    --ndk[k];
    --w_.totals[k];
    min_total_ = std::min(min_total_, w_.totals[k]);
    w_.denom_inv[k] = w_.denom_inv_less[k];
  }

  // Completes the removal of a token from topic k once Committed.
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
  // data-dependent exits would cost a mispredicted branch each. A draw
  // into the token's own slot (most tokens stay) is told by two compares
  // before the search, so the branch on staying resolves early and a stay
  // skips the search (-2 to -6% a run, docs/measurements.md).
  Draw Sample(TermId t, int own_topic, const Withdrawal& removal, int32_t* ndk, uint32_t i) {
    const std::span<const Entry> list = counts_.padded_entries(t);
    const int32_t n = static_cast<int32_t>(list.size());
    double* running = w_.q_weight.data() + 1;  // running[-1] = 0
    const TermBucketSum bucket = SumTermBucket<Entry>(
        {list.data(), n, counts_.topic_bits(), counts_.topic_mask()}, own_topic, w_.coef.data(),
        running, avx2_);
    const double q = bucket.total;
    const int32_t own_index = bucket.own_index;
    double u = w_.rng.Uniform() * (removal.s + removal.r + q);
    if (u < q) {
      // The search's answer is own_index exactly when u is in own's slot:
      // tested first, so that a token that stays skips the search.
      if (running[own_index - 1] <= u && u < running[own_index]) {
        return {own_topic, own_index, own_index};
      }
      const int32_t index = CountAtOrBelow(running, n, u, avx2_);
      return {counts_.topic(list[index]), index, own_index};
    }
    return SampleDocumentOrSmoothing(u - q, own_topic, removal, ndk, own_index, i);
  }

  // The rest of a draw that missed the term bucket (u in [0, r + s) of
  // `removal`): the document bucket or the smoothing bucket, each drawn by
  // rejection (below), and only after kRejectionAttempts rejections by the
  // search, with the token's withdrawal from own_topic applied for the
  // search and undone after. The search walks the document's topics (55 on
  // average on Brown at K = 200) or all K; rejection takes 1.3-2.8 attempts
  // a document draw on the corpora of docs/measurements.md, 4% of them at
  // most then searched. Token i of the document is the one drawn. Out of
  // line: 0.6-8% of draws come here (docs/measurements.md).
  [[gnu::noinline]] Draw SampleDocumentOrSmoothing(double u, int own_topic,
                                                   const Withdrawal& removal, int32_t* ndk,
                                                   int32_t own_index, uint32_t i) {
    // Both buckets by rejection first: a topic k proposed (document bucket:
    // another token of the document, uniformly, so k with probability
    // n_m(k) / (N_m - 1), the token withdrawn; smoothing bucket: k
    // uniformly) and kept with probability (n_min + V beta) / (n_k + V beta),
    // n_min <= every n_k: k with probability proportional to r_k, resp.
    // s_k. After kRejectionAttempts rejections, the search below.
    const double inv_max = (*w_.reciprocal)(std::max<int64_t>(min_total_ - 1, 0));
    const double own_inv_less = w_.denom_inv_less[own_topic];
    const bool in_document = u < removal.r;
    if (!in_document || doc_length_ > 1) {
      for (int attempt = 0; attempt < kRejectionAttempts; ++attempt) {
        int k;
        if (in_document) {
          uint32_t j = w_.rng.Below(doc_length_ - 1);
          j += j >= i ? 1 : 0;
          k = doc_z_[j];
        } else {
          k = static_cast<int>(w_.rng.Below(static_cast<uint32_t>(k_)));
        }
        const double inv_k = w_.denom_inv[k];  // loaded first: a select, not a branch
        const double inv = k == own_topic ? own_inv_less : inv_k;
        if (w_.rng.Uniform() * inv_max < inv) return {k, -1, own_index};
      }
    }
    const double own_inv = w_.denom_inv[own_topic];
    --ndk[own_topic];
    w_.denom_inv[own_topic] = w_.denom_inv_less[own_topic];
    const int k = SearchDocumentOrSmoothing(u, removal.r, ndk);
    ++ndk[own_topic];
    w_.denom_inv[own_topic] = own_inv;
    return {k, -1, own_index};
  }

  int SearchDocumentOrSmoothing(double u, double r, const int32_t* ndk) const {
    if (u < r && num_doc_topics_ > 0) {
      for (int i = 0; i + 1 < num_doc_topics_; ++i) {
        const int k = w_.doc_topics[i];
        u -= ndk[k] * beta_ * w_.denom_inv[k];
        if (u < 0) return k;
      }
      return w_.doc_topics[num_doc_topics_ - 1];
    }
    u = std::max(0.0, u - r);
    for (int k = 0; k + 1 < k_; ++k) {
      u -= alpha_beta_ * w_.denom_inv[k];
      if (u < 0) return k;
    }
    return k_ - 1;
  }

  TopicCountLists<Entry>& counts_;
  DocumentTopicLists& docs_;
  SweepWorker& w_;
  const int k_;
  const double alpha_, beta_, alpha_beta_;
  static constexpr int kRejectionAttempts = 8;
  const bool avx2_ = TermBucketHasAvx2();
  // A lower bound on this worker's topic totals (their minimum at the
  // start, lowered as they fall).
  int64_t min_total_ = INT64_MAX;
  const int32_t* doc_z_ = nullptr;  // the current document's assignments
  uint32_t doc_length_ = 0;
  double s_ = 0;  // sum_k s_k
  double r_ = 0;  // sum_k r_k for the current document
  int32_t num_doc_topics_ = 0;
};


}  // namespace pplda::lda

#endif  // PPLDA_LDA_TOPIC_LIST_SWEEP_H_

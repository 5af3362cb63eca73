// The batched collapsed Gibbs sampler: the plaintext twin of the secure
// protocol (DESIGN.md section 4, step 4). In one iteration every token i of
// document m with term t and current topic z_i is resampled against the
// counts at the START of the iteration with its own assignment removed:
//   p(z_i = k) ∝ (n_k(t) - [k = z_i] + beta) (n_m(k) - [k = z_i] + alpha)
//               / (n_k - [k = z_i] + V beta)
// and only after every token has been drawn are the counts updated.
// Tokens do not see each other's new topics within an iteration (unlike the
// standard sampler), which is what lets the protocol draw all tokens of all
// parties in one batch.
//
// Speed: with the counts fixed during an iteration, the weight of every
// k != z_i splits into the SparseLDA buckets s_k + r_k + q_k (see
// collapsed_gibbs_sampler.h), precomputed per iteration (s), per document
// (r) and visited over the term's non-zero topics (q); the weight of
// k = z_i is computed exactly and drawn as a fourth bucket.
//
// Threads and determinism: documents are sampled in parallel; token draws of
// document m in iteration j use stream (j, m) of the seed, so the run is
// identical for every thread count.
//
// Draw counts (the hook for differentially private training,
// privacy/dp_count_training.h): after SetDrawCounts(c), every iteration
// draws against the global counts c (term-major V x K, entries >= 0) and
// topic totals n_k = sum_t c(t, k) derived from them, instead of the exact
// counts of z, until the next SetDrawCounts. The document's own counts
// n_m(k) and its own assignment z_i stay exact (they are its own data), and
// the self-removal is clamped: (max(c(t, k) - [k = z_i], 0) + beta) and
// (max(n_k - [k = z_i], 0) + V beta), so that weights stay non-negative.
// The exact counts of z are still maintained (state()) for the caller that
// noises them; Model() returns them, NOT the draw counts.
//
// Thread-safety: see LdaSampler.
#ifndef PPLDA_LDA_BATCHED_GIBBS_SAMPLER_H_
#define PPLDA_LDA_BATCHED_GIBBS_SAMPLER_H_

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "lda/lda_sampler.h"

namespace pplda::lda {

class BatchedGibbsSampler : public LdaSampler {
 public:
  // As CollapsedGibbsSampler::Create.
  static absl::StatusOr<std::unique_ptr<BatchedGibbsSampler>> Create(
      const Corpus& corpus, const SamplerOptions& options);
  static absl::StatusOr<std::unique_ptr<BatchedGibbsSampler>> Create(
      const Corpus& corpus, const SamplerOptions& options,
      std::vector<std::vector<int>> initial_topics);

  void RunIteration() override;
  std::string_view kind() const override { return "batched"; }

  // The normalised distribution above for token `pos` of document `doc` in
  // the current state (what the next RunIteration() draws from, against the
  // draw counts when set), computed directly in O(K). Requires doc and pos
  // in range.
  std::vector<double> TokenConditional(int doc, int pos) const;

  // Draw against `term_major_counts` (V x K, entry t * K + k) from the next
  // iteration on (see the header comment). InvalidArgument when the size is
  // not V * K or an entry is negative.
  absl::Status SetDrawCounts(std::vector<int32_t> term_major_counts);
  // The same with the topic totals given (K entries >= 0) instead of
  // derived: DP training derives them from the unclamped noisy counts
  // (privacy/dp_count_training.h). InvalidArgument for a wrong size or a
  // negative entry.
  absl::Status SetDrawCounts(std::vector<int32_t> term_major_counts,
                             std::vector<int64_t> topic_totals);
  bool has_draw_counts() const { return has_draw_counts_; }

 private:
  friend class LdaSampler;  // Make
  BatchedGibbsSampler(const Corpus& corpus, const SamplerOptions& options, GibbsState state);
  std::string_view parallel_scheme() const override;
  // Draws new topics for documents [begin, end) into state_.z and updates
  // their document-topic rows; topic-term counts are left untouched.
  void SampleDocuments(size_t begin, size_t end, const std::vector<double>& denom_inv,
                       double s_total);
  // Applies the changes from previous_z_ to state_.z to the topic-term
  // counts and topic totals, in parallel over term ranges. Each term's
  // updates happen in document order whatever the thread count, so the
  // non-zero lists (and hence the draws) do not depend on it.
  void UpdateCounts();
  // The changes of tokens whose term is in [first, last); topic total
  // changes are added to total_deltas.
  void UpdateTopicTermCounts(TermId first, TermId last, std::vector<int64_t>& total_deltas);

  // The counts and totals the draws read: the draw counts when set, else
  // the exact ones.
  const TermTopicCounts& draw_counts() const {
    return has_draw_counts_ ? draw_counts_ : state_.term_topic;
  }
  const std::vector<int64_t>& draw_totals() const {
    return has_draw_counts_ ? draw_totals_ : state_.topic_totals;
  }

  std::vector<std::vector<int>> previous_z_;
  bool has_draw_counts_ = false;
  TermTopicCounts draw_counts_;
  std::vector<int64_t> draw_totals_;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_BATCHED_GIBBS_SAMPLER_H_

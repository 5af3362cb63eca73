#include "lda/batched_gibbs_sampler.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "lda/random.h"

namespace pplda::lda {
namespace {

// Draws new topics for the tokens of one document at a time against fixed
// counts (notation of the header; buckets s, r, q for k != z_i plus the
// exact weight of k = z_i).
class BatchedDocumentSampler {
 public:
  BatchedDocumentSampler(const TermTopicCounts& counts, const std::vector<int64_t>& totals,
                         const std::vector<double>& denom_inv, double s_total, double alpha,
                         double beta)
      : counts_(counts), totals_(totals), denom_inv_(denom_inv), k_(counts.num_topics()),
        alpha_(alpha), beta_(beta), v_beta_(counts.num_terms() * beta),
        alpha_beta_(alpha * beta), s_total_(s_total), coef_(k_), r_(k_, 0.0), q_weight_(k_),
        doc_topics_(k_) {
    for (int k = 0; k < k_; ++k) coef_[k] = alpha_ * denom_inv_[k];
  }

  // New topics for `tokens` written into `z`; `ndk` (the document's counts
  // at the start of the iteration) is only read.
  void Document(const std::vector<TermId>& tokens, std::vector<int>& z, const int32_t* ndk,
                Rng& rng) {
    r_total_ = 0;
    num_doc_topics_ = 0;
    for (int k = 0; k < k_; ++k) {
      if (ndk[k] == 0) continue;
      doc_topics_[num_doc_topics_++] = k;
      r_[k] = ndk[k] * beta_ * denom_inv_[k];
      r_total_ += r_[k];
      coef_[k] = (ndk[k] + alpha_) * denom_inv_[k];
    }
    for (size_t i = 0; i < tokens.size(); ++i) z[i] = Draw(tokens[i], z[i], ndk, rng);
    for (int j = 0; j < num_doc_topics_; ++j) {
      const int k = doc_topics_[j];
      coef_[k] = alpha_ * denom_inv_[k];
      r_[k] = 0;
    }
  }

 private:
  int Draw(TermId t, int z, const int32_t* ndk, Rng& rng) {
    if (k_ == 1) return 0;
    const int32_t* row = counts_.row(t);
    // Clamped at 0: exact counts hold z_i itself (>= 1), draw counts need not.
    const double w_self = (std::max(row[z] - 1, 0) + beta_) * (ndk[z] - 1 + alpha_) /
                          (static_cast<double>(std::max<int64_t>(totals_[z] - 1, 0)) + v_beta_);
    const std::span<const int32_t> topics = counts_.nonzero_topics(t);
    double q = 0;
    for (size_t j = 0; j < topics.size(); ++j) {
      const int k = topics[j];
      const double w = k == z ? 0.0 : row[k] * coef_[k];
      q_weight_[j] = w;
      q += w;
    }
    const double r = num_doc_topics_ == 1 ? 0.0 : std::max(0.0, r_total_ - r_[z]);
    const double s = std::max(0.0, s_total_ - alpha_beta_ * denom_inv_[z]);
    double u = rng.Uniform() * (w_self + q + r + s);
    if (u < w_self) return z;
    u -= w_self;
    if (u < q) return DrawTermBucket(topics, u);
    u -= q;
    if (u < r) return DrawDocumentBucket(z, u);
    return DrawSmoothingBucket(z, std::max(0.0, u - r));
  }

  int DrawTermBucket(std::span<const int32_t> topics, double u) const {
    int last = -1;
    for (size_t j = 0; j < topics.size(); ++j) {
      if (q_weight_[j] <= 0) continue;
      last = topics[j];
      u -= q_weight_[j];
      if (u < 0) break;
    }
    return last;
  }

  int DrawDocumentBucket(int z, double u) const {
    int last = -1;
    for (int j = 0; j < num_doc_topics_; ++j) {
      const int k = doc_topics_[j];
      if (k == z) continue;
      last = k;
      u -= r_[k];
      if (u < 0) break;
    }
    return last;
  }

  int DrawSmoothingBucket(int z, double u) const {
    int last = -1;
    for (int k = 0; k < k_; ++k) {
      if (k == z) continue;
      last = k;
      u -= alpha_beta_ * denom_inv_[k];
      if (u < 0) break;
    }
    return last;
  }

  const TermTopicCounts& counts_;
  const std::vector<int64_t>& totals_;
  const std::vector<double>& denom_inv_;
  const int k_;
  const double alpha_, beta_, v_beta_, alpha_beta_, s_total_;
  std::vector<double> coef_;      // (n_m(k) + alpha) / (n_k + V beta)
  std::vector<double> r_;         // r_k of the current document
  std::vector<double> q_weight_;  // q_k of the current term's topics (0 for z_i)
  std::vector<int32_t> doc_topics_;
  int32_t num_doc_topics_ = 0;
  double r_total_ = 0;
};

}  // namespace

BatchedGibbsSampler::BatchedGibbsSampler(const Corpus& corpus, const SamplerOptions& options,
                                         GibbsState state)
    : LdaSampler(corpus, options, std::move(state)) {}

absl::StatusOr<std::unique_ptr<BatchedGibbsSampler>> BatchedGibbsSampler::Create(
    const Corpus& corpus, const SamplerOptions& options) {
  return Make<BatchedGibbsSampler>(corpus, options, nullptr);
}

absl::StatusOr<std::unique_ptr<BatchedGibbsSampler>> BatchedGibbsSampler::Create(
    const Corpus& corpus, const SamplerOptions& options,
    std::vector<std::vector<int>> initial_topics) {
  return Make<BatchedGibbsSampler>(corpus, options, &initial_topics);
}

std::string_view BatchedGibbsSampler::parallel_scheme() const {
  return "documents in parallel against the iteration's start counts (exact)";
}

void BatchedGibbsSampler::SampleDocuments(size_t begin, size_t end,
                                          const std::vector<double>& denom_inv,
                                          double s_total) {
  BatchedDocumentSampler sampler(draw_counts(), draw_totals(), denom_inv, s_total,
                                 options_.alpha, options_.beta);
  for (size_t m = begin; m < end; ++m) {
    const int32_t doc = static_cast<int32_t>(m);
    Rng rng = Rng::ForStream(options_.seed,
                             kBatchedStreams | static_cast<uint64_t>(iterations_done_), m);
    sampler.Document(state_.tokens[m], state_.z[m], state_.doc_row(doc), rng);
    int32_t* ndk = state_.doc_row(doc);
    for (size_t i = 0; i < state_.z[m].size(); ++i) {
      --ndk[previous_z_[m][i]];
      ++ndk[state_.z[m][i]];
    }
  }
}

void BatchedGibbsSampler::UpdateTopicTermCounts(TermId first, TermId last,
                                                std::vector<int64_t>& total_deltas) {
  for (int32_t m = 0; m < state_.num_documents(); ++m) {
    const std::vector<TermId>& tokens = state_.tokens[m];
    for (size_t i = 0; i < tokens.size(); ++i) {
      const TermId t = tokens[i];
      const int before = previous_z_[m][i];
      const int after = state_.z[m][i];
      if (before == after || t < first || t >= last) continue;
      state_.term_topic.Decrement(t, before);
      state_.term_topic.Increment(t, after);
      --total_deltas[before];
      ++total_deltas[after];
    }
  }
}

void BatchedGibbsSampler::UpdateCounts() {
  const int parts = pool_ == nullptr ? 1 : num_threads_;
  std::vector<std::vector<int64_t>> deltas(parts, std::vector<int64_t>(state_.num_topics, 0));
  auto update = [&](size_t begin, size_t end, int) {
    for (size_t p = begin; p < end; ++p) {
      const TermId first = static_cast<TermId>(p * state_.num_terms / parts);
      const TermId last = static_cast<TermId>((p + 1) * state_.num_terms / parts);
      UpdateTopicTermCounts(first, last, deltas[p]);
    }
  };
  if (pool_ == nullptr) {
    update(0, 1, 0);
  } else {
    pool_->ParallelForChunks(parts, parts, update);
  }
  for (const auto& d : deltas) {
    for (int k = 0; k < state_.num_topics; ++k) state_.topic_totals[k] += d[k];
  }
}

void BatchedGibbsSampler::RunIteration() {
  const int k_topics = state_.num_topics;
  const double v_beta = state_.num_terms * options_.beta;
  std::vector<double> denom_inv(k_topics);
  double s_total = 0;
  const std::vector<int64_t>& totals = draw_totals();
  for (int k = 0; k < k_topics; ++k) {
    denom_inv[k] = 1.0 / (static_cast<double>(totals[k]) + v_beta);
    s_total += options_.alpha * options_.beta * denom_inv[k];
  }
  previous_z_ = state_.z;
  const size_t docs = static_cast<size_t>(state_.num_documents());
  auto sample = [&](size_t begin, size_t end, int) {
    SampleDocuments(begin, end, denom_inv, s_total);
  };
  if (pool_ == nullptr) {
    sample(0, docs, 0);
  } else {
    pool_->ParallelForChunks(docs, static_cast<size_t>(4 * num_threads_), sample);
  }
  UpdateCounts();
  ++iterations_done_;
}

std::vector<double> BatchedGibbsSampler::TokenConditional(int doc, int pos) const {
  const int k_topics = state_.num_topics;
  const double v_beta = state_.num_terms * options_.beta;
  const TermId t = state_.tokens[doc][pos];
  const int z = state_.z[doc][pos];
  const int32_t* ndk = state_.doc_row(doc);
  const TermTopicCounts& counts = draw_counts();
  const std::vector<int64_t>& totals = draw_totals();
  std::vector<double> p(k_topics);
  double total = 0;
  for (int k = 0; k < k_topics; ++k) {
    const int self = k == z ? 1 : 0;
    p[k] = (std::max(counts.count(t, k) - self, 0) + options_.beta) *
           (ndk[k] - self + options_.alpha) /
           (static_cast<double>(std::max<int64_t>(totals[k] - self, 0)) + v_beta);
    total += p[k];
  }
  for (double& x : p) x /= total;
  return p;
}

absl::Status BatchedGibbsSampler::SetDrawCounts(std::vector<int32_t> term_major_counts) {
  const int k_topics = state_.num_topics;
  const size_t cells = static_cast<size_t>(state_.num_terms) * static_cast<size_t>(k_topics);
  if (term_major_counts.size() != cells) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "draw counts must have V * K = %d * %d entries, got %d", state_.num_terms, k_topics,
        term_major_counts.size()));
  }
  for (size_t i = 0; i < cells; ++i) {
    if (term_major_counts[i] < 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "draw count of term %d, topic %d is negative (%d)", i / k_topics, i % k_topics,
          term_major_counts[i]));
    }
  }
  // Every topic may be non-zero for every term: list capacity K.
  draw_counts_ = TermTopicCounts(
      k_topics, std::vector<int32_t>(static_cast<size_t>(state_.num_terms), k_topics));
  draw_totals_.assign(static_cast<size_t>(k_topics), 0);
  for (TermId t = 0; t < state_.num_terms; ++t) {
    int32_t* row = draw_counts_.mutable_row(t);
    const int32_t* from = &term_major_counts[static_cast<size_t>(t) * k_topics];
    for (int k = 0; k < k_topics; ++k) {
      row[k] = from[k];
      draw_totals_[k] += from[k];
    }
  }
  draw_counts_.RebuildNonzeroLists(0, state_.num_terms);
  has_draw_counts_ = true;
  return absl::OkStatus();
}

absl::Status BatchedGibbsSampler::SetDrawCounts(std::vector<int32_t> term_major_counts,
                                                 std::vector<int64_t> topic_totals) {
  const int k_topics = state_.num_topics;
  if (topic_totals.size() != static_cast<size_t>(k_topics)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "draw totals must have K = %d entries, got %d", k_topics, topic_totals.size()));
  }
  for (int k = 0; k < k_topics; ++k) {
    if (topic_totals[k] < 0) {
      return absl::InvalidArgumentError(
          absl::StrFormat("draw total of topic %d is negative (%d)", k, topic_totals[k]));
    }
  }
  RETURN_IF_ERROR(SetDrawCounts(std::move(term_major_counts)));
  draw_totals_ = std::move(topic_totals);
  return absl::OkStatus();
}

}  // namespace pplda::lda

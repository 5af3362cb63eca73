#include "lda/collapsed_gibbs_sampler.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "lda/ad_lda_blocks.h"
#include "lda/document_blocks.h"

namespace pplda::lda {
namespace {

// A token of term t whose topic went from `from` to `to` in an iteration.
struct TopicMove {
  TermId t;
  int32_t from, to;
};

// Per-thread buffers of the sparse sweep, sized K once.
struct SweepScratch {
  explicit SweepScratch(int k)
      : denom_inv(k), coef(k), q_weight(k), doc_topics(k), doc_pos(k, -1) {}
  std::vector<double> denom_inv;   // 1 / (n_k + V beta)
  std::vector<double> coef;        // (n_m(k) + alpha) / (n_k + V beta)
  std::vector<double> q_weight;    // q_k of the current term's topics
  std::vector<int32_t> doc_topics; // topics with n_m(k) > 0
  std::vector<int32_t> doc_pos;    // k -> index in doc_topics, or -1
};

// One SparseLDA sweep over documents against `counts` and `totals`
// (Yao, Mimno & McCallum 2009, sec. 3; notation of the header).
class SparseSweep {
 public:
  SparseSweep(TermTopicCounts& counts, std::vector<int64_t>& totals, double alpha,
              double beta, SweepScratch& scratch)
      : counts_(counts), totals_(totals), k_(counts.num_topics()), alpha_(alpha),
        beta_(beta), v_beta_(counts.num_terms() * beta), alpha_beta_(alpha * beta),
        x_(scratch) {
    for (int k = 0; k < k_; ++k) {
      x_.denom_inv[k] = 1.0 / (static_cast<double>(totals_[k]) + v_beta_);
      x_.coef[k] = alpha_ * x_.denom_inv[k];
      s_ += alpha_beta_ * x_.denom_inv[k];
    }
  }

  // Resamples every token of one document; appends the tokens whose topic
  // changed to `moves` when it is not null.
  void Document(const std::vector<TermId>& tokens, std::vector<int>& z, int32_t* ndk,
                Rng& rng, std::vector<TopicMove>* moves) {
    BeginDocument(z, ndk);
    for (size_t i = 0; i < tokens.size(); ++i) {
      const TermId t = tokens[i];
      const int old_k = z[i];
      Move(t, old_k, -1, ndk);
      const int k = Sample(t, ndk, rng);
      Move(t, k, +1, ndk);
      z[i] = k;
      if (moves != nullptr && k != old_k) moves->push_back({t, old_k, k});
    }
    EndDocument();
  }

 private:
  // The document's topics come from its tokens' assignments, not a scan of
  // all K topics: O(document length), which matters for short documents
  // and large K. They are listed in increasing order, as a scan would. s_
  // is not recomputed: Move keeps it current from the sweep's start.
  void BeginDocument(const std::vector<int>& z, const int32_t* ndk) {
    r_ = 0;
    num_doc_topics_ = 0;
    for (const int k : z) {
      if (x_.doc_pos[k] >= 0) continue;
      x_.doc_pos[k] = 0;
      x_.doc_topics[num_doc_topics_++] = k;
    }
    std::sort(x_.doc_topics.begin(), x_.doc_topics.begin() + num_doc_topics_);
    for (int32_t j = 0; j < num_doc_topics_; ++j) {
      const int k = x_.doc_topics[j];
      x_.doc_pos[k] = j;
      r_ += ndk[k] * beta_ * x_.denom_inv[k];
      x_.coef[k] = (ndk[k] + alpha_) * x_.denom_inv[k];
    }
  }

  void EndDocument() {
    for (int j = 0; j < num_doc_topics_; ++j) {
      const int k = x_.doc_topics[j];
      x_.coef[k] = alpha_ * x_.denom_inv[k];
      x_.doc_pos[k] = -1;
    }
  }

  // Adds (delta = +1) or removes (delta = -1) one token of term t, topic k.
  void Move(TermId t, int k, int delta, int32_t* ndk) {
    const double old_inv = x_.denom_inv[k];
    s_ -= alpha_beta_ * old_inv;
    r_ -= ndk[k] * beta_ * old_inv;
    ndk[k] += delta;
    totals_[k] += delta;
    if (delta > 0) {
      counts_.Increment(t, k);
    } else {
      counts_.Decrement(t, k);
    }
    const double inv = 1.0 / (static_cast<double>(totals_[k]) + v_beta_);
    x_.denom_inv[k] = inv;
    s_ += alpha_beta_ * inv;
    r_ += ndk[k] * beta_ * inv;
    x_.coef[k] = (ndk[k] + alpha_) * inv;
    if (delta > 0 && ndk[k] == 1) {
      x_.doc_pos[k] = num_doc_topics_;
      x_.doc_topics[num_doc_topics_++] = k;
    } else if (delta < 0 && ndk[k] == 0) {
      const int32_t pos = x_.doc_pos[k];
      const int32_t last = x_.doc_topics[--num_doc_topics_];
      x_.doc_topics[pos] = last;
      x_.doc_pos[last] = pos;
      x_.doc_pos[k] = -1;
      if (num_doc_topics_ == 0) r_ = 0;
    }
  }

  int Sample(TermId t, const int32_t* ndk, Rng& rng) {
    const std::span<const int32_t> topics = counts_.nonzero_topics(t);
    const int32_t* row = counts_.row(t);
    double q = 0;
    for (size_t j = 0; j < topics.size(); ++j) {
      const double w = row[topics[j]] * x_.coef[topics[j]];
      x_.q_weight[j] = w;
      q += w;
    }
    double u = rng.Uniform() * (s_ + r_ + q);
    if (u < q) {
      for (size_t j = 0; j + 1 < topics.size(); ++j) {
        u -= x_.q_weight[j];
        if (u < 0) return topics[j];
      }
      return topics.back();
    }
    u -= q;
    if (u < r_ && num_doc_topics_ > 0) {
      for (int j = 0; j + 1 < num_doc_topics_; ++j) {
        const int k = x_.doc_topics[j];
        u -= ndk[k] * beta_ * x_.denom_inv[k];
        if (u < 0) return k;
      }
      return x_.doc_topics[num_doc_topics_ - 1];
    }
    u = std::max(0.0, u - r_);
    for (int k = 0; k + 1 < k_; ++k) {
      u -= alpha_beta_ * x_.denom_inv[k];
      if (u < 0) return k;
    }
    return k_ - 1;
  }

  TermTopicCounts& counts_;
  std::vector<int64_t>& totals_;
  const int k_;
  const double alpha_, beta_, v_beta_, alpha_beta_;
  SweepScratch& x_;
  double s_ = 0;  // sum_k s_k
  double r_ = 0;  // sum_k r_k for the current document
  int32_t num_doc_topics_ = 0;
};

}  // namespace

// The counts this block samples against (AdLdaCounts): block 0 the global
// ones, every other block its own copy.
struct CollapsedGibbsSampler::Block : AdLdaCounts {
  Block(int32_t begin, int32_t end, Rng stream, int k) : doc_begin(begin), doc_end(end),
        rng(stream), scratch(k) {}
  int32_t doc_begin, doc_end;
  Rng rng;
  SweepScratch scratch;
  // Tokens of this block that changed topic in the current iteration (only
  // recorded when there are several blocks).
  std::vector<TopicMove> moves;
};

CollapsedGibbsSampler::CollapsedGibbsSampler(const Corpus& corpus,
                                             const SamplerOptions& options, GibbsState state)
    : LdaSampler(corpus, options, std::move(state)) {
  const int parts = std::max(1, std::min(num_threads_, state_.num_documents()));
  const std::vector<int32_t> bounds = DocumentBlockBoundaries(state_, parts);
  for (int p = 0; p < parts; ++p) {
    auto block = std::make_unique<Block>(bounds[p], bounds[p + 1],
                                         Rng::ForStream(options.seed, kStandardStreams, p),
                                         state_.num_topics);
    block->Bind(p, state_.term_topic, state_.topic_totals);
    blocks_.push_back(std::move(block));
  }
}

CollapsedGibbsSampler::~CollapsedGibbsSampler() = default;

absl::StatusOr<std::unique_ptr<CollapsedGibbsSampler>> CollapsedGibbsSampler::Create(
    const Corpus& corpus, const SamplerOptions& options) {
  return Make<CollapsedGibbsSampler>(corpus, options, nullptr);
}

absl::StatusOr<std::unique_ptr<CollapsedGibbsSampler>> CollapsedGibbsSampler::Create(
    const Corpus& corpus, const SamplerOptions& options,
    std::vector<std::vector<int>> initial_topics) {
  return Make<CollapsedGibbsSampler>(corpus, options, &initial_topics);
}

std::string_view CollapsedGibbsSampler::parallel_scheme() const {
  return AdLdaScheme(blocks_.size());
}

void CollapsedGibbsSampler::SweepBlock(Block& block) {
  SparseSweep sweep(*block.counts, *block.totals, options_.alpha, options_.beta,
                    block.scratch);
  std::vector<TopicMove>* moves = blocks_.size() > 1 ? &block.moves : nullptr;
  block.moves.clear();
  for (int32_t m = block.doc_begin; m < block.doc_end; ++m) {
    sweep.Document(state_.tokens[m], state_.z[m], state_.doc_row(m), block.rng, moves);
  }
}

absl::Status CollapsedGibbsSampler::CheckBlockCopies() const {
  for (size_t p = 1; p < blocks_.size(); ++p) {
    RETURN_IF_ERROR(blocks_[p]->CheckCopy(p, state_.term_topic, state_.topic_totals,
                                          /*compare_lists=*/true));
  }
  return absl::OkStatus();
}

void CollapsedGibbsSampler::RunIteration() {
  RunAdLdaIteration(
      pool_.get(), blocks_, [this](Block& block) { SweepBlock(block); },
      [](Block& target, const TopicMove& move) { target.Move(move.t, move.from, move.to); });
  ++iterations_done_;
}

}  // namespace pplda::lda

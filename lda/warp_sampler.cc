#include "lda/warp_sampler.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/thread_pool.h"
#include "lda/sampler_options.h"

namespace pplda::lda {
namespace {

// Cuts items [0, n) with weights given by prefix sums `begin` (begin[i+1] -
// begin[i] = tokens of item i) into `parts` contiguous ranges of about equal
// weight; returns parts + 1 boundaries.
std::vector<int32_t> Split(const std::vector<int64_t>& begin, int parts) {
  const int32_t n = static_cast<int32_t>(begin.size()) - 1;
  const int64_t total = begin.back();
  std::vector<int32_t> bounds{0};
  for (int p = 1; p < parts; ++p) {
    const int64_t target = total * p / parts;
    const auto it = std::lower_bound(begin.begin(), begin.end(), target);
    bounds.push_back(std::clamp(static_cast<int32_t>(it - begin.begin()), bounds.back(), n));
  }
  bounds.push_back(n);
  return bounds;
}

// Uniforms in [0, 1) with 32 random bits each, two from every 64-bit draw
// (enough for a proposal's index and an acceptance test).
class HalfUniforms {
 public:
  explicit HalfUniforms(Rng& rng) : rng_(rng) {}
  double Next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_ * 0x1.0p-32;
    }
    const uint64_t bits = rng_.Next();
    spare_ = static_cast<uint32_t>(bits);
    has_spare_ = true;
    return static_cast<double>(bits >> 32) * 0x1.0p-32;
  }

 private:
  Rng& rng_;
  uint32_t spare_ = 0;
  bool has_spare_ = false;
};

// A proposal from x uniform in [0, len + K prior): below len, the topic of
// entry floor(x) of `topics` (entries `stride` apart: a term's occurrences
// or a document's tokens); above, the uniform topic floor((x - len) / prior).
inline uint16_t ProposalAt(double x, int64_t len, const uint16_t* topics, int64_t stride,
                           double inv_prior, int k_topics) {
  if (x < static_cast<double>(len)) return topics[static_cast<int64_t>(x) * stride];
  const double u = (x - static_cast<double>(len)) * inv_prior;
  return static_cast<uint16_t>(u < k_topics ? static_cast<int>(u) : k_topics - 1);
}

}  // namespace

struct WarpSampler::Block {
  Block(int32_t begin, int32_t end, Rng stream, int k)
      : begin(begin), end(end), rng(stream), local_counts(k, 0) {}
  int32_t begin, end;  // terms (term phase) or documents (document phase)
  Rng rng;
  std::vector<int64_t> totals;        // n_k as this block sees it
  std::vector<int32_t> local_counts;  // n_k(t) or n_m(k), zero between uses
  std::vector<uint16_t> topics;       // a document's gathered record fields
  std::vector<double> doc_weights;    // n_m(k), zero between documents
  std::vector<double> denominators;   // n_k as this block sees it
};

WarpSampler::WarpSampler(const Corpus& corpus, const SamplerOptions& options, GibbsState state)
    : LdaSampler(corpus, options, std::move(state)),
      doc_steps_(1),
      word_steps_(options.mh_steps - doc_steps_),
      stride_(1 + doc_steps_ + word_steps_) {
  state_.term_topic.DropNonzeroLists();
  const int k = state_.num_topics;
  term_begin_ = state_.TermOffsets();
  doc_begin_ = state_.DocumentOffsets();
  std::vector<int64_t> next(term_begin_.begin(), term_begin_.end() - 1);
  doc_tokens_.resize(static_cast<size_t>(state_.num_tokens));
  records_.assign(static_cast<size_t>(state_.num_tokens) * stride_, 0);
  for (int32_t m = 0; m < state_.num_documents(); ++m) {
    for (size_t i = 0; i < state_.tokens[m].size(); ++i) {
      const int64_t n = next[state_.tokens[m][i]]++;
      doc_tokens_[doc_begin_[m] + i] = static_cast<int32_t>(n);
      records_[n * stride_] = static_cast<uint16_t>(state_.z[m][i]);
    }
  }
  totals_ = state_.topic_totals;
  const int parts = std::max(1, num_threads_);
  const std::vector<int32_t> term_bounds = Split(term_begin_, parts);
  const std::vector<int32_t> doc_bounds = Split(doc_begin_, parts);
  for (int p = 0; p < parts; ++p) {
    term_blocks_.push_back(std::make_unique<Block>(
        term_bounds[p], term_bounds[p + 1], Rng::ForStream(options.seed, kWarpStreams, 2 * p), k));
    doc_blocks_.push_back(
        std::make_unique<Block>(doc_bounds[p], doc_bounds[p + 1],
                                Rng::ForStream(options.seed, kWarpStreams, 2 * p + 1), k));
  }
  // The first term phase needs document proposals: a document phase whose
  // word steps are skipped draws them.
  for (auto& block : doc_blocks_) {
    block->totals = totals_;
    const int saved = word_steps_;
    word_steps_ = 0;
    DocumentPhase(*block);
    word_steps_ = saved;
  }
}

WarpSampler::~WarpSampler() = default;

absl::Status WarpSampler::CheckSteps(const SamplerOptions& options) {
  RETURN_IF_ERROR(ValidateSamplerOptions(options));
  if (options.mh_steps < 2 || options.mh_steps > kMaxWarpSteps) {
    return absl::InvalidArgumentError(
        absl::StrCat("sampler: mh_steps is ", options.mh_steps, "; the warp sampler takes [2, ",
                     kMaxWarpSteps, "] (one document proposal and at least one word proposal)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<WarpSampler>> WarpSampler::Create(const Corpus& corpus,
                                                                 const SamplerOptions& options) {
  RETURN_IF_ERROR(CheckSteps(options));
  return Make<WarpSampler>(corpus, options, nullptr);
}

absl::StatusOr<std::unique_ptr<WarpSampler>> WarpSampler::Create(
    const Corpus& corpus, const SamplerOptions& options,
    std::vector<std::vector<int>> initial_topics) {
  RETURN_IF_ERROR(CheckSteps(options));
  return Make<WarpSampler>(corpus, options, &initial_topics);
}

std::string_view WarpSampler::parallel_scheme() const {
  return term_blocks_.size() == 1
             ? "sequential"
             : "term and document blocks per phase, topic totals merged per phase";
}

void WarpSampler::TermPhase(Block& block) {
  const int k_topics = state_.num_topics;
  const double beta = options_.beta, v_beta = state_.num_terms * beta, k_beta = k_topics * beta;
  const double inv_beta = 1.0 / beta;
  int64_t* totals = block.totals.data();
  int32_t* counts = block.local_counts.data();
  HalfUniforms uniforms(block.rng);
  for (int32_t t = block.begin; t < block.end; ++t) {
    const int64_t first = term_begin_[t], last = term_begin_[t + 1];
    if (first == last) continue;
    uint16_t* records = &records_[first * stride_];
    const int64_t len = last - first;
    for (int64_t n = 0; n < len; ++n) ++counts[records[n * stride_]];
    for (int64_t n = 0; n < len; ++n) {
      uint16_t* r = records + n * stride_;
      const int s = r[0];
      --counts[s];  // the token taken out
      --totals[s];
      int k = s;
      for (int j_step = 0; j_step < doc_steps_; ++j_step) {
        const int j = r[1 + j_step];
        if (j == k) continue;
        const double num = (counts[j] + beta) * (static_cast<double>(totals[k]) + v_beta);
        const double den = (counts[k] + beta) * (static_cast<double>(totals[j]) + v_beta);
        if (num >= den || uniforms.Next() * den < num) k = j;
      }
      ++counts[k];
      ++totals[k];
      r[0] = static_cast<uint16_t>(k);
    }
    const double range = static_cast<double>(len) + k_beta;
    for (int64_t n = 0; n < len; ++n) {
      uint16_t* r = records + n * stride_;
      for (int w = 0; w < word_steps_; ++w) {
        const double x = uniforms.Next() * range;
        r[1 + doc_steps_ + w] = ProposalAt(x, len, records, stride_, inv_beta, k_topics);
      }
    }
    for (int64_t n = 0; n < len; ++n) counts[records[n * stride_]] = 0;
  }
}

void WarpSampler::DocumentPhase(Block& block) {
  const int k_topics = state_.num_topics;
  const double alpha = options_.alpha, k_alpha = k_topics * alpha;
  const double v_beta = state_.num_terms * options_.beta, inv_alpha = 1.0 / alpha;
  const int fields = 1 + word_steps_;  // what is gathered of a record
  int64_t* totals = block.totals.data();
  block.doc_weights.assign(static_cast<size_t>(k_topics), 0.0);
  block.denominators.resize(static_cast<size_t>(k_topics));
  for (int k = 0; k < k_topics; ++k) block.denominators[k] = static_cast<double>(totals[k]);
  double* a = block.doc_weights.data();
  double* d = block.denominators.data();
  HalfUniforms uniforms(block.rng);
  constexpr int32_t kAhead = 8;  // records prefetched ahead
  for (int32_t m = block.begin; m < block.end; ++m) {
    const int32_t* positions = &doc_tokens_[doc_begin_[m]];
    const int32_t len = static_cast<int32_t>(doc_begin_[m + 1] - doc_begin_[m]);
    if (len == 0) continue;
    auto record = [&](int32_t i) {
      return &records_[static_cast<int64_t>(positions[i]) * stride_];
    };
    // Gather each token's topic and word proposals (one cache line each).
    block.topics.resize(static_cast<size_t>(len) * fields);
    uint16_t* gathered = block.topics.data();
    for (int32_t i = 0; i < std::min(kAhead, len); ++i) __builtin_prefetch(record(i));
    for (int32_t i = 0; i < len; ++i) {
      if (i + kAhead < len) __builtin_prefetch(record(i + kAhead));
      const uint16_t* r = record(i);
      uint16_t* g = gathered + static_cast<int64_t>(i) * fields;
      g[0] = r[0];
      for (int w = 0; w < word_steps_; ++w) g[1 + w] = r[1 + doc_steps_ + w];
    }
    // Counts as doubles holding integers (exact under +-1): a[k] = n_m(k),
    // d[k] = n_k; the priors are added where the weights are formed. The
    // token is taken out of both while its steps run.
    for (int32_t i = 0; i < len; ++i) a[gathered[static_cast<int64_t>(i) * fields]] += 1;
    for (int32_t i = 0; i < len && word_steps_ > 0; ++i) {
      uint16_t* g = gathered + static_cast<int64_t>(i) * fields;
      const int s = g[0];
      a[s] -= 1;
      d[s] -= 1;
      int k = s;
      for (int w = 0; w < word_steps_; ++w) {
        const int j = g[1 + w];
        if (j == k) continue;
        const double num = (a[j] + alpha) * (d[k] + v_beta);
        const double den = (a[k] + alpha) * (d[j] + v_beta);
        if (num >= den || uniforms.Next() * den < num) k = j;
      }
      a[k] += 1;
      d[k] += 1;
      if (k == s) continue;
      --totals[s];
      ++totals[k];
      g[0] = static_cast<uint16_t>(k);
    }
    // Write back each topic with the next document proposal.
    const double range = static_cast<double>(len) + k_alpha;
    for (int32_t i = 0; i < std::min(kAhead, len); ++i) __builtin_prefetch(record(i), 1);
    for (int32_t i = 0; i < len; ++i) {
      if (i + kAhead < len) __builtin_prefetch(record(i + kAhead), 1);
      uint16_t* r = record(i);
      for (int j_step = 0; j_step < doc_steps_; ++j_step) {
        const double x = uniforms.Next() * range;
        r[1 + j_step] = ProposalAt(x, len, gathered, fields, inv_alpha, k_topics);
      }
      const uint16_t topic = gathered[static_cast<int64_t>(i) * fields];
      r[0] = topic;
      a[topic] = 0;
    }
  }
}

void WarpSampler::MergeTotals(std::vector<std::unique_ptr<Block>>& blocks) {
  std::vector<int64_t> merged = totals_;
  for (const auto& block : blocks) {
    for (size_t k = 0; k < merged.size(); ++k) merged[k] += block->totals[k] - totals_[k];
  }
  totals_ = std::move(merged);
}

void WarpSampler::RunIteration() {
  for (auto* blocks : {&term_blocks_, &doc_blocks_}) {
    for (auto& block : *blocks) block->totals = totals_;
    const bool terms = blocks == &term_blocks_;
    auto phase = [&](Block& block) { terms ? TermPhase(block) : DocumentPhase(block); };
    if (blocks->size() == 1) {
      phase(*blocks->front());
    } else {
      pool_->ParallelForChunks(blocks->size(), blocks->size(), [&](size_t begin, size_t end, int) {
        for (size_t p = begin; p < end; ++p) phase(*(*blocks)[p]);
      });
    }
    MergeTotals(*blocks);
  }
  state_current_ = false;
  ++iterations_done_;
}

void WarpSampler::SyncState() const {
  if (state_current_) return;
  const int k = state_.num_topics;
  std::fill(state_.doc_topic.begin(), state_.doc_topic.end(), 0);
  for (int32_t m = 0; m < state_.num_documents(); ++m) {
    int32_t* row = state_.doc_row(m);
    for (size_t i = 0; i < state_.z[m].size(); ++i) {
      const int topic = records_[static_cast<int64_t>(doc_tokens_[doc_begin_[m] + i]) * stride_];
      state_.z[m][i] = topic;
      ++row[topic];
    }
  }
  for (TermId t = 0; t < state_.num_terms; ++t) {
    int32_t* row = state_.term_topic.mutable_row(t);
    std::fill(row, row + k, 0);
    for (int64_t n = term_begin_[t]; n < term_begin_[t + 1]; ++n) ++row[records_[n * stride_]];
  }
  state_.topic_totals = totals_;
  state_current_ = true;
}

}  // namespace pplda::lda

#include "lda/metropolis_hastings_sampler.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "lda/ad_lda_blocks.h"
#include "lda/document_blocks.h"
#include "lda/random.h"

namespace pplda::lda {
namespace {

// A token (occurrence `slot` of term t) whose topic went from `from` to `to`.
struct TokenMove {
  TermId t;
  int32_t slot;
  uint16_t from, to;
};

// The MH chain of one token against one block's counts (notation of the
// header). The token is counted at topic s in every table; the formulas take
// it out on the fly (n - [k == s]), so a token that keeps its topic costs no
// count update.
class MetropolisChain {
 public:
  MetropolisChain(const TermTopicCounts& counts, const std::vector<int64_t>& totals,
                  const uint16_t* term_topics, const std::vector<int64_t>& term_begin, double alpha,
                  double beta, int steps)
      : counts_(counts),
        totals_(totals.data()),
        term_topics_(term_topics),
        term_begin_(term_begin.data()),
        k_(counts.num_topics()),
        alpha_(alpha),
        beta_(beta),
        v_beta_(counts.num_terms() * beta),
        k_alpha_(k_ * alpha),
        k_beta_(k_ * beta),
        inv_alpha_(1.0 / alpha),
        inv_beta_(1.0 / beta),
        steps_(steps) {}

  // Prefetches the cells the token at position i of a document (term t)
  // will read, given its proposal draws u[0 .. steps).
  void Prefetch(TermId t, const int* z_doc, int32_t doc_len, int32_t i, const double* u) const {
    const int32_t* row = counts_.row(t);
    __builtin_prefetch(row + z_doc[i]);
    const int64_t term_first = term_begin_[t];
    const double term_len = static_cast<double>(term_begin_[t + 1] - term_first);
    for (int step = 0; step < steps_; ++step) {
      if ((step & 1) == 0) {
        const double x = u[step] * (doc_len + k_alpha_);
        if (x < doc_len) __builtin_prefetch(row + z_doc[static_cast<int32_t>(x)]);
      } else {
        const double x = u[step] * (term_len + k_beta_);
        if (x < term_len) __builtin_prefetch(term_topics_ + term_first + static_cast<int64_t>(x));
      }
    }
  }

  // The topic reached from `start` by the token at position i of a document
  // (its topics z_doc, length doc_len, counts ndk) of term t, occurrence
  // `slot`, counted at s. Step j's proposal is drawn from u[j], uniform in
  // [0, 1); the acceptance draws come from rng.
  int Run(TermId t, int s, int start, const int* z_doc, int32_t doc_len, int32_t i,
          const int32_t* ndk, int64_t slot, const double* u, Rng& rng) const {
    const int64_t term_first = term_begin_[t];
    const double term_len = static_cast<double>(term_begin_[t + 1] - term_first);
    const int32_t* row = counts_.row(t);
    int k = start;
    for (int step = 0; step < steps_; ++step) {
      int proposal;
      double num, den;
      if ((step & 1) == 0) {  // document proposal
        const double x = u[step] * (doc_len + k_alpha_);
        if (x < doc_len) {
          const int32_t j = static_cast<int32_t>(x);
          proposal = j == i ? k : z_doc[j];
        } else {
          proposal = UniformTopic((x - doc_len) * inv_alpha_);
        }
        if (proposal == k) continue;
        num = (row[proposal] - (proposal == s) + beta_) * Denominator(k, s);
        den = (row[k] - (k == s) + beta_) * Denominator(proposal, s);
      } else {  // word proposal
        const double x = u[step] * (term_len + k_beta_);
        if (x < term_len) {
          const int64_t j = term_first + static_cast<int64_t>(x);
          proposal = j == slot ? k : term_topics_[j];
        } else {
          proposal = UniformTopic((x - term_len) * inv_beta_);
        }
        if (proposal == k) continue;
        num = (ndk[proposal] - (proposal == s) + alpha_) * Denominator(k, s);
        den = (ndk[k] - (k == s) + alpha_) * Denominator(proposal, s);
      }
      // Accepted with probability min(1, num / den); no draw when it is 1.
      if (num >= den || rng.Uniform() * den < num) k = proposal;
    }
    return k;
  }

 private:
  // n_k + V beta without the token.
  double Denominator(int k, int s) const {
    return static_cast<double>(totals_[k] - (k == s)) + v_beta_;
  }
  // x uniform in [0, K) up to rounding.
  int UniformTopic(double x) const { return x < k_ ? static_cast<int>(x) : k_ - 1; }

  const TermTopicCounts& counts_;
  const int64_t* totals_;
  const uint16_t* term_topics_;
  const int64_t* term_begin_;
  const int k_;
  const double alpha_, beta_, v_beta_, k_alpha_, k_beta_, inv_alpha_, inv_beta_;
  const int steps_;
};

// How many tokens ahead the sweep draws proposals and prefetches.
constexpr int32_t kLookahead = 8;

}  // namespace

// What this block samples against: block 0 the global tables, every other
// block its own copies (AdLdaCounts and the occurrences' topics).
struct MetropolisHastingsSampler::Block : AdLdaCounts {
  Block(int32_t begin, int32_t end, Rng stream) : doc_begin(begin), doc_end(end), rng(stream) {}
  int32_t doc_begin, doc_end;
  Rng rng;
  std::vector<uint16_t> local_term_topics;
  uint16_t* term_topics = nullptr;
  // Tokens of this block that changed topic in the current iteration (only
  // recorded when there are several blocks).
  std::vector<TokenMove> moves;
};

MetropolisHastingsSampler::MetropolisHastingsSampler(const Corpus& corpus,
                                                     const SamplerOptions& options,
                                                     GibbsState state)
    : LdaSampler(corpus, options, std::move(state)) {
  state_.term_topic.DropNonzeroLists();  // not read here; saves their upkeep
  // Occurrence arrays: term-major, each term's occurrences in reading order.
  term_begin_ = state_.TermOffsets();
  doc_begin_ = state_.DocumentOffsets();
  std::vector<int64_t> next(term_begin_.begin(), term_begin_.end() - 1);
  slot_.resize(static_cast<size_t>(state_.num_tokens));
  term_topics_.resize(static_cast<size_t>(state_.num_tokens));
  for (int32_t m = 0; m < state_.num_documents(); ++m) {
    for (size_t i = 0; i < state_.tokens[m].size(); ++i) {
      const int64_t slot = next[state_.tokens[m][i]]++;
      slot_[doc_begin_[m] + i] = static_cast<int32_t>(slot);
      term_topics_[slot] = static_cast<uint16_t>(state_.z[m][i]);
    }
  }
  const int parts = std::max(1, std::min(num_threads_, state_.num_documents()));
  const std::vector<int32_t> bounds = DocumentBlockBoundaries(state_, parts);
  for (int p = 0; p < parts; ++p) {
    auto block = std::make_unique<Block>(bounds[p], bounds[p + 1],
                                         Rng::ForStream(options.seed, kMetropolisStreams, p));
    block->Bind(p, state_.term_topic, state_.topic_totals);
    if (p > 0) block->local_term_topics = term_topics_;
    block->term_topics = p == 0 ? term_topics_.data() : block->local_term_topics.data();
    blocks_.push_back(std::move(block));
  }
}

MetropolisHastingsSampler::~MetropolisHastingsSampler() = default;

absl::StatusOr<std::unique_ptr<MetropolisHastingsSampler>> MetropolisHastingsSampler::Create(
    const Corpus& corpus, const SamplerOptions& options) {
  return Make<MetropolisHastingsSampler>(corpus, options, nullptr);
}

absl::StatusOr<std::unique_ptr<MetropolisHastingsSampler>> MetropolisHastingsSampler::Create(
    const Corpus& corpus, const SamplerOptions& options,
    std::vector<std::vector<int>> initial_topics) {
  return Make<MetropolisHastingsSampler>(corpus, options, &initial_topics);
}

std::string_view MetropolisHastingsSampler::parallel_scheme() const {
  return AdLdaScheme(blocks_.size());
}

void MetropolisHastingsSampler::SweepBlock(Block& block) {
  const int steps = options_.mh_steps;
  const MetropolisChain chain(*block.counts, *block.totals, block.term_topics, term_begin_,
                              options_.alpha, options_.beta, steps);
  const bool log_moves = blocks_.size() > 1;
  block.moves.clear();
  std::vector<int64_t>& totals = *block.totals;
  // Token i's proposal draws, made when token i - kLookahead is sampled (at
  // the document's start for its first kLookahead tokens).
  std::vector<double> ahead(static_cast<size_t>(kLookahead) * steps);
  auto draw_ahead = [&](double* u) {
    for (int j = 0; j < steps; ++j) u[j] = block.rng.Uniform();
  };
  for (int32_t m = block.doc_begin; m < block.doc_end; ++m) {
    const TermId* tokens = state_.tokens[m].data();
    int* z = state_.z[m].data();
    int32_t* ndk = state_.doc_row(m);
    const int32_t* slots = &slot_[doc_begin_[m]];
    const int32_t doc_len = static_cast<int32_t>(state_.tokens[m].size());
    for (int32_t i = 0; i < std::min(kLookahead, doc_len); ++i) {
      double* u = &ahead[static_cast<size_t>(i) * steps];
      draw_ahead(u);
      chain.Prefetch(tokens[i], z, doc_len, i, u);
    }
    double draws[kMaxMetropolisSteps];
    for (int32_t i = 0; i < doc_len; ++i) {
      double* u = &ahead[static_cast<size_t>(i % kLookahead) * steps];
      std::copy(u, u + steps, draws);
      if (i + kLookahead < doc_len) {
        draw_ahead(u);
        chain.Prefetch(tokens[i + kLookahead], z, doc_len, i + kLookahead, u);
      }
      const TermId t = tokens[i];
      const int s = z[i];
      const int k = chain.Run(t, s, s, z, doc_len, i, ndk, slots[i], draws, block.rng);
      if (k == s) continue;
      block.counts->Decrement(t, s);
      block.counts->Increment(t, k);
      --totals[s];
      ++totals[k];
      --ndk[s];
      ++ndk[k];
      z[i] = k;
      block.term_topics[slots[i]] = static_cast<uint16_t>(k);
      if (log_moves) {
        block.moves.push_back({t, slots[i], static_cast<uint16_t>(s), static_cast<uint16_t>(k)});
      }
    }
  }
}

void MetropolisHastingsSampler::RunIteration() {
  RunAdLdaIteration(
      pool_.get(), blocks_, [this](Block& block) { SweepBlock(block); },
      [](Block& target, const TokenMove& move) {
        target.Move(move.t, move.from, move.to);
        target.term_topics[move.slot] = move.to;
      });
  ++iterations_done_;
}

int MetropolisHastingsSampler::ResampleForTest(int32_t m, int32_t i, int from) {
  Block& block = *blocks_[0];
  const MetropolisChain chain(*block.counts, *block.totals, block.term_topics, term_begin_,
                              options_.alpha, options_.beta, options_.mh_steps);
  double draws[kMaxMetropolisSteps];
  for (int j = 0; j < options_.mh_steps; ++j) draws[j] = block.rng.Uniform();
  return chain.Run(state_.tokens[m][i], state_.z[m][i], from, state_.z[m].data(),
                   static_cast<int32_t>(state_.tokens[m].size()), i, state_.doc_row(m),
                   slot_[doc_begin_[m] + i], draws, block.rng);
}

absl::Status MetropolisHastingsSampler::CheckConsistency() const {
  RETURN_IF_ERROR(state_.CheckConsistency());
  for (int32_t m = 0; m < state_.num_documents(); ++m) {
    for (size_t i = 0; i < state_.z[m].size(); ++i) {
      const int32_t slot = slot_[doc_begin_[m] + i];
      const TermId t = state_.tokens[m][i];
      if (slot < term_begin_[t] || slot >= term_begin_[t + 1] ||
          term_topics_[slot] != state_.z[m][i]) {
        return absl::InternalError(
            absl::StrCat("occurrence of document ", m, " position ", i, " is wrong"));
      }
    }
  }
  for (size_t p = 1; p < blocks_.size(); ++p) {
    if (blocks_[p]->local_term_topics != term_topics_) {
      return absl::InternalError(absl::StrCat("block ", p, ": occurrence topics differ"));
    }
    RETURN_IF_ERROR(blocks_[p]->CheckCopy(p, state_.term_topic, state_.topic_totals,
                                          /*compare_lists=*/false));
  }
  return absl::OkStatus();
}

}  // namespace pplda::lda

#include "lda/metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/thread_pool.h"
#include "lda/fold_in.h"
#include "lda/random.h"
#include "lda/sampler_options.h"

namespace pplda::lda {
namespace {

absl::Status CheckPerplexityOptions(const PerplexityOptions& options) {
  if (options.sweeps < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("fold-in: sweeps is ", options.sweeps, "; it must be >= 1"));
  }
  if (options.burn_in < 0 || options.burn_in >= options.sweeps) {
    return absl::InvalidArgumentError(
        absl::StrCat("fold-in: burn_in is ", options.burn_in, "; it must be in [0, sweeps = ",
                     options.sweeps, ")"));
  }
  if (options.threads < 0 || options.threads > kMaxThreads) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fold-in: threads is ", options.threads, "; it must be in [0, ", kMaxThreads, "]"));
  }
  return absl::OkStatus();
}

// Runs fn(m) for every document index m, in parallel; fn writes only to
// slots of its own document, so results do not depend on the thread count.
template <typename Fn>
void ForEachDocument(size_t docs, int threads, const Fn& fn) {
  ThreadPool pool(std::min<int>(ResolveThreadCount(threads), std::max<size_t>(docs, 1)));
  pool.ParallelForChunks(docs, std::min<size_t>(docs, 64), [&](size_t begin, size_t end, int) {
    for (size_t m = begin; m < end; ++m) fn(m);
  });
}

// Sorted ids of the documents containing each term of `terms`.
std::vector<std::vector<int32_t>> DocumentsContaining(const Corpus& corpus,
                                                     const std::vector<TermId>& terms) {
  std::vector<int32_t> slot(corpus.vocabulary.size(), -1);
  for (size_t i = 0; i < terms.size(); ++i) slot[terms[i]] = static_cast<int32_t>(i);
  std::vector<std::vector<int32_t>> docs(terms.size());
  std::vector<int32_t> last_doc(terms.size(), -1);
  for (int32_t m = 0; m < corpus.num_documents(); ++m) {
    for (TermId t : corpus.documents[m].tokens) {
      const int32_t s = slot[t];
      if (s < 0 || last_doc[s] == m) continue;
      last_doc[s] = m;
      docs[s].push_back(m);
    }
  }
  return docs;
}

int64_t IntersectionSize(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  int64_t n = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      ++n, ++i, ++j;
    }
  }
  return n;
}

}  // namespace

absl::Status CheckSameVocabulary(const LdaModel& model, const Corpus& corpus) {
  RETURN_IF_ERROR(corpus.Validate());
  const auto& a = model.vocabulary.terms();
  const auto& b = corpus.vocabulary.terms();
  if (a.size() != b.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("vocabulary mismatch: the model has ", a.size(),
                     " terms, the corpus ", b.size(),
                     "; map the corpus onto the model's vocabulary first"));
  }
  for (size_t t = 0; t < a.size(); ++t) {
    if (a[t] != b[t]) {
      return absl::InvalidArgumentError(
          absl::StrCat("vocabulary mismatch: term ", t, " is '", a[t], "' in the model but '",
                       b[t], "' in the corpus"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<double> HeldOutPerplexity(const LdaModel& model, const Corpus& test,
                                         const PerplexityOptions& options) {
  RETURN_IF_ERROR(model.Validate());
  RETURN_IF_ERROR(CheckPerplexityOptions(options));
  if (test.documents.empty()) {
    return absl::InvalidArgumentError("held-out perplexity: the test corpus has no documents");
  }
  RETURN_IF_ERROR(CheckSameVocabulary(model, test));
  const FoldIn fold_in(model, options.sweeps, options.burn_in);
  std::vector<double> log_likelihood(test.documents.size(), 0.0);
  std::vector<int64_t> evaluated(test.documents.size(), 0);
  ForEachDocument(test.documents.size(), options.threads, [&](size_t m) {
    const std::vector<TermId>& tokens = test.documents[m].tokens;
    std::vector<TermId> estimate;
    for (size_t i = 0; i < tokens.size(); i += 2) estimate.push_back(tokens[i]);
    Rng rng = Rng::ForStream(options.seed, kFoldInStreams, m);
    const std::vector<double> theta = fold_in.Theta(estimate, rng);
    for (size_t i = 1; i < tokens.size(); i += 2) {
      log_likelihood[m] += std::log(fold_in.TermProbability(theta, tokens[i]));
      ++evaluated[m];
    }
  });
  const double total_ll = std::accumulate(log_likelihood.begin(), log_likelihood.end(), 0.0);
  const int64_t total = std::accumulate(evaluated.begin(), evaluated.end(), int64_t{0});
  if (total == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "held-out perplexity: none of the ", test.documents.size(),
        " test documents has 2 tokens or more, so no token can be evaluated"));
  }
  return std::exp(-total_ll / static_cast<double>(total));
}

absl::StatusOr<std::vector<std::vector<double>>> InferDocumentTopics(
    const LdaModel& model, const Corpus& docs, const PerplexityOptions& options) {
  RETURN_IF_ERROR(model.Validate());
  RETURN_IF_ERROR(CheckPerplexityOptions(options));
  RETURN_IF_ERROR(CheckSameVocabulary(model, docs));
  const FoldIn fold_in(model, options.sweeps, options.burn_in);
  std::vector<std::vector<double>> theta(docs.documents.size());
  ForEachDocument(docs.documents.size(), options.threads, [&](size_t m) {
    Rng rng = Rng::ForStream(options.seed, kFoldInStreams, m);
    theta[m] = fold_in.Theta(docs.documents[m].tokens, rng);
  });
  return theta;
}

std::vector<std::vector<std::pair<TermId, double>>> TopWords(const LdaModel& model, int n) {
  const int32_t v = model.num_terms();
  const size_t take = static_cast<size_t>(std::clamp(n, 0, v));
  const std::vector<int64_t> totals = model.topic_totals();
  std::vector<std::vector<std::pair<TermId, double>>> top(model.num_topics);
  std::vector<TermId> order(v);
  for (int k = 0; k < model.num_topics; ++k) {
    std::iota(order.begin(), order.end(), 0);
    // phi(k, .) increases with n_k(.), so ranking by count ranks by phi.
    std::partial_sort(order.begin(), order.begin() + static_cast<ptrdiff_t>(take), order.end(),
                      [&](TermId a, TermId b) {
                        const int64_t ca = model.count(k, a), cb = model.count(k, b);
                        return ca != cb ? ca > cb : a < b;
                      });
    const double denom = static_cast<double>(totals[k]) + v * model.beta;
    for (size_t i = 0; i < take; ++i) {
      const TermId t = order[i];
      top[k].emplace_back(t, (static_cast<double>(model.count(k, t)) + model.beta) / denom);
    }
  }
  return top;
}

std::vector<double> TopicPrevalence(const LdaModel& model) {
  const std::vector<int64_t> totals = model.topic_totals();
  const double sum = static_cast<double>(std::accumulate(totals.begin(), totals.end(), int64_t{0}));
  std::vector<double> prevalence(model.num_topics, 1.0 / model.num_topics);
  if (sum > 0) {
    for (int k = 0; k < model.num_topics; ++k) prevalence[k] = totals[k] / sum;
  }
  return prevalence;
}

absl::StatusOr<CoherenceResult> UMassCoherence(const LdaModel& model, const Corpus& reference,
                                               int top_n) {
  RETURN_IF_ERROR(model.Validate());
  if (top_n < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("UMass coherence: top_n is ", top_n, "; it must be >= 2"));
  }
  if (reference.documents.empty()) {
    return absl::InvalidArgumentError("UMass coherence: the reference corpus has no documents");
  }
  RETURN_IF_ERROR(CheckSameVocabulary(model, reference));
  const auto top = TopWords(model, top_n);
  std::vector<TermId> terms;
  for (const auto& words : top) {
    for (const auto& [t, phi] : words) terms.push_back(t);
  }
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  const std::vector<std::vector<int32_t>> docs = DocumentsContaining(reference, terms);
  auto docs_of = [&](TermId t) -> const std::vector<int32_t>& {
    return docs[std::lower_bound(terms.begin(), terms.end(), t) - terms.begin()];
  };
  CoherenceResult result;
  for (const auto& words : top) {
    double c = 0;
    for (size_t i = 1; i < words.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        const auto& dj = docs_of(words[j].first);
        if (dj.empty()) continue;
        const int64_t co = IntersectionSize(docs_of(words[i].first), dj);
        c += std::log((static_cast<double>(co) + 1.0) / static_cast<double>(dj.size()));
      }
    }
    result.per_topic.push_back(c);
  }
  result.mean = std::accumulate(result.per_topic.begin(), result.per_topic.end(), 0.0) /
                static_cast<double>(result.per_topic.size());
  return result;
}

}  // namespace pplda::lda

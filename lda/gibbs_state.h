// The state shared by the collapsed Gibbs samplers: a copy of the corpus's
// tokens, the topic assignment z of every token, and the count tables
// derived from z:
//   doc_topic[m * K + k] = n_m(k)  tokens of document m assigned to topic k
//   term_topic.count(t, k) = n_k(t) tokens of term t assigned to topic k
//   topic_totals[k]      = n_k     tokens assigned to topic k
//
// Invariant (between sampler iterations): the tables equal the counts of z
// (CheckConsistency() recomputes them), z[m][i] in [0, K), and
// z[m].size() == tokens[m].size(). A state made by CreateWithoutTables has
// only topic_totals until BuildTables() (has_tables()).
//
// Formulas (Griffiths & Steyvers, PNAS 2004, eq. 2-3 for the collapsed joint):
//   log p(w, z) = sum_k [lgG(V b) - lgG(n_k + V b) + sum_t (lgG(n_k(t) + b) - lgG(b))]
//               + sum_m [lgG(K a) - lgG(N_m + K a) + sum_k (lgG(n_m(k) + a) - lgG(a))]
//   theta_m(k)  = (n_m(k) + a) / (N_m + K a)
// with lgG = log Gamma, a = alpha, b = beta, N_m the length of document m.
//
// Thread-safety: none; samplers coordinate their threads' access.
#ifndef PPLDA_LDA_GIBBS_STATE_H_
#define PPLDA_LDA_GIBBS_STATE_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lda/corpus.h"
#include "lda/term_topic_counts.h"

namespace pplda::lda {

struct GibbsState {
  // Builds the state for `corpus` with assignments `topics`.
  // InvalidArgument when the corpus is invalid (Corpus::Validate), has an
  // empty vocabulary, no tokens or 2^31 tokens or more, or when `topics`
  // does not have one entry per token (naming the document) or holds a
  // topic outside [0, num_topics) (naming document and position).
  static absl::StatusOr<GibbsState> Create(const Corpus& corpus, int num_topics,
                                           std::vector<std::vector<int>> topics);
  // Create without doc_topic and term_topic (left empty until BuildTables):
  // for a sampler that keeps its own counts and would not read them (the
  // sparse sampler; D x K + V x K cells, 14 MB on Brown at K = 200, 28 MB on
  // SOTU's windows). Same checks and errors as Create.
  static absl::StatusOr<GibbsState> CreateWithoutTables(const Corpus& corpus, int num_topics,
                                                        std::vector<std::vector<int>> topics);
  // doc_topic and term_topic (re)built from z.
  void BuildTables();
  bool has_tables() const { return !doc_topic.empty(); }
  // Uniformly random topics for every token; document m draws from its own
  // stream of `seed`, so the result does not depend on any thread count.
  static std::vector<std::vector<int>> RandomTopics(const Corpus& corpus, int num_topics,
                                                    uint64_t seed);
  // Every token of document m in one topic, drawn uniformly from document
  // m's stream of `seed` (RandomTopics' streams), so the result does not
  // depend on any thread count either. num_topics >= 1.
  static std::vector<std::vector<int>> OneTopicPerDocument(const Corpus& corpus, int num_topics,
                                                           uint64_t seed);
  // Each term draws `spread` topics (with repeats) uniformly from its own
  // stream of `seed`, and each of its tokens takes one of them uniformly
  // from its document's stream (RandomTopics' streams): a term's tokens
  // start in at most `spread` topics. Independent of any thread count.
  // num_topics >= 1, spread >= 1.
  static std::vector<std::vector<int>> TopicsSpreadByTerm(const Corpus& corpus, int num_topics,
                                                          int spread, uint64_t seed);


  int num_topics = 0;
  int32_t num_terms = 0;
  int64_t num_tokens = 0;
  std::vector<std::vector<TermId>> tokens;  // per document, reading order
  std::vector<std::vector<int>> z;          // per document, per token
  std::vector<int32_t> doc_topic;           // D x K
  TermTopicCounts term_topic;
  std::vector<int64_t> topic_totals;        // K

  int32_t num_documents() const { return static_cast<int32_t>(tokens.size()); }
  int32_t* doc_row(int32_t m) { return &doc_topic[static_cast<size_t>(m) * num_topics]; }
  const int32_t* doc_row(int32_t m) const {
    return &doc_topic[static_cast<size_t>(m) * num_topics];
  }
  // Occurrences of every term in the corpus.
  std::vector<int32_t> TermFrequencies() const;
  // V + 1 offsets: term t's occurrences are [offsets[t], offsets[t + 1]) of
  // a term-major array of every occurrence.
  std::vector<int64_t> TermOffsets() const;
  // D + 1 offsets: document m's tokens are [offsets[m], offsets[m + 1]) of
  // the tokens in reading order.
  std::vector<int64_t> DocumentOffsets() const;

  double LogLikelihood(double alpha, double beta) const;
  std::vector<std::vector<double>> DocumentTopicMixtures(double alpha) const;
  // n_k(t), K x V row-major (the LdaModel layout).
  std::vector<int64_t> TopicTermCountsByTopic() const;
  // Internal error (naming the table and cell) when a table
  // differs from the counts of z or a non-zero list is wrong.
  absl::Status CheckConsistency() const;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_GIBBS_STATE_H_

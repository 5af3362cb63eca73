// Helpers for the model, sampler and metric tests: tiny corpora from
// whitespace-separated text, a synthetic corpus drawn from known topics, the
// bundled SOTU slice prepared with the default preprocessing, and a status
// check that looks at the code and the message.
#ifndef PPLDA_TESTS_LDA_MODEL_TEST_UTIL_H_
#define PPLDA_TESTS_LDA_MODEL_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "lda/corpus.h"
#include "lda/document_reader.h"
#include "lda/prepared_corpus.h"

namespace pplda::lda::model_testing {

// Fails the test unless `status` has `code` and its message contains `part`.
inline void ExpectError(const absl::Status& status, absl::StatusCode code,
                        const std::string& part) {
  EXPECT_EQ(status.code(), code) << status;
  EXPECT_NE(std::string(status.message()).find(part), std::string::npos)
      << "message '" << status.message() << "' does not mention '" << part << "'";
}

// Documents from whitespace-separated words over `vocabulary` (terms not in
// it are added at the end in order of first appearance).
inline Corpus MakeCorpus(const std::vector<std::string>& docs,
                         const std::vector<std::string>& vocabulary = {}) {
  Corpus corpus;
  for (const auto& term : vocabulary) corpus.vocabulary.Add(term);
  for (size_t m = 0; m < docs.size(); ++m) {
    Document d{"doc" + std::to_string(m), {}};
    std::istringstream words(docs[m]);
    std::string w;
    while (words >> w) d.tokens.push_back(corpus.vocabulary.Add(w));
    corpus.documents.push_back(std::move(d));
  }
  return corpus;
}

// A corpus drawn from LDA with known topics: topic k puts 90% of its mass
// uniformly on terms [k * V/K, (k+1) * V/K) and 10% uniformly on all terms;
// each document has theta ~ Dirichlet(doc_alpha) and a length uniform in
// [min_length, max_length]. Deterministic given `seed`.
struct SyntheticCorpus {
  Corpus corpus;
  std::vector<std::vector<double>> phi;  // K x V, the true topics
};

inline SyntheticCorpus MakeSyntheticCorpus(int k_topics, int v_terms, int docs, int min_length,
                                           int max_length, double doc_alpha, uint64_t seed) {
  std::mt19937_64 gen(seed);
  SyntheticCorpus out;
  for (int t = 0; t < v_terms; ++t) out.corpus.vocabulary.Add("w" + std::to_string(t));
  const int block = v_terms / k_topics;
  out.phi.assign(k_topics, std::vector<double>(v_terms, 0.1 / v_terms));
  for (int k = 0; k < k_topics; ++k) {
    for (int t = k * block; t < (k + 1) * block; ++t) out.phi[k][t] += 0.9 / block;
  }
  std::vector<std::discrete_distribution<int>> term_of;
  for (const auto& row : out.phi) term_of.emplace_back(row.begin(), row.end());
  std::gamma_distribution<double> gamma(doc_alpha, 1.0);
  std::uniform_int_distribution<int> length(min_length, max_length);
  for (int m = 0; m < docs; ++m) {
    std::vector<double> theta(k_topics);
    for (double& x : theta) x = gamma(gen) + 1e-300;
    std::discrete_distribution<int> topic_of(theta.begin(), theta.end());
    Document d{"synthetic" + std::to_string(m), {}};
    const int n = length(gen);
    for (int i = 0; i < n; ++i) d.tokens.push_back(term_of[topic_of(gen)](gen));
    out.corpus.documents.push_back(std::move(d));
  }
  return out;
}

// The bundled SOTU slice (data/sotu, run from the repository root): windows
// of sentences of at most 100 words, default preprocessing, every 10th
// window held out for testing.
inline absl::StatusOr<PreparedCorpus> LoadSotu() {
  ReadOptions read;
  read.format = InputFormat::kFolder;
  read.split = SplitMode::kSentences;
  read.window_words = 100;
  absl::StatusOr<RawCorpus> raw = ReadDocuments("data/sotu", read);
  if (!raw.ok()) return raw.status();
  return PrepareCorpus(*raw, PreprocessOptions(), SplitOptions{10}, nullptr);
}

// Total-variation distance between two distributions of equal length.
inline double TotalVariation(const std::vector<double>& p, const std::vector<double>& q) {
  double d = 0;
  for (size_t i = 0; i < p.size(); ++i) d += std::abs(p[i] - q[i]);
  return d / 2;
}

// Greedy matching of true to learned topics by smallest total-variation
// distance; returns the distance of each matched pair (K entries).
inline std::vector<double> MatchedTopicDistances(const std::vector<std::vector<double>>& truth,
                                                 const std::vector<std::vector<double>>& learned) {
  const size_t k = truth.size();
  std::vector<bool> used_truth(k, false), used_learned(learned.size(), false);
  std::vector<double> distances;
  for (size_t round = 0; round < k; ++round) {
    double best = 2;
    size_t bi = 0, bj = 0;
    for (size_t i = 0; i < k; ++i) {
      for (size_t j = 0; j < learned.size(); ++j) {
        if (used_truth[i] || used_learned[j]) continue;
        const double d = TotalVariation(truth[i], learned[j]);
        if (d < best) best = d, bi = i, bj = j;
      }
    }
    used_truth[bi] = used_learned[bj] = true;
    distances.push_back(best);
  }
  return distances;
}

}  // namespace pplda::lda::model_testing

#endif  // PPLDA_TESTS_LDA_MODEL_TEST_UTIL_H_

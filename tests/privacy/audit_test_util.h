// Helpers for the privacy tests: a status check that looks at the code and
// the message, tiny models from explicit counts, a synthetic corpus with
// topic words and rare words (the documents LDA memorises), and test-double
// shadow trainers.
#ifndef PPLDA_TESTS_PRIVACY_AUDIT_TEST_UTIL_H_
#define PPLDA_TESTS_PRIVACY_AUDIT_TEST_UTIL_H_

#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "lda/corpus.h"
#include "lda/lda_model.h"
#include "privacy/shadow_trainer.h"

namespace pplda::privacy::testing {

// Fails the test unless `status` has `code` and its message contains `part`.
inline void ExpectError(const absl::Status& status, absl::StatusCode code,
                        const std::string& part) {
  EXPECT_EQ(status.code(), code) << status;
  EXPECT_NE(std::string(status.message()).find(part), std::string::npos)
      << "message '" << status.message() << "' does not mention '" << part << "'";
}

inline lda::LdaModel MakeModel(const std::vector<std::string>& terms, int k, double alpha,
                               double beta, std::vector<int64_t> counts) {
  lda::LdaModel m;
  m.vocabulary = *lda::Vocabulary::FromTerms(terms);
  m.num_topics = k;
  m.alpha = alpha;
  m.beta = beta;
  m.topic_term_counts = std::move(counts);
  return m;
}

// D documents over `topics` topics of 20 common terms each ("t<k>_<i>"),
// 30 tokens from one topic per document, plus one rare term ("r<j>") shared
// by documents 2j and 2j + 1, repeated 4 times. Deterministic given seed.
inline lda::Corpus MakeAuditCorpus(int documents, int topics, uint64_t seed) {
  std::mt19937_64 gen(seed);
  lda::Corpus corpus;
  for (int k = 0; k < topics; ++k) {
    for (int i = 0; i < 20; ++i) corpus.vocabulary.Add("t" + std::to_string(k) + "_" + std::to_string(i));
  }
  std::uniform_int_distribution<int> word(0, 19);
  for (int d = 0; d < documents; ++d) {
    lda::Document doc{"doc" + std::to_string(d), {}};
    const int k = d % topics;
    for (int i = 0; i < 30; ++i) doc.tokens.push_back(k * 20 + word(gen));
    const lda::TermId rare = corpus.vocabulary.Add("r" + std::to_string(d / 2));
    for (int i = 0; i < 4; ++i) doc.tokens.push_back(rare);
    corpus.documents.push_back(std::move(doc));
  }
  return corpus;
}

// K = 1: phi is the smoothed unigram distribution of the members' tokens,
// the simplest model that memorises. Deterministic, ignores the seed.
class UnigramTrainer : public ShadowTrainer {
 public:
  absl::StatusOr<lda::LdaModel> Train(const lda::Corpus& members, uint64_t) const override {
    lda::LdaModel m;
    m.vocabulary = members.vocabulary;
    m.num_topics = 1;
    m.beta = 0.01;
    m.topic_term_counts.assign(members.vocabulary.size(), 0);
    for (const lda::Document& d : members.documents) {
      for (lda::TermId t : d.tokens) ++m.topic_term_counts[t];
    }
    return m;
  }
  nlohmann::json Describe() const override { return {{"trainer", "unigram (test)"}, {"topics", 1}}; }
};

// Always fails with the given status.
class FailingTrainer : public ShadowTrainer {
 public:
  explicit FailingTrainer(absl::Status status) : status_(std::move(status)) {}
  absl::StatusOr<lda::LdaModel> Train(const lda::Corpus&, uint64_t) const override { return status_; }
  nlohmann::json Describe() const override { return {{"trainer", "failing (test)"}}; }

 private:
  absl::Status status_;
};

}  // namespace pplda::privacy::testing

#endif  // PPLDA_TESTS_PRIVACY_AUDIT_TEST_UTIL_H_

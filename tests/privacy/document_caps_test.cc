// The DP training caps: deterministic truncation of a document that exceeds
// them, the squared sensitivity formula, and the sensitivity itself: two
// neighbouring corpora (one capped document more) have exact topic-term
// count matrices at L2 distance at most sqrt(L c) for any topics of that
// document, with the bound reached by the worst document.
#include "privacy/document_caps.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "gtest/gtest.h"
#include "lda/gibbs_state.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;

TEST(DocumentCaps, TruncatesInReadingOrderPerTermThenInTotal) {
  const lda::Document d{"d", {0, 0, 0, 1, 0, 2, 2, 2, 3, 4}};
  // c = 2: the third 0 (position 2) and the fourth (position 4) go, the
  // third 2 (position 7) goes; then L = 5 keeps the first five survivors.
  const lda::Document capped = CapDocument(d, DocumentCaps{5, 2});
  EXPECT_EQ(capped.tokens, (std::vector<lda::TermId>{0, 0, 1, 2, 2}));
  EXPECT_EQ(capped.name, "d");
  // Within the caps: unchanged.
  EXPECT_EQ(CapDocument(d, DocumentCaps{100, 10}).tokens, d.tokens);
  // Deterministic.
  EXPECT_EQ(CapDocument(d, DocumentCaps{5, 2}).tokens, capped.tokens);
}

TEST(DocumentCaps, CapDocumentsCountsTheShortenedOnes) {
  lda::Corpus corpus;
  for (const char* t : {"a", "b", "c"}) corpus.vocabulary.Add(t);
  corpus.documents = {{"x", {0, 0, 0}}, {"y", {0, 1, 2}}, {"z", {1, 1, 2, 2, 0}}};
  int64_t capped = -1;
  const lda::Corpus out = CapDocuments(corpus, DocumentCaps{4, 2}, &capped);
  EXPECT_EQ(capped, 2);
  EXPECT_EQ(out.documents[0].tokens, (std::vector<lda::TermId>{0, 0}));
  EXPECT_EQ(out.documents[1].tokens, (std::vector<lda::TermId>{0, 1, 2}));
  EXPECT_EQ(out.documents[2].tokens, (std::vector<lda::TermId>{1, 1, 2, 2}));
  EXPECT_EQ(out.vocabulary.size(), 3);
}

TEST(DocumentCaps, SensitivitySquaredClosedForm) {
  EXPECT_EQ(SensitivitySquared({50, 5}), 250);  // L c when c divides L
  EXPECT_EQ(SensitivitySquared({7, 3}), 19);    // 2 * 9 + 1 <= 21
  EXPECT_EQ(SensitivitySquared({3, 10}), 9);    // L^2 when c >= L
  EXPECT_EQ(SensitivitySquared({1, 1}), 1);
  EXPECT_EQ(SensitivitySquared({100, 1}), 100);
  for (int l : {1, 2, 5, 17, 50, 100}) {
    for (int c : {1, 2, 3, 5, 8, 200}) {
      EXPECT_LE(SensitivitySquared({l, c}), static_cast<int64_t>(l) * c) << l << " " << c;
    }
  }
}

TEST(DocumentCaps, BadCapsNameTheFlag) {
  ExpectError(ValidateDocumentCaps({0, 5}), absl::StatusCode::kInvalidArgument,
              "--dp-max-tokens");
  ExpectError(ValidateDocumentCaps({-3, 5}), absl::StatusCode::kInvalidArgument,
              "--dp-max-tokens");
  ExpectError(ValidateDocumentCaps({50, 0}), absl::StatusCode::kInvalidArgument,
              "--dp-max-term-count");
  ExpectError(ValidateDocumentCaps({50, 2000000}), absl::StatusCode::kInvalidArgument,
              "--dp-max-term-count");
  EXPECT_TRUE(ValidateDocumentCaps({50, 5}).ok());
}

// Squared L2 distance of the K x V count matrices of two corpora that share
// the vocabulary, under the given topics.
int64_t SquaredDistance(const lda::Corpus& a, std::vector<std::vector<int>> za,
                        const lda::Corpus& b, std::vector<std::vector<int>> zb, int k) {
  auto sa = lda::GibbsState::Create(a, k, std::move(za));
  auto sb = lda::GibbsState::Create(b, k, std::move(zb));
  EXPECT_TRUE(sa.ok() && sb.ok());
  const std::vector<int64_t> ca = sa->TopicTermCountsByTopic();
  const std::vector<int64_t> cb = sb->TopicTermCountsByTopic();
  int64_t d2 = 0;
  for (size_t i = 0; i < ca.size(); ++i) d2 += (ca[i] - cb[i]) * (ca[i] - cb[i]);
  return d2;
}

TEST(DocumentCaps, NeighbouringCorporaDifferByAtMostSqrtLc) {
  const DocumentCaps caps{12, 3};  // Delta^2 = 36 = L c
  const int k = 4;
  lda::Corpus base = testing::MakeAuditCorpus(30, 2, 5);
  // The extra document: far over both caps (terms 0..3 six times each,
  // interleaved, then 4..9): capped to 3 of each of 0..3.
  lda::Document extra{"extra", {}};
  for (int rep = 0; rep < 6; ++rep) {
    for (lda::TermId t = 0; t < 4; ++t) extra.tokens.push_back(t);
  }
  for (lda::TermId t = 4; t < 10; ++t) extra.tokens.push_back(t);
  lda::Corpus with = base;
  with.documents.insert(with.documents.begin() + 7, extra);  // anywhere
  const lda::Corpus d = CapDocuments(base, caps, nullptr);
  const lda::Corpus d_plus = CapDocuments(with, caps, nullptr);
  const lda::Document& capped_extra = d_plus.documents[7];
  EXPECT_EQ(capped_extra.tokens.size(), 12u);  // truncated to L
  for (lda::TermId t = 0; t < 4; ++t) {  // to c per term
    EXPECT_EQ(std::count(capped_extra.tokens.begin(), capped_extra.tokens.end(), t), 3);
  }

  std::mt19937_64 gen(9);
  std::uniform_int_distribution<int> topic(0, k - 1);
  const double bound = static_cast<double>(SensitivitySquared(caps));
  int64_t largest = 0;
  for (int trial = 0; trial < 200; ++trial) {
    // Any topics for every document; the others' are the same in both.
    std::vector<std::vector<int>> z;
    for (const lda::Document& doc : d.documents) {
      std::vector<int> row;
      for (size_t i = 0; i < doc.tokens.size(); ++i) row.push_back(topic(gen));
      z.push_back(row);
    }
    std::vector<int> extra_z;
    const bool one_topic = trial % 2 == 0;  // the worst case: all in one topic
    for (size_t i = 0; i < capped_extra.tokens.size(); ++i) {
      extra_z.push_back(one_topic ? 1 : topic(gen));
    }
    std::vector<std::vector<int>> z_plus = z;
    z_plus.insert(z_plus.begin() + 7, extra_z);
    const int64_t d2 = SquaredDistance(d, z, d_plus, z_plus, k);
    EXPECT_LE(d2, bound) << "trial " << trial;
    EXPECT_LE(std::sqrt(static_cast<double>(d2)), std::sqrt(12.0 * 3.0) + 1e-12);
    largest = std::max(largest, d2);
  }
  // Four terms three times each in one topic: 4 * 9 = 36, the bound.
  EXPECT_EQ(largest, SensitivitySquared(caps));
}

}  // namespace
}  // namespace pplda::privacy

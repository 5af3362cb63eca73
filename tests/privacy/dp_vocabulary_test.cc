// DP vocabulary selection: the contribution policy, the threshold against
// hand computation, selection at a vanishing noise level (exactly the terms
// contributed by at least two documents), the restriction of a corpus, and
// bad options. The privacy of a unique term is checked statistically.
#include "privacy/dp_vocabulary.h"

#include <cmath>

#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;

lda::Corpus SmallCorpus() {
  lda::Corpus c;
  for (const char* t : {"apple", "bread", "cheese", "dates", "eggs", "figs"}) c.vocabulary.Add(t);
  // apple in 3 documents, bread in 2, cheese in 1, dates in 2 (but in doc2
  // only as its 3rd most frequent term), eggs 1, figs 0.
  c.documents.push_back({"doc0", {0, 0, 1, 2}});
  c.documents.push_back({"doc1", {0, 1, 3}});
  c.documents.push_back({"doc2", {0, 0, 0, 4, 4, 3}});
  return c;
}

TEST(DpVocabulary, NearlyNoiselessSelectionKeepsTermsOfAtLeastTwoDocuments) {
  // epsilon = 1000: sigma^2 ~ 0.0012, threshold 2; P[|noise| >= 1] < 1e-150.
  DpVocabularyOptions o;
  o.epsilon = 1000;
  o.delta = 1e-5;
  o.max_terms_per_document = 3;
  crypto::SeededRng rng(1);
  auto s = SelectDpVocabulary(SmallCorpus(), o, rng);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->threshold, 2);
  EXPECT_EQ(s->candidate_terms, 5);
  EXPECT_EQ(s->selected, (std::vector<lda::TermId>{0, 1, 3}));  // apple, bread, dates
}

TEST(DpVocabulary, EachDocumentContributesItsMostFrequentTerms) {
  // With max 2 terms, doc2 contributes apple and eggs (not dates): dates has
  // one contributing document and is dropped.
  DpVocabularyOptions o;
  o.epsilon = 1000;
  o.max_terms_per_document = 2;
  crypto::SeededRng rng(2);
  auto s = SelectDpVocabulary(SmallCorpus(), o, rng);
  ASSERT_TRUE(s.ok()) << s.status();
  // doc0: apple(2), bread(1 first) ; doc1: apple, bread ; doc2: apple(3), eggs(2).
  EXPECT_EQ(s->selected, (std::vector<lda::TermId>{0, 1}));
}

TEST(DpVocabulary, ThresholdMatchesHandComputation) {
  // epsilon 1, delta 1e-5, Delta0 = 20: rho = 0.0196833 (from delta (1 -
  // delta) / 2, the same to 7 digits as from delta / 2), sigma =
  // sqrt(20 / (2 rho)) = 22.5399, T = 1 + ceil(sigma sqrt(2 ln(2*20/1e-5))) = 126.
  DpVocabularyOptions o;
  crypto::SeededRng rng(3);
  auto s = SelectDpVocabulary(SmallCorpus(), o, rng);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->threshold, 126);
  EXPECT_NEAR(std::sqrt(s->sigma_squared.get_d()), 22.5399, 1e-3);
  EXPECT_TRUE(s->selected.empty());  // three documents are far below 126
  const DpRelease r = s->Release();
  EXPECT_EQ(r.what, "vocabulary");
  EXPECT_EQ(r.epsilon, 1);
  EXPECT_EQ(r.delta, 1e-5);
  EXPECT_EQ(r.parameters["threshold"], 126);
  // The number of candidate terms is an exact statistic of the corpus: kept
  // for the operator, never in the release.
  EXPECT_EQ(s->candidate_terms, 5);
  EXPECT_FALSE(r.parameters.contains("candidate_terms"));
  EXPECT_EQ(r.parameters["selected_terms"], 0);
}

// A term used by one document only must be released with probability at
// most delta / (2 Delta0) (here 2.5e-7 per run): in 20,000 runs with
// epsilon = 1 it is never selected (false alarm below 0.5%), while a term of
// 400 documents always is.
TEST(DpVocabulary, UniqueTermIsAlmostNeverReleased) {
  lda::Corpus c;
  c.vocabulary.Add("common");
  c.vocabulary.Add("unique");
  for (int d = 0; d < 400; ++d) c.documents.push_back({"d" + std::to_string(d), {0}});
  c.documents[0].tokens.push_back(1);
  DpVocabularyOptions o;
  crypto::SeededRng rng(4);
  int unique = 0, common = 0;
  for (int run = 0; run < 20000; ++run) {
    auto s = SelectDpVocabulary(c, o, rng);
    ASSERT_TRUE(s.ok());
    for (lda::TermId t : s->selected) (t == 1 ? unique : common)++;
  }
  EXPECT_EQ(unique, 0);
  EXPECT_EQ(common, 20000);
}

TEST(DpVocabulary, RestrictToTermsRemapsAndDropsEmptyDocuments) {
  lda::Corpus c = SmallCorpus();
  c.documents.push_back({"doc3", {5}});
  int64_t dropped = -1;
  const lda::Corpus r = RestrictToTerms(c, std::vector<lda::TermId>{1, 3}, &dropped);
  ASSERT_EQ(r.vocabulary.size(), 2);
  EXPECT_EQ(r.vocabulary.term(0), "bread");
  EXPECT_EQ(r.vocabulary.term(1), "dates");
  ASSERT_EQ(r.num_documents(), 3);
  EXPECT_EQ(dropped, 1);
  EXPECT_EQ(r.documents[0].tokens, (std::vector<lda::TermId>{0}));
  EXPECT_EQ(r.documents[1].tokens, (std::vector<lda::TermId>{0, 1}));
  EXPECT_EQ(r.documents[2].name, "doc2");
  EXPECT_EQ(r.documents[2].tokens, (std::vector<lda::TermId>{1}));
  EXPECT_TRUE(r.Validate().ok());
}

TEST(DpVocabulary, RejectsBadOptions) {
  crypto::SeededRng rng(5);
  DpVocabularyOptions o;
  o.max_terms_per_document = 0;
  ExpectError(SelectDpVocabulary(SmallCorpus(), o, rng).status(),
              absl::StatusCode::kInvalidArgument, "max terms per document must be in [1, 1000000], got 0");
  o = DpVocabularyOptions();
  o.epsilon = 0;
  ExpectError(SelectDpVocabulary(SmallCorpus(), o, rng).status(),
              absl::StatusCode::kInvalidArgument, "DP vocabulary epsilon");
  o = DpVocabularyOptions();
  o.delta = 1;
  ExpectError(SelectDpVocabulary(SmallCorpus(), o, rng).status(),
              absl::StatusCode::kInvalidArgument, "DP vocabulary delta");
  lda::Corpus bad = SmallCorpus();
  bad.documents[1].tokens.push_back(99);
  EXPECT_EQ(SelectDpVocabulary(bad, DpVocabularyOptions(), rng).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pplda::privacy

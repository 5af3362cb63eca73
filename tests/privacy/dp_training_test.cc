// The DP training pipeline and its accountant: composition sums, the
// corpus preparation (vocabulary restriction, cap check, empty-vocabulary
// refusal), the privacy statement, and the DP shadow trainer (determinism
// under a seed, the same pipeline as training, its description).
#include "privacy/dp_training.h"

#include <memory>

#include "crypto/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "privacy/dp_shadow_trainer.h"
#include "privacy/gibbs_shadow_trainer.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;

TEST(PrivacyAccountant, BasicCompositionAdds) {
  PrivacyAccountant a;
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.epsilon(), 0);
  a.Record({"vocabulary", "m1", 1.0, 1e-6, {}});
  a.Record({"topic_term_counts", "m2", 4.0, 1e-5, {{"sigma", 3}}});
  EXPECT_FALSE(a.empty());
  EXPECT_DOUBLE_EQ(a.epsilon(), 5.0);
  EXPECT_DOUBLE_EQ(a.delta(), 1.1e-5);
  const nlohmann::json j = a.ToJson();
  EXPECT_DOUBLE_EQ(j["epsilon"].get<double>(), 5.0);
  ASSERT_EQ(j["releases"].size(), 2u);
  EXPECT_EQ(j["releases"][1]["release"], "topic_term_counts");
  EXPECT_EQ(j["releases"][1]["parameters"]["sigma"], 3);
}

DpTrainingOptions BothOptions(double vocab_epsilon, int cap) {
  DpTrainingOptions o;
  o.vocabulary = DpVocabularyOptions{vocab_epsilon, 1e-5, 20};
  o.model = DpModelOptions{4.0, 1e-5, cap};
  return o;
}

TEST(DpTraining, PrepareRestrictsToTheDpVocabularyAndRecordsIt) {
  // 400 documents of 34 tokens: each topic word is in about 78 documents,
  // each rare word in 2. At epsilon 50 the threshold is 5 (sigma 0.72), so
  // the topic words stay and the rare words go.
  const lda::Corpus corpus = testing::MakeAuditCorpus(400, 4, 1);
  crypto::SeededRng rng(1);
  PrivacyAccountant accountant;
  auto prepared = PrepareDpTrainingCorpus(corpus, BothOptions(50, 34), rng, &accountant);
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  EXPECT_EQ(prepared->corpus.vocabulary.size(), 80);  // 4 topics x 20 words, no "r<j>"
  for (lda::TermId t = 0; t < prepared->corpus.vocabulary.size(); ++t) {
    EXPECT_EQ(prepared->corpus.vocabulary.term(t)[0], 't');
  }
  EXPECT_EQ(prepared->corpus.num_documents(), 400);
  EXPECT_EQ(prepared->corpus.num_tokens(), 400 * 30);
  ASSERT_EQ(accountant.releases().size(), 1u);
  EXPECT_EQ(accountant.releases()[0].what, "vocabulary");
}

TEST(DpTraining, PrepareChecksTheCapAndRefusesAnEmptyVocabulary) {
  const lda::Corpus corpus = testing::MakeAuditCorpus(100, 2, 2);
  crypto::SeededRng rng(2);
  PrivacyAccountant accountant;
  ExpectError(PrepareDpTrainingCorpus(corpus, BothOptions(50, 33), rng, &accountant).status(),
              absl::StatusCode::kFailedPrecondition, "more than the DP cap L = 33");
  ExpectError(PrepareDpTrainingCorpus(corpus, BothOptions(0.01, 34), rng, &accountant).status(),
              absl::StatusCode::kFailedPrecondition, "kept none of the");
  EXPECT_TRUE(accountant.empty());
}

TEST(DpTraining, ReleaseAndStatementComposeBothSteps) {
  const lda::Corpus corpus = testing::MakeAuditCorpus(400, 4, 3);
  crypto::SeededRng rng(3);
  PrivacyAccountant accountant;
  const DpTrainingOptions options = BothOptions(50, 34);
  auto prepared = PrepareDpTrainingCorpus(corpus, options, rng, &accountant);
  ASSERT_TRUE(prepared.ok());
  testing::UnigramTrainer trainer;
  auto model = trainer.Train(prepared->corpus, 1);
  ASSERT_TRUE(model.ok());
  const std::vector<int64_t> before = model->topic_term_counts;
  ASSERT_TRUE(ReleaseDpModel(options, rng, &*model, &accountant).ok());
  EXPECT_NE(model->topic_term_counts, before);
  const nlohmann::json s = DpPrivacyStatement(options, accountant);
  EXPECT_DOUBLE_EQ(s["epsilon"].get<double>(), 54.0);
  EXPECT_DOUBLE_EQ(s["delta"].get<double>(), 2e-5);
  EXPECT_EQ(s["vocabulary_private"], true);
  EXPECT_EQ(s["differential_privacy"]["releases"].size(), 2u);
  EXPECT_NE(s["leakage"].get<std::string>().find("DP set union"), std::string::npos);

  DpTrainingOptions model_only;
  model_only.model = options.model;
  const nlohmann::json t = DpPrivacyStatement(model_only, PrivacyAccountant());
  EXPECT_EQ(t["vocabulary_private"], false);
  EXPECT_NE(t["leakage"].get<std::string>().find("vocabulary is NOT private"), std::string::npos);
}

TEST(DpShadowTrainer, IsDeterministicUnderTheSeedAndNoisesTheModel) {
  GibbsTrainingOptions g;
  g.sampler_options.num_topics = 4;
  g.iterations = 20;
  auto inner = GibbsShadowTrainer::Create(g);
  ASSERT_TRUE(inner.ok());
  auto plain = GibbsShadowTrainer::Create(g);
  ASSERT_TRUE(plain.ok());
  auto dp = DpShadowTrainer::Create(std::move(*inner), BothOptions(50, 34));
  ASSERT_TRUE(dp.ok()) << dp.status();
  const lda::Corpus corpus = testing::MakeAuditCorpus(400, 4, 4);
  auto a = (*dp)->Train(corpus, 17);
  auto b = (*dp)->Train(corpus, 17);
  auto c = (*dp)->Train(corpus, 18);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok()) << a.status();
  EXPECT_EQ(a->topic_term_counts, b->topic_term_counts);
  EXPECT_NE(a->topic_term_counts, c->topic_term_counts);
  EXPECT_EQ(a->vocabulary.size(), 80);
  auto reference = (*plain)->Train(corpus, 17);
  ASSERT_TRUE(reference.ok());
  EXPECT_NE(a->vocabulary.size(), reference->vocabulary.size());
  const nlohmann::json d = (*dp)->Describe();
  EXPECT_EQ(d["differential_privacy"]["model"]["epsilon"], 4.0);
  EXPECT_EQ(d["differential_privacy"]["vocabulary"]["max_terms_per_document"], 20);
  EXPECT_EQ(d["topics"], 4);
}

TEST(DpShadowTrainer, RejectsNoDpAndBadOptions) {
  GibbsTrainingOptions g;
  auto inner = GibbsShadowTrainer::Create(g);
  ASSERT_TRUE(inner.ok());
  ExpectError(DpShadowTrainer::Create(std::move(*inner), DpTrainingOptions()).status(),
              absl::StatusCode::kInvalidArgument, "needs DP vocabulary or DP model options");
  auto inner2 = GibbsShadowTrainer::Create(g);
  ASSERT_TRUE(inner2.ok());
  ExpectError(DpShadowTrainer::Create(std::move(*inner2), BothOptions(1, 0)).status(),
              absl::StatusCode::kInvalidArgument, "--max-tokens");
}

}  // namespace
}  // namespace pplda::privacy

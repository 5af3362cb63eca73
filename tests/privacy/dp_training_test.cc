// The training pipeline with privacy options and its accountant:
// composition sums, the corpus preparation (vocabulary restriction in string
// order, empty-vocabulary refusal), the privacy statement (the budget covers
// the vocabulary only, the final-count noise gets none, the unit is stated),
// and the DP shadow trainer (determinism under a seed, the same pipeline as
// training, an honest description).
#include "privacy/dp_training.h"

#include <memory>

#include "crypto/random/secure_rng_testing.h"
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
  ASSERT_TRUE(a.Record({"vocabulary", "m1", 1.0, 1e-6, {}, std::nullopt, std::nullopt}).ok());
  ASSERT_TRUE(
      a.Record({"topic_term_counts", "m2", 4.0, 1e-5, {{"sigma", 3}}, std::nullopt, std::nullopt})
          .ok());
  EXPECT_FALSE(a.empty());
  EXPECT_DOUBLE_EQ(a.epsilon(), 5.0);
  EXPECT_DOUBLE_EQ(a.delta(), 1.1e-5);
  const nlohmann::json j = a.ToJson();
  EXPECT_DOUBLE_EQ(j["epsilon"].get<double>(), 5.0);
  ASSERT_EQ(j["releases"].size(), 2u);
  EXPECT_EQ(j["releases"][1]["release"], "topic_term_counts");
  EXPECT_EQ(j["releases"][1]["parameters"]["sigma"], 3);
}

DpTrainingOptions BothOptions(double vocab_epsilon, double sigma = 26) {
  DpTrainingOptions o;
  o.vocabulary = DpVocabularyOptions{vocab_epsilon, 1e-5, 20};
  o.final_noise = FinalCountNoiseOptions{sigma};
  return o;
}

PrivacyUnit Windows() {
  return DescribePrivacyUnit(lda::InputFormat::kFolder, lda::SplitMode::kSentences, 100, false);
}

TEST(DpTraining, PrepareRestrictsToTheDpVocabularyAndRecordsIt) {
  // 400 documents of 34 tokens: each topic word is in about 78 documents,
  // each rare word in 2. At epsilon 50 the threshold is 5 (sigma 0.72), so
  // the topic words stay and the rare words go.
  const lda::Corpus corpus = testing::MakeAuditCorpus(400, 4, 1);
  crypto::SeededRng rng(1);
  PrivacyAccountant accountant;
  auto prepared = PrepareDpTrainingCorpus(corpus, BothOptions(50), rng, &accountant);
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  EXPECT_EQ(prepared->corpus.vocabulary.size(), 80);  // 4 topics x 20 words, no "r<j>"
  for (lda::TermId t = 0; t < prepared->corpus.vocabulary.size(); ++t) {
    EXPECT_EQ(prepared->corpus.vocabulary.term(t)[0], 't');
    if (t > 0) {  // in string order, whatever the input vocabulary's order
      EXPECT_LT(prepared->corpus.vocabulary.term(t - 1), prepared->corpus.vocabulary.term(t));
    }
  }
  EXPECT_EQ(prepared->corpus.num_documents(), 400);
  EXPECT_EQ(prepared->corpus.num_tokens(), 400 * 30);
  EXPECT_EQ(prepared->candidate_terms, 280);  // 80 topic words + 200 rare words
  ASSERT_EQ(accountant.releases().size(), 1u);
  EXPECT_EQ(accountant.releases()[0].what, "vocabulary");
  EXPECT_FALSE(accountant.releases()[0].parameters.contains("candidate_terms"));
}

TEST(DpTraining, WithoutDpVocabularyNothingIsRecorded) {
  const lda::Corpus corpus = testing::MakeAuditCorpus(100, 2, 2);
  crypto::SeededRng rng(2);
  PrivacyAccountant accountant;
  DpTrainingOptions noise_only;
  noise_only.final_noise = FinalCountNoiseOptions{10};
  auto prepared = PrepareDpTrainingCorpus(corpus, noise_only, rng, &accountant);
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  EXPECT_EQ(prepared->corpus.vocabulary.size(), corpus.vocabulary.size());
  EXPECT_TRUE(accountant.empty());
}

TEST(DpTraining, PrepareRefusesAnEmptyVocabulary) {
  const lda::Corpus corpus = testing::MakeAuditCorpus(100, 2, 2);
  crypto::SeededRng rng(2);
  PrivacyAccountant accountant;
  ExpectError(PrepareDpTrainingCorpus(corpus, BothOptions(0.01), rng, &accountant).status(),
              absl::StatusCode::kFailedPrecondition, "kept none of the");
  EXPECT_TRUE(accountant.empty());
}

// The final-count noise is applied but never enters the accountant, and the
// statement gives the model no epsilon: only the vocabulary's budget, which
// says what it covers and in which unit.
TEST(DpTraining, TheBudgetCoversTheVocabularyOnly) {
  const lda::Corpus corpus = testing::MakeAuditCorpus(400, 4, 3);
  crypto::SeededRng rng(3);
  PrivacyAccountant accountant;
  const DpTrainingOptions options = BothOptions(50);
  auto prepared = PrepareDpTrainingCorpus(corpus, options, rng, &accountant);
  ASSERT_TRUE(prepared.ok());
  testing::UnigramTrainer trainer;
  auto model = trainer.Train(prepared->corpus, 1);
  ASSERT_TRUE(model.ok());
  const std::vector<int64_t> before = model->topic_term_counts;
  auto noise = ApplyFinalCountNoise(options, rng, &*model);
  ASSERT_TRUE(noise.ok()) << noise.status();
  ASSERT_TRUE(noise->has_value());
  EXPECT_NE(model->topic_term_counts, before);
  ASSERT_EQ(accountant.releases().size(), 1u);  // the noise is not a release
  EXPECT_DOUBLE_EQ(accountant.epsilon(), 50.0);

  const nlohmann::json s = DpPrivacyStatement(options, accountant, Windows(), *noise);
  EXPECT_TRUE(s["epsilon"].is_null());
  EXPECT_TRUE(s["delta"].is_null());
  EXPECT_EQ(s["model_differentially_private"], false);
  EXPECT_EQ(s["vocabulary_private"], true);
  const nlohmann::json& dp = s["differential_privacy"];
  EXPECT_DOUBLE_EQ(dp["epsilon"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(dp["delta"].get<double>(), 1e-5);
  ASSERT_EQ(dp["releases"].size(), 1u);
  EXPECT_EQ(dp["releases"][0]["release"], "vocabulary");
  EXPECT_NE(dp["covers"].get<std::string>().find("vocabulary"), std::string::npos);
  EXPECT_NE(dp["covers"].get<std::string>().find("NOT the topic-term counts"), std::string::npos);
  EXPECT_EQ(dp["privacy_unit"]["unit"], "sentence window");
  EXPECT_FALSE(s["final_count_noise"].contains("epsilon"));
  EXPECT_NE(s["final_count_noise"]["guarantee"].get<std::string>().find("NO differential"),
            std::string::npos);
  const std::string leakage = s["leakage"];
  EXPECT_NE(leakage.find("NO differential-privacy guarantee"), std::string::npos) << leakage;
  EXPECT_NE(leakage.find("DP set union"), std::string::npos) << leakage;
  EXPECT_NE(leakage.find("sentence window"), std::string::npos) << leakage;
}

TEST(DpTraining, NoiseOnlyStatementHasNoBudgetAndAPublicVocabulary) {
  DpTrainingOptions noise_only;
  noise_only.final_noise = FinalCountNoiseOptions{34.5};
  const nlohmann::json t =
      DpPrivacyStatement(noise_only, PrivacyAccountant(), Windows(), std::nullopt);
  EXPECT_TRUE(t["epsilon"].is_null());
  EXPECT_TRUE(t["delta"].is_null());
  EXPECT_TRUE(t["differential_privacy"].is_null());
  EXPECT_EQ(t["vocabulary_private"], false);
  EXPECT_NE(t["leakage"].get<std::string>().find("vocabulary is NOT private"), std::string::npos);
  EXPECT_EQ(t["leakage"].get<std::string>().find("-DP"), std::string::npos);
}

TEST(DpShadowTrainer, IsDeterministicUnderTheSeedAndNoisesTheModel) {
  GibbsTrainingOptions g;
  g.sampler_options.num_topics = 4;
  g.iterations = 20;
  auto inner = GibbsShadowTrainer::Create(g);
  ASSERT_TRUE(inner.ok());
  auto plain = GibbsShadowTrainer::Create(g);
  ASSERT_TRUE(plain.ok());
  auto dp = DpShadowTrainer::Create(std::move(*inner), BothOptions(50));
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
  const nlohmann::json& mechanisms = d["privacy_mechanisms"];
  EXPECT_EQ(mechanisms["final_count_noise"]["sigma"], 26.0);
  EXPECT_FALSE(mechanisms["final_count_noise"].contains("epsilon"));
  EXPECT_NE(mechanisms["final_count_noise"]["guarantee"].get<std::string>().find("NO "),
            std::string::npos);
  EXPECT_EQ(mechanisms["dp_vocabulary"]["max_terms_per_document"], 20);
  EXPECT_EQ(mechanisms["dp_vocabulary"]["epsilon"], 50.0);
  EXPECT_EQ(d["topics"], 4);
  EXPECT_TRUE((*plain)->Describe()["privacy_mechanisms"].is_null());
}

TEST(DpShadowTrainer, RejectsNoDpAndBadOptions) {
  GibbsTrainingOptions g;
  auto inner = GibbsShadowTrainer::Create(g);
  ASSERT_TRUE(inner.ok());
  ExpectError(DpShadowTrainer::Create(std::move(*inner), DpTrainingOptions()).status(),
              absl::StatusCode::kInvalidArgument,
              "needs DP vocabulary, DP training or final-count noise options");
  auto inner2 = GibbsShadowTrainer::Create(g);
  ASSERT_TRUE(inner2.ok());
  ExpectError(DpShadowTrainer::Create(std::move(*inner2), BothOptions(1, -1)).status(),
              absl::StatusCode::kInvalidArgument, "--final-noise-sigma");
}

}  // namespace
}  // namespace pplda::privacy

// The audit end to end on small synthetic corpora: every zeta entry equals
// an independent recomputation (plan, seed, trainer, scorer), determinism
// under a seed and across thread counts, progress callbacks, the limits
// (minimum corpus, shadow range, too small / too large for the shadows),
// trainer errors, and the plaintext Gibbs trainer.
#include "privacy/lira_audit.h"

#include <vector>

#include "gtest/gtest.h"
#include "lda/random.h"
#include "privacy/gibbs_shadow_trainer.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;
using testing::FailingTrainer;
using testing::MakeAuditCorpus;
using testing::UnigramTrainer;

AuditOptions Options(int shadows, uint64_t seed, int threads) {
  AuditOptions o;
  o.num_shadows = shadows;
  o.seed = seed;
  o.threads = threads;
  return o;
}

TEST(LiraAuditTest, EveryZetaIsTheScoreOfItsModel) {
  const lda::Corpus corpus = MakeAuditCorpus(120, 3, 1);
  const UnigramTrainer trainer;
  auto r = RunLiraAudit(corpus, trainer, Options(16, 5, 2));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->zeta.num_models, 17);
  ASSERT_EQ(r->zeta.num_documents, 120);
  auto plan = MembershipPlan::Create(17, 120, 5);
  ASSERT_TRUE(plan.ok());
  for (int j : {0, 9, 16}) {
    EXPECT_EQ(r->plan.Members(j), plan->Members(j));
    lda::Corpus members{corpus.vocabulary, {}};
    for (int32_t d : plan->Members(j)) members.documents.push_back(corpus.documents[d]);
    const uint64_t seed = lda::Rng::ForStream(5, kShadowSeedStreams | j).Next();
    auto model = trainer.Train(members, seed);
    ASSERT_TRUE(model.ok());
    auto scorer = ZetaScorer::Create(*model, corpus.vocabulary, ZetaOptions());
    ASSERT_TRUE(scorer.ok());
    for (int32_t d = 0; d < 120; d += 7) {
      EXPECT_EQ(r->zeta.at(j, d), scorer->Score(MakeBagOfWords(corpus.documents[d].tokens)).value)
          << "model " << j << " document " << d;
    }
  }
  EXPECT_EQ(r->num_documents, 120);
  EXPECT_EQ(r->num_tokens, 120 * 34);
  EXPECT_EQ(r->convergence.documents_scored, 17 * 120);
  EXPECT_EQ(r->convergence.not_converged, 0);
  EXPECT_EQ(r->exposures.size(), 120u);
  EXPECT_EQ(r->trainer["trainer"], "unigram (test)");
  EXPECT_EQ(r->timing.threads, 2);
  // The unigram model memorises each document's rare word: members stand out.
  EXPECT_GT(r->evaluation.online.auc, 0.75);
  EXPECT_GT(r->evaluation.offline.auc, 0.75);
}

TEST(LiraAuditTest, DeterministicUnderASeedAndAcrossThreadCounts) {
  const lda::Corpus corpus = MakeAuditCorpus(100, 2, 4);
  GibbsTrainingOptions g;
  g.sampler_options.num_topics = 2;
  g.iterations = 10;
  auto trainer = GibbsShadowTrainer::Create(g);
  ASSERT_TRUE(trainer.ok());
  auto a = RunLiraAudit(corpus, **trainer, Options(19, 7, 1));
  auto b = RunLiraAudit(corpus, **trainer, Options(19, 7, 2));
  auto c = RunLiraAudit(corpus, **trainer, Options(19, 8, 2));
  ASSERT_TRUE(a.ok() && b.ok() && c.ok()) << a.status() << b.status() << c.status();
  EXPECT_EQ(a->zeta.values, b->zeta.values);
  EXPECT_EQ(a->evaluation.online.scores, b->evaluation.online.scores);
  EXPECT_EQ(a->evaluation.offline.auc, b->evaluation.offline.auc);
  EXPECT_NE(a->zeta.values, c->zeta.values);
}

TEST(LiraAuditTest, ReportsProgressOncePerModel) {
  const lda::Corpus corpus = MakeAuditCorpus(100, 2, 4);
  const UnigramTrainer trainer;
  AuditOptions o = Options(19, 1, 2);
  std::vector<int> seen;
  o.on_model_done = [&seen](int done, int total) {
    EXPECT_EQ(total, 20);
    seen.push_back(done);
  };
  ASSERT_TRUE(RunLiraAudit(corpus, trainer, o).ok());
  ASSERT_EQ(seen.size(), 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(seen[i], i + 1);
}

TEST(LiraAuditTest, RefusesCorporaBelowTheMinimum) {
  const lda::Corpus corpus = MakeAuditCorpus(kMinAuditDocuments - 1, 2, 1);
  ExpectError(RunLiraAudit(corpus, UnigramTrainer(), Options(64, 1, 1)).status(),
              absl::StatusCode::kFailedPrecondition, "corpus of 99 documents");
  ExpectError(ValidateAuditRequest(99, Options(64, 1, 1)), absl::StatusCode::kFailedPrecondition,
              "at least 100");
  EXPECT_TRUE(ValidateAuditRequest(100, Options(64, 1, 1)).ok());
}

TEST(LiraAuditTest, RejectsShadowCountsOutOfRange) {
  ExpectError(ValidateAuditRequest(1000, Options(kMinShadows - 1, 1, 1)),
              absl::StatusCode::kInvalidArgument, "shadow models must be in [8, 1024], got 7");
  ExpectError(ValidateAuditRequest(1000, Options(kMaxShadows + 1, 1, 1)),
              absl::StatusCode::kInvalidArgument, "got 1025");
  ExpectError(ValidateAuditOptions(Options(kMaxShadows + 1, 1, 1)),
              absl::StatusCode::kInvalidArgument, "got 1025");
  EXPECT_TRUE(ValidateAuditOptions(Options(kMaxShadows, 1, 0)).ok());
  ExpectError(ValidateAuditRequest(1000, Options(64, 1, -1)), absl::StatusCode::kInvalidArgument,
              "threads");
  AuditOptions o = Options(64, 1, 1);
  o.zeta.tolerance = 0;
  ExpectError(ValidateAuditRequest(1000, o), absl::StatusCode::kInvalidArgument, "tolerance");
}

TEST(LiraAuditTest, CorpusTooSmallForTheShadows) {
  // 120 documents: 9 models x 60 non-members = 540 < 1000; 16 shadows give 1020.
  ExpectError(ValidateAuditRequest(120, Options(8, 1, 1)), absl::StatusCode::kFailedPrecondition,
              "corpus too small for 8 shadow models: 9 models x 60 non-members = 540");
  ExpectError(ValidateAuditRequest(120, Options(8, 1, 1)), absl::StatusCode::kFailedPrecondition,
              "use at least 16 shadows");
  EXPECT_TRUE(ValidateAuditRequest(120, Options(16, 1, 1)).ok());
}

TEST(LiraAuditTest, TooManyShadowsForTheCorpus) {
  // 10^7 documents x 65 models x 8 bytes = 4959 MiB > 4096 MiB.
  ExpectError(ValidateAuditRequest(10'000'000, Options(64, 1, 1)),
              absl::StatusCode::kResourceExhausted, "use at most 52 shadows");
  EXPECT_TRUE(ValidateAuditRequest(10'000'000, Options(52, 1, 1)).ok());
}

TEST(LiraAuditTest, TrainerErrorsNameTheModel) {
  const lda::Corpus corpus = MakeAuditCorpus(100, 2, 1);
  const FailingTrainer trainer(absl::InternalError("sampler exploded"));
  ExpectError(RunLiraAudit(corpus, trainer, Options(19, 1, 1)).status(),
              absl::StatusCode::kInternal, "audit model 0 of 20: sampler exploded");
}

TEST(LiraAuditTest, RejectsAnInvalidCorpus) {
  lda::Corpus corpus = MakeAuditCorpus(100, 2, 1);
  corpus.documents[3].tokens.push_back(100000);
  EXPECT_EQ(RunLiraAudit(corpus, UnigramTrainer(), Options(19, 1, 1)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(GibbsShadowTrainerTest, TrainsLikeTheSamplerWithOneThread) {
  const lda::Corpus corpus = MakeAuditCorpus(30, 2, 2);
  GibbsTrainingOptions g;
  g.sampler_options.num_topics = 2;
  g.sampler_options.threads = 4;  // ignored: one thread per model
  g.iterations = 5;
  auto trainer = GibbsShadowTrainer::Create(g);
  ASSERT_TRUE(trainer.ok());
  auto a = (*trainer)->Train(corpus, 99);
  auto b = (*trainer)->Train(corpus, 99);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->topic_term_counts, b->topic_term_counts);
  EXPECT_EQ(a->num_topics, 2);
  int64_t total = 0;
  for (int64_t c : a->topic_term_counts) total += c;
  EXPECT_EQ(total, corpus.num_tokens());
  EXPECT_EQ((*trainer)->Describe()["threads_per_model"], 1);
  EXPECT_EQ((*trainer)->Describe()["iterations"], 5);
}

TEST(GibbsShadowTrainerTest, RejectsBadOptions) {
  GibbsTrainingOptions g;
  g.sampler = "fast";
  ExpectError(GibbsShadowTrainer::Create(g).status(), absl::StatusCode::kInvalidArgument,
              "\"fast\"");
  g = GibbsTrainingOptions();
  g.iterations = 0;
  ExpectError(GibbsShadowTrainer::Create(g).status(), absl::StatusCode::kInvalidArgument,
              "iterations");
  g = GibbsTrainingOptions();
  g.sampler_options.alpha = -1;
  ExpectError(GibbsShadowTrainer::Create(g).status(), absl::StatusCode::kInvalidArgument, "alpha");
}

}  // namespace
}  // namespace pplda::privacy

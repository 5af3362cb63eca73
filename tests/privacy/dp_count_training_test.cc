// DP training for the whole run: option validation (every bad option named
// by its flag), the release schedule, the calibrator round trip (the sigma it
// picks spends at most the target epsilon and not wastefully less), and the
// trainer: every noisy iteration debits the accountant, the model holds the
// noisy counts only, it is reproducible under a seeded noise source, it
// refuses uncapped documents and a second training over a spent budget,
// and at a large epsilon it still finds the topics.
#include "privacy/dp_count_training.h"

#include <cmath>
#include <set>
#include <string>

#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "lda/metrics.h"
#include "privacy/dp_shadow_trainer.h"
#include "privacy/dp_training.h"
#include "privacy/gibbs_shadow_trainer.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;

DpCountOptions Options(double epsilon, int noisy = 0) {
  DpCountOptions o;
  o.epsilon = epsilon;
  o.delta = 1e-5;
  o.caps = DocumentCaps{50, 5};
  o.noisy_iterations = noisy;
  return o;
}

TEST(DpCountTraining, BadOptionsNameTheFlag) {
  const auto bad = [](DpCountOptions o, int iterations, const std::string& flag) {
    ExpectError(ValidateDpCountOptions(o, iterations), absl::StatusCode::kInvalidArgument, flag);
  };
  DpCountOptions o = Options(0);
  bad(o, 10, "--dp-epsilon");
  o.epsilon = -1;
  bad(o, 10, "--dp-epsilon");
  o.epsilon = 2000;
  bad(o, 10, "--dp-epsilon");
  o = Options(1);
  for (double delta : {0.0, -1e-5, 0.5, 1.0}) {
    o.delta = delta;
    bad(o, 10, "--dp-delta");
  }
  o = Options(1);
  o.caps.max_tokens = 0;
  bad(o, 10, "--dp-max-tokens");
  o = Options(1);
  o.caps.max_per_term = 0;
  bad(o, 10, "--dp-max-term-count");
  bad(Options(1, 11), 10, "--dp-noisy-iterations");
  bad(Options(1, -2), 10, "--dp-noisy-iterations");
  bad(Options(1, 1), 10, "--dp-noisy-iterations");
  bad(Options(1), 0, "--iterations");
  for (double rate : {0.0, -0.1, 1.01, 1e-5}) {
    o = Options(1);
    o.sample_rate = rate;
    bad(o, 10, "--dp-sample-rate");
  }
  EXPECT_TRUE(ValidateDpCountOptions(Options(1, 1), 1).ok());
  EXPECT_TRUE(ValidateDpCountOptions(Options(1, 2), 10).ok());
  EXPECT_TRUE(ValidateDpCountOptions(Options(1, 10), 10).ok());
}

TEST(DpCountTraining, ReleaseSchedule) {
  EXPECT_EQ(ReleaseSchedule(5, 5), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(ReleaseSchedule(10, 4), (std::vector<int>{0, 3, 6, 9}));
  EXPECT_EQ(ReleaseSchedule(100, 2), (std::vector<int>{0, 99}));
  EXPECT_EQ(ReleaseSchedule(1, 1), (std::vector<int>{0}));
  for (int t : {2, 7, 50, 101}) {
    for (int r = 2; r <= t; r += 3) {
      const std::vector<int> s = ReleaseSchedule(t, r);
      ASSERT_EQ(static_cast<int>(s.size()), r);
      EXPECT_EQ(s.front(), 0);
      EXPECT_EQ(s.back(), t - 1);
      for (int i = 1; i < r; ++i) EXPECT_LT(s[i - 1], s[i]);
    }
  }
  DpCountOptions o = Options(1, 0);
  EXPECT_EQ(NoisyReleases(o, 40), 40);
  o.noisy_iterations = 7;
  EXPECT_EQ(NoisyReleases(o, 40), 7);
}

// The calibrator's sigma spends at most the target and at least a
// (1 - 1e-5) share of it, over a grid of targets, T, L and c, with and
// without a vocabulary release taken first.
TEST(DpCountTraining, CalibratorRoundTrip) {
  for (double epsilon : {0.5, 1.0, 4.0, 8.0, 50.0}) {
    for (double delta : {1e-8, 1e-5}) {
      for (int releases : {1, 10, 100, 1000}) {
        for (const DocumentCaps& caps : {DocumentCaps{50, 5}, DocumentCaps{7, 3},
                                         DocumentCaps{100, 1}}) {
          for (bool vocabulary : {false, true}) {
            auto a = PrivacyAccountant::WithBudget(epsilon, delta);
            ASSERT_TRUE(a.ok());
            if (vocabulary) {
              ASSERT_TRUE(
                  a->Record(
                       {"vocabulary", "m", epsilon / 4, delta / 4, {}, std::nullopt, std::nullopt})
                      .ok());
            }
            DpCountOptions o{epsilon, delta, caps, releases};
            auto noise = CalibrateCountNoise(o, releases, *a);
            ASSERT_TRUE(noise.ok()) << noise.status();
            EXPECT_EQ(noise->releases, releases);
            EXPECT_EQ(noise->sensitivity_squared, SensitivitySquared(caps));
            // rho of one release against the closed form.
            EXPECT_NEAR(noise->rho_per_release,
                        SensitivitySquared(caps) / (2 * noise->sigma_squared.get_d()),
                        1e-12 * noise->rho_per_release);
            for (int r = 0; r < releases; ++r) {
              ASSERT_TRUE(a->Record(NoisyIterationRelease(o, *noise)).ok()) << r;
            }
            const std::string what = "eps " + std::to_string(epsilon) + " delta " +
                                     std::to_string(delta) + " R " + std::to_string(releases);
            EXPECT_LE(a->epsilon(), epsilon) << what;
            EXPECT_GE(a->epsilon(), epsilon * (1 - 1e-5)) << what;
            EXPECT_LE(a->delta(), delta) << what;
            // One more release of the same kind is refused.
            EXPECT_EQ(a->Record(NoisyIterationRelease(o, *noise)).code(),
                      absl::StatusCode::kFailedPrecondition);
          }
        }
      }
    }
  }
}

TEST(DpCountTraining, CalibratorClosedForm) {
  // L = 50, c = 5 (Delta^2 = 250), (8, 1e-5), 100 releases:
  // rho = 1.0491362012 (1 - 1e-9), sigma^2 = 100 * 250 / (2 rho) = 11914.68...
  auto a = PrivacyAccountant::WithBudget(8, 1e-5);
  ASSERT_TRUE(a.ok());
  auto noise = CalibrateCountNoise(Options(8), 100, *a);
  ASSERT_TRUE(noise.ok());
  EXPECT_NEAR(noise->sigma_squared.get_d(), 25000 / (2 * 1.0491362012), 1e-3);
  EXPECT_GE(noise->sigma_squared.get_d(), 25000 / (2 * 1.0491362012));
}

TEST(DpCountTraining, VocabularyOverTheRunBudgetIsAnError) {
  DpTrainingOptions o;
  o.counts = Options(1);
  o.vocabulary = DpVocabularyOptions{1.0, 1e-6, 20};
  ExpectError(ValidateDpTrainingOptions(o), absl::StatusCode::kInvalidArgument,
              "--dp-vocab-epsilon");
  o.vocabulary = DpVocabularyOptions{0.5, 1e-5, 20};
  ExpectError(ValidateDpTrainingOptions(o), absl::StatusCode::kInvalidArgument,
              "--dp-vocab-delta");
  o.vocabulary.reset();
  o.final_noise = FinalCountNoiseOptions{3};
  ExpectError(ValidateDpTrainingOptions(o), absl::StatusCode::kInvalidArgument,
              "--final-noise-sigma cannot be combined with --dp-epsilon");
}

lda::SamplerOptions Sampler(int k) {
  lda::SamplerOptions s;
  s.num_topics = k;
  s.threads = 1;
  return s;
}

TEST(DpCountTraining, EveryNoisyIterationDebitsTheAccountantAndTheModelIsNoisy) {
  const lda::Corpus corpus =
      CapDocuments(testing::MakeAuditCorpus(200, 4, 1), DocumentCaps{50, 5}, nullptr);
  auto accountant = PrivacyAccountant::WithBudget(4, 1e-5);
  ASSERT_TRUE(accountant.ok());
  crypto::SeededRng rng(7);
  auto trained = TrainWithNoisyCounts(corpus, Sampler(4), 12, Options(4, 5), rng, &*accountant);
  ASSERT_TRUE(trained.ok()) << trained.status();
  EXPECT_EQ(accountant->zcdp_releases(), 5);
  EXPECT_EQ(trained->schedule, (std::vector<int>{0, 2, 5, 8, 11}));
  EXPECT_LE(accountant->epsilon(), 4.0);
  EXPECT_GE(accountant->epsilon(), 4.0 * (1 - 1e-6));
  const lda::LdaModel& m = trained->model;
  EXPECT_TRUE(m.Validate().ok());
  EXPECT_TRUE(m.metadata.empty());  // no seed, no document or token count
  int64_t total = 0;
  for (int64_t c : m.topic_term_counts) {
    EXPECT_GE(c, 0);
    total += c;
  }
  EXPECT_NE(total, corpus.num_tokens());  // noise (and clamping) changed the counts
  // The same seeded noise source gives the same model; another, another.
  auto again_accountant = PrivacyAccountant::WithBudget(4, 1e-5);
  crypto::SeededRng same(7), other(8);
  auto again = TrainWithNoisyCounts(corpus, Sampler(4), 12, Options(4, 5), same,
                                    &*again_accountant);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->model.topic_term_counts, m.topic_term_counts);
  auto third_accountant = PrivacyAccountant::WithBudget(4, 1e-5);
  auto third = TrainWithNoisyCounts(corpus, Sampler(4), 12, Options(4, 5), other,
                                    &*third_accountant);
  ASSERT_TRUE(third.ok());
  EXPECT_NE(third->model.topic_term_counts, m.topic_term_counts);

  // The budget is spent: a second training on the same accountant is refused.
  ExpectError(TrainWithNoisyCounts(corpus, Sampler(4), 12, Options(4, 5), rng, &*accountant)
                  .status(),
              absl::StatusCode::kFailedPrecondition, "already holds zCDP releases");
  EXPECT_EQ(accountant->zcdp_releases(), 5);
}

// The post-processing the twin shares with the secure run: cells clamped at
// 0, totals summed from the UNCLAMPED cells and then clamped.
TEST(DpCountTraining, ClampingDerivesTotalsFromTheUnclampedCells) {
  const NoisyCounts c = ClampNoisyCounts({-3, 5, 2, -1, 4, 7}, 2);
  EXPECT_EQ(c.term_major, (std::vector<int32_t>{0, 5, 2, 0, 4, 7}));
  EXPECT_EQ(c.totals, (std::vector<int64_t>{3, 11}));
  EXPECT_EQ(c.clamped_cells, 2);
  const NoisyCounts negative = ClampNoisyCounts({-3, 1, 2, -2}, 2);
  EXPECT_EQ(negative.totals, (std::vector<int64_t>{0, 0}));  // -1 and -1, clamped
}

// The plaintext twin of a secure run: distributed noise debits the
// truncation once and every noisy iteration, within the budget.
TEST(DpCountTraining, DistributedNoiseDebitsTruncationAndEveryIteration) {
  const lda::Corpus corpus =
      CapDocuments(testing::MakeAuditCorpus(200, 4, 1), DocumentCaps{50, 5}, nullptr);
  auto accountant = PrivacyAccountant::WithBudget(4, 1e-5);
  ASSERT_TRUE(accountant.ok());
  DpCountOptions o = Options(4, 5);
  o.noise_parties = 3;
  o.noise_coalition = 1;
  crypto::SeededRng rng(9);
  auto trained = TrainWithNoisyCounts(corpus, Sampler(4), 12, o, rng, &*accountant);
  ASSERT_TRUE(trained.ok()) << trained.status();
  ASSERT_TRUE(trained->distributed.has_value());
  EXPECT_EQ(trained->distributed->parties, 3);
  EXPECT_EQ(trained->distributed->honest(), 2);
  EXPECT_EQ(accountant->zcdp_releases(), 5);
  EXPECT_EQ(accountant->releases().size(), 6u);  // truncation + 5 iterations
  EXPECT_LE(accountant->epsilon(), 4.0);
  EXPECT_LE(accountant->delta(), 1e-5);
  const nlohmann::json d =
      DescribeDpCountTraining(o, 12, trained->noise, &*trained->distributed);
  EXPECT_EQ(d["distributed_noise"]["noise_parties"], 3);
  for (int64_t c : trained->model.topic_term_counts) EXPECT_GE(c, 0);
}

TEST(DpCountTraining, RefusesUncappedDocumentsAndAnAccountantWithoutBudget) {
  const lda::Corpus corpus = testing::MakeAuditCorpus(20, 2, 1);  // 34 tokens, 4 of one rare
  auto accountant = PrivacyAccountant::WithBudget(4, 1e-5);
  crypto::SeededRng rng(1);
  DpCountOptions o = Options(4);
  o.caps = DocumentCaps{20, 5};
  ExpectError(TrainWithNoisyCounts(corpus, Sampler(2), 3, o, rng, &*accountant).status(),
              absl::StatusCode::kInvalidArgument, "exceeds the DP caps");
  EXPECT_TRUE(accountant->empty());
  PrivacyAccountant none;
  ExpectError(TrainWithNoisyCounts(CapDocuments(corpus, o.caps, nullptr), Sampler(2), 3, o, rng,
                                   &none)
                  .status(),
              absl::StatusCode::kFailedPrecondition, "budget");
}

// At epsilon 1000 (sigma about 2.8 for 50 releases) the noisy sampler still
// separates the four synthetic topics: each topic's top five words come
// from one group "t<k>_" and the four topics cover the four groups.
TEST(DpCountTraining, LargeEpsilonFindsTheTopics) {
  const lda::Corpus corpus =
      CapDocuments(testing::MakeAuditCorpus(400, 4, 3), DocumentCaps{50, 5}, nullptr);
  auto accountant = PrivacyAccountant::WithBudget(1000, 1e-5);
  crypto::SeededRng rng(3);
  auto trained = TrainWithNoisyCounts(corpus, Sampler(4), 50, Options(1000), rng, &*accountant);
  ASSERT_TRUE(trained.ok()) << trained.status();
  const auto top = lda::TopWords(trained->model, 5);
  std::set<char> groups;
  for (int k = 0; k < 4; ++k) {
    const std::string first = trained->model.vocabulary.term(top[k][0].first);
    ASSERT_EQ(first[0], 't') << first;
    for (const auto& [t, p] : top[k]) {
      const std::string term = trained->model.vocabulary.term(t);
      EXPECT_EQ(term.substr(0, 3), first.substr(0, 3)) << "topic " << k;
    }
    groups.insert(first[1]);
  }
  EXPECT_EQ(groups.size(), 4u);
}

// The audit's shadow trainer runs the same DP training (deterministically
// under the model's seed) and says so.
TEST(DpCountTraining, ShadowTrainerUsesDpTraining) {
  GibbsTrainingOptions g;
  g.sampler_options.num_topics = 4;
  g.iterations = 10;
  DpTrainingOptions o;
  o.counts = Options(8, 4);
  auto inner = GibbsShadowTrainer::Create(g);
  ASSERT_TRUE(inner.ok());
  ExpectError(DpShadowTrainer::Create(std::move(*inner), o).status(),
              absl::StatusCode::kInvalidArgument, "needs its options");
  auto inner2 = GibbsShadowTrainer::Create(g);
  auto dp = DpShadowTrainer::Create(std::move(*inner2), o, g);
  ASSERT_TRUE(dp.ok()) << dp.status();
  const lda::Corpus corpus = testing::MakeAuditCorpus(100, 4, 4);
  auto a = (*dp)->Train(corpus, 17);
  auto b = (*dp)->Train(corpus, 17);
  auto c = (*dp)->Train(corpus, 18);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok()) << a.status();
  EXPECT_EQ(a->topic_term_counts, b->topic_term_counts);
  EXPECT_NE(a->topic_term_counts, c->topic_term_counts);
  const nlohmann::json d = (*dp)->Describe();
  EXPECT_EQ(d["sampler"], "batched (DP training)");
  EXPECT_EQ(d["privacy_mechanisms"]["dp_training"]["epsilon"], 8.0);
  EXPECT_EQ(d["privacy_mechanisms"]["dp_training"]["max_tokens_per_term"], 5);
  // Bad iterations for the options are caught at creation.
  GibbsTrainingOptions few = g;
  few.iterations = 3;
  auto inner3 = GibbsShadowTrainer::Create(few);
  ExpectError(DpShadowTrainer::Create(std::move(*inner3), o, few).status(),
              absl::StatusCode::kInvalidArgument, "--dp-noisy-iterations");
}

// --dp-sample-rate q < 1: every noisy iteration debits one Renyi-DP release
// (none zCDP), the spent epsilon is at most the budget and not wastefully
// less, sigma is below the full release's at the same budget, the model is
// reproducible under a seeded noise source and differs from q = 1's, and
// the records state the rate and the accounting.
TEST(DpCountTraining, SampledReleasesDebitRenyiDpAndRecordTheRate) {
  const lda::Corpus corpus =
      CapDocuments(testing::MakeAuditCorpus(200, 4, 1), DocumentCaps{50, 5}, nullptr);
  DpCountOptions o = Options(4, 5);
  o.sample_rate = 0.25;
  auto accountant = PrivacyAccountant::WithBudget(4, 1e-5);
  ASSERT_TRUE(accountant.ok());
  crypto::SeededRng rng(7);
  auto trained = TrainWithNoisyCounts(corpus, Sampler(4), 12, o, rng, &*accountant);
  ASSERT_TRUE(trained.ok()) << trained.status();
  ASSERT_TRUE(trained->sampled.has_value());
  EXPECT_EQ(trained->sampled->sample_rate, 0.25);
  EXPECT_EQ(accountant->rdp_releases(), 5);
  EXPECT_EQ(accountant->zcdp_releases(), 0);
  EXPECT_LE(accountant->epsilon(), 4.0);
  EXPECT_GE(accountant->epsilon(), 4.0 * (1 - 1e-6));
  auto full = CalibrateCountNoise(Options(4, 5), 12, *PrivacyAccountant::WithBudget(4, 1e-5));
  ASSERT_TRUE(full.ok());
  EXPECT_LT(trained->noise.sigma_squared, full->sigma_squared);
  for (int64_t c : trained->model.topic_term_counts) EXPECT_GE(c, 0);
  EXPECT_TRUE(trained->model.metadata.empty());

  auto again_accountant = PrivacyAccountant::WithBudget(4, 1e-5);
  crypto::SeededRng same(7);
  auto again = TrainWithNoisyCounts(corpus, Sampler(4), 12, o, same, &*again_accountant);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->model.topic_term_counts, trained->model.topic_term_counts);
  auto q1_accountant = PrivacyAccountant::WithBudget(4, 1e-5);
  crypto::SeededRng q1_rng(7);
  auto q1 = TrainWithNoisyCounts(corpus, Sampler(4), 12, Options(4, 5), q1_rng, &*q1_accountant);
  ASSERT_TRUE(q1.ok());
  EXPECT_NE(q1->model.topic_term_counts, trained->model.topic_term_counts);

  const nlohmann::json d =
      DescribeDpCountTraining(o, 12, trained->noise, nullptr, &*trained->sampled);
  EXPECT_EQ(d["sample_rate"], 0.25);
  EXPECT_EQ(d["mechanism"], kSampledDpCountMechanism);
  EXPECT_EQ(d["accounting"], kSampledGaussianAccounting);
  EXPECT_FALSE(d.contains("rho_total"));
  const nlohmann::json j = accountant->ToJson();
  EXPECT_EQ(j["conversion"], kRdpConversion);
  EXPECT_EQ(j["releases"][0]["parameters"]["sample_rate"], 0.25);
  EXPECT_EQ(j["releases"][0]["count"], 5);

  // A second training on the spent accountant is refused.
  ExpectError(TrainWithNoisyCounts(corpus, Sampler(4), 12, o, rng, &*accountant).status(),
              absl::StatusCode::kFailedPrecondition, "already holds");
  // Distributed noise (the secure protocol's twin) has no sampling.
  o.noise_parties = 3;
  o.noise_coalition = 1;
  auto fresh = PrivacyAccountant::WithBudget(4, 1e-5);
  ExpectError(TrainWithNoisyCounts(corpus, Sampler(4), 12, o, rng, &*fresh).status(),
              absl::StatusCode::kInvalidArgument, "--dp-sample-rate");
}

}  // namespace
}  // namespace pplda::privacy

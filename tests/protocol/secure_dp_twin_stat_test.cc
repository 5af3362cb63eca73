// A secure DP run against its plaintext DP twin (a secure DP run agrees
// statistically with the plaintext DP twin): the same corpus (3
// parties of 6 four-token documents over two disjoint themes, V = 12,
// K = 2), the same DP options (epsilon 50, delta 1e-5, L = 4, c = 2, every
// one of 3 iterations noisy) and the same calibration (distributed noise for
// n = 3, t = 1); secure runs through RunLocalConsortium with the fixed
// 1024-bit test key and seeded sources 1..10, twin runs through
// privacy::TrainWithNoisyCounts (noise_parties 3, coalition 1) with seeded
// sources 1..200. Two statistics of each published model are compared by
// Welch's t-test, two-sided significance 0.01 per statistic (critical
// |t| = 3.25, valid for >= 9 degrees of freedom):
//   mass       = sum_{k,t} published(k, t)  (the clamped noise raises it
//                above the 72 tokens: tests the noise and the clamp),
//   separation = sum_t |published(0, t) - published(1, t)|  (how far the
//                draws against the noisy counts separated the themes).
// Both runs also spend the same accountant budget.
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "lda/corpus.h"
#include "privacy/dp_count_training.h"
#include "simulation/local_consortium.h"
#include "tests/protocol/protocol_test_util.h"

namespace pplda {
namespace {

constexpr int kTerms = 12;
constexpr int kIterations = 3;

// Party p, document d: four distinct terms of theme (d % 2).
std::vector<std::vector<lda::TermId>> PartyDocuments(int p) {
  std::vector<std::vector<lda::TermId>> docs;
  for (int d = 0; d < 6; ++d) {
    const int theme = d % 2;
    std::vector<lda::TermId> doc;
    for (int i = 0; i < 4; ++i) doc.push_back(theme * 6 + (p + d + i) % 6);
    docs.push_back(doc);
  }
  return docs;
}

lda::Vocabulary Vocab() {
  std::vector<std::string> terms;
  for (int t = 0; t < kTerms; ++t) terms.push_back("w" + std::to_string(t));
  return *lda::Vocabulary::FromTerms(terms);
}

privacy::DpCountOptions DpOptions() {
  return privacy::DpCountOptions{50, 1e-5, privacy::DocumentCaps{4, 2}, 0};
}

struct Stats {
  double mass = 0, separation = 0;
};

Stats Measure(const std::vector<int64_t>& kv) {
  Stats s;
  for (int t = 0; t < kTerms; ++t) {
    s.mass += static_cast<double>(kv[t] + kv[kTerms + t]);
    s.separation += std::abs(static_cast<double>(kv[t] - kv[kTerms + t]));
  }
  return s;
}

double WelchT(const std::vector<double>& a, const std::vector<double>& b) {
  auto mean = [](const std::vector<double>& x) {
    return std::accumulate(x.begin(), x.end(), 0.0) / x.size();
  };
  auto var = [&](const std::vector<double>& x) {
    const double m = mean(x);
    double v = 0;
    for (double e : x) v += (e - m) * (e - m);
    return v / (x.size() - 1);
  };
  return (mean(a) - mean(b)) / std::sqrt(var(a) / a.size() + var(b) / b.size());
}

TEST(SecureDpTwinStat, SecureRunAgreesWithThePlaintextTwin) {
  crypto::DealtKey key = *crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2, 17);
  std::vector<double> secure_mass, secure_sep, twin_mass, twin_sep;
  double secure_epsilon = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    std::vector<simulation::ConsortiumParty> parties;
    for (int p = 0; p < 3; ++p) parties.push_back({"p" + std::to_string(p), PartyDocuments(p), {}});
    simulation::LocalConsortiumOptions o;
    o.lda.num_topics = 2;
    o.lda.alpha = 0.5;
    o.lda.beta = 0.1;
    o.iterations = kIterations;
    o.seed = seed;
    o.threads = 2;
    o.dp = DpOptions();
    auto run = simulation::RunLocalConsortium(parties, Vocab(), key,
                                              protocol_testing::SeededRngs(seed), o);
    ASSERT_TRUE(run.ok()) << run.status();
    ASSERT_TRUE(run->accountant.has_value());
    secure_epsilon = run->accountant->epsilon();
    const Stats s = Measure(run->model.topic_term_counts);
    secure_mass.push_back(s.mass);
    secure_sep.push_back(s.separation);
  }
  lda::Corpus corpus;
  corpus.vocabulary = Vocab();
  for (int p = 0; p < 3; ++p) {
    for (const auto& d : PartyDocuments(p)) corpus.documents.push_back({"d", d});
  }
  double twin_epsilon = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    privacy::DpCountOptions dp = DpOptions();
    dp.noise_parties = 3;
    dp.noise_coalition = 1;
    auto accountant = privacy::PrivacyAccountant::WithBudget(dp.epsilon, dp.delta);
    ASSERT_TRUE(accountant.ok());
    lda::SamplerOptions sampler;
    sampler.num_topics = 2;
    sampler.alpha = 0.5;
    sampler.beta = 0.1;
    sampler.threads = 1;
    crypto::SeededRng rng(seed);
    auto trained =
        privacy::TrainWithNoisyCounts(corpus, sampler, kIterations, dp, rng, &*accountant);
    ASSERT_TRUE(trained.ok()) << trained.status();
    twin_epsilon = accountant->epsilon();
    const Stats s = Measure(trained->model.topic_term_counts);
    twin_mass.push_back(s.mass);
    twin_sep.push_back(s.separation);
  }
  EXPECT_DOUBLE_EQ(secure_epsilon, twin_epsilon);
  const double t_mass = WelchT(secure_mass, twin_mass);
  const double t_sep = WelchT(secure_sep, twin_sep);
  auto mean = [](const std::vector<double>& x) {
    return std::accumulate(x.begin(), x.end(), 0.0) / x.size();
  };
  std::printf("mass: secure %.3f twin %.3f (t = %.3f); separation: secure %.3f twin %.3f "
              "(t = %.3f); epsilon %.6g\n",
              mean(secure_mass), mean(twin_mass), t_mass, mean(secure_sep), mean(twin_sep), t_sep,
              secure_epsilon);
  EXPECT_LT(std::abs(t_mass), 3.25) << "published mass";
  EXPECT_LT(std::abs(t_sep), 3.25) << "theme separation";
  // The noise is visible: the clamped noise adds mass above the 72 tokens.
  EXPECT_GT(std::accumulate(twin_mass.begin(), twin_mass.end(), 0.0) / twin_mass.size(), 72.5);
}

}  // namespace
}  // namespace pplda

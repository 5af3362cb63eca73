// --dp-sample-rate 1 (the default) is DP training exactly as it was before
// Poisson subsampling existed: under a seeded noise source the model's
// counts, the accountant's record and the mechanism's record hash to the
// values the pre-sampling code gave (FNV-1a, recorded by this test built
// against commit 33d640b, the branch point), for the default options and
// for sample_rate set to 1 explicitly.
#include <cstdint>
#include <string>
#include <vector>

#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "privacy/dp_count_training.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

uint64_t Fnv1a(const std::vector<int32_t>& counts) {
  uint64_t h = 14695981039346656037ull;
  for (int32_t c : counts) {
    for (int byte = 0; byte < 4; ++byte) {
      h ^= (static_cast<uint32_t>(c) >> (8 * byte)) & 0xff;
      h *= 1099511628211ull;
    }
  }
  return h;
}

uint64_t Fnv1a(const std::string& text) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

struct Hashes {
  uint64_t counts = 0;
  uint64_t records = 0;  // the accountant's JSON and DescribeDpCountTraining's
};

Hashes TrainedHash(DpCountOptions o) {
  const lda::Corpus corpus =
      CapDocuments(testing::MakeAuditCorpus(200, 4, 1), DocumentCaps{50, 5}, nullptr);
  auto accountant = PrivacyAccountant::WithBudget(4, 1e-5);
  EXPECT_TRUE(accountant.ok());
  lda::SamplerOptions s;
  s.num_topics = 4;
  s.threads = 1;
  crypto::SeededRng rng(7);
  auto trained = TrainWithNoisyCounts(corpus, s, 12, o, rng, &*accountant);
  EXPECT_TRUE(trained.ok()) << trained.status();
  if (!trained.ok()) return {};
  std::vector<int32_t> counts(trained->model.topic_term_counts.begin(),
                              trained->model.topic_term_counts.end());
  return {Fnv1a(counts), Fnv1a(accountant->ToJson().dump() +
                               DescribeDpCountTraining(o, 12, trained->noise).dump())};
}

TEST(DpCountBitIdentity, FullReleaseUnchanged) {
  DpCountOptions o;
  o.epsilon = 4;
  o.delta = 1e-5;
  o.caps = DocumentCaps{50, 5};
  o.noisy_iterations = 5;
  const Hashes h = TrainedHash(o);
  EXPECT_EQ(h.counts, 16529595997691600331ull);
  EXPECT_EQ(h.records, 4786551462157011716ull);
  o.sample_rate = 1;
  const Hashes explicit_one = TrainedHash(o);
  EXPECT_EQ(explicit_one.counts, h.counts);
  EXPECT_EQ(explicit_one.records, h.records);
  // A rate below 1 changes both (the sample, sigma and the accounting).
  o.sample_rate = 0.5;
  const Hashes half = TrainedHash(o);
  EXPECT_NE(half.counts, h.counts);
  EXPECT_NE(half.records, h.records);
}

}  // namespace
}  // namespace pplda::privacy

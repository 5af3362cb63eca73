// Statistical tests that what a coalition of t parties sees does not depend
// on the secrets: Shamir shares, multiplication messages and the masked
// value opened by a comparison. Every test uses fixed seeds and Pearson's
// chi-square at significance alpha = 0.001 (a correct implementation fails
// a given test with probability 0.001; the seeds make runs deterministic).
// Buckets are the top bits of field elements (p = 2^127 - 1, so the top
// bucket is short by a single value, which is negligible).
#include <algorithm>
#include <array>

#include "base/status_macros.h"
#include "crypto/mpc/comparison.h"
#include "crypto/mpc/mpc_testing.h"
#include "crypto/mpc/replicated_ring.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

// Upper 0.001 quantiles of chi-square for the degrees of freedom used.
constexpr double kChiSquare999Df7 = 24.322;
constexpr double kChiSquare999Df15 = 37.697;
constexpr double kChiSquare999Df23 = 49.728;
constexpr double kChiSquare999Df63 = 103.442;

// Pearson's statistic of counts against the uniform distribution.
double UniformChiSquare(const std::vector<int64_t>& counts) {
  int64_t total = 0;
  for (int64_t c : counts) total += c;
  const double expected = static_cast<double>(total) / counts.size();
  double stat = 0;
  for (int64_t c : counts) stat += (c - expected) * (c - expected) / expected;
  return stat;
}

// Two-sample chi-square for equal sample sizes.
double TwoSampleChiSquare(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  double stat = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k] + b[k] == 0) continue;
    const double d = static_cast<double>(a[k] - b[k]);
    stat += d * d / static_cast<double>(a[k] + b[k]);
  }
  return stat;
}

int TopBits(FieldElement x, int bits) {
  return static_cast<int>(x.value() >> (FieldElement::kBits - bits));
}

FieldVector DecodeAll(const std::vector<RecordingTransport::Received>& received) {
  FieldVector out;
  for (const auto& r : received) {
    auto v = DecodeFieldVector(r.payload, r.payload.size() / FieldElement::kBytes, "record");
    EXPECT_TRUE(v.ok());
    if (v.ok()) out.insert(out.end(), v->begin(), v->end());
  }
  return out;
}

// Any t = 2 of n = 5 parties: their pair of shares is uniform on GF(p)^2,
// whatever the secret (64 joint buckets of the top 3 bits of each share).
TEST(MpcViewStatTest, ShamirSharesOfTwoPartiesAreJointlyUniform) {
  auto scheme = ShamirScheme::Create(5, 2).value();
  SeededRng rng(71);
  const int kSamples = 20000;
  for (FieldElement secret : {FieldElement::Zero(), FieldElement::FromInt64(-1),
                              FieldElement::PowerOfTwo(100)}) {
    const FieldVector secrets(kSamples, secret);
    const std::vector<FieldVector> shares = scheme.Share(secrets, 2, rng);
    for (auto [i, j] : {std::pair<int, int>{0, 1}, {3, 4}}) {
      std::vector<int64_t> counts(64, 0);
      for (int s = 0; s < kSamples; ++s) {
        counts[TopBits(shares[i][s], 3) * 8 + TopBits(shares[j][s], 3)] += 1;
      }
      EXPECT_LT(UniformChiSquare(counts), kChiSquare999Df63)
          << "parties " << i << "," << j << " secret " << secret.ToString();
    }
  }
}

// Everything party 1 (a coalition of t = 1 of 3) receives while multiplying
// is uniform, for all-zero and all-(p-1) operands alike: the reshares of
// parties 0 and 2 (dealt randomness) or of party 2 only (pseudo-random
// sharing: party 0 derives party 1's share from their pairwise key).
void ExpectMultiplicationMessagesUniform(MpcConfig::SharedRandomness randomness) {
  const int kBatch = 20000;
  std::vector<std::vector<int64_t>> histograms;
  for (int64_t value : {int64_t{0}, int64_t{-1}}) {
    auto bed = MpcTestbed::Create(3, 1, 72, MpcConfig::kDefaultSigma, randomness).value();
    auto a = bed->ShareIntegers(std::vector<int64_t>(kBatch, value));
    // The key agreement (pseudo-random sharing) happens before recording.
    ASSERT_TRUE(bed->Run([](MpcEngine& e) { return e.Random(1).status(); }).ok());
    bed->recorder(1).set_recording(true);
    ASSERT_TRUE(bed->Run([&](MpcEngine& e) {
      return e.Mul(a[e.party_id()], a[e.party_id()]).status();
    }).ok());
    const FieldVector seen = DecodeAll(bed->recorder(1).received());
    const size_t senders = bed->config().pseudo_random_sharing() ? 1 : 2;
    ASSERT_EQ(seen.size(), senders * kBatch);
    std::vector<int64_t> counts(16, 0);
    for (FieldElement x : seen) counts[TopBits(x, 4)] += 1;
    EXPECT_LT(UniformChiSquare(counts), kChiSquare999Df15) << "operand " << value;
    histograms.push_back(counts);
  }
  EXPECT_LT(TwoSampleChiSquare(histograms[0], histograms[1]), kChiSquare999Df15);
}

TEST(MpcViewStatTest, MultiplicationMessagesAreUniform) {
  ExpectMultiplicationMessagesUniform(MpcConfig::SharedRandomness::kDealt);
}

TEST(MpcViewStatTest, MultiplicationMessagesAreUniformWithDerivedShares) {
  ExpectMultiplicationMessagesUniform(MpcConfig::SharedRandomness::kAuto);
}

// P[floor(S) = k] for S the sum of `summands` independent uniforms on [0, 8)
// (Irwin-Hall law of 2 or 3 summands, scaled by 8).
double SumOfUniformsBucket(int summands, int k) {
  const auto cdf = [summands](double s) {
    const double y = s / 8;
    if (summands == 2) return y < 1 ? y * y / 2 : 1 - (2 - y) * (2 - y) / 2;
    if (y < 1) return y * y * y / 6;
    if (y < 2) return (-2 * y * y * y + 9 * y * y - 9 * y + 3) / 6;
    return 1 - (3 - y) * (3 - y) * (3 - y) / 6;
  };
  return cdf(k + 1) - cdf(k);
}

// The value a comparison opens, c = (a - b + 2^l) + r_low + 2^l r_high, as
// reconstructed by party 1 from the shares it receives: c mod 2^l is
// uniform, and the distribution of c's high part is the same for "a < b by
// the most" and "a > b by the most" (statistical distance <= 2^-sigma).
// For dealt masks (r_high from t+1 = 2 dealers) and pseudo-random ones
// (r_high from n choose t = 3 keys) alike.
void ExpectOpenedComparisonValueIndependentOfInputs(MpcConfig::SharedRandomness randomness) {
  const int kBatch = 20000, kBits = 20;
  const int sigma = MpcConfig::kDefaultSigma;
  const uint128 max = (uint128{1} << kBits) - 1;
  std::vector<std::vector<int64_t>> low_hist, high_hist;
  for (bool a_small : {true, false}) {
    auto bed = MpcTestbed::Create(3, 1, 73, sigma, randomness).value();
    const int summands = bed->config().mask_summands();
    const int buckets = 8 * summands;
    const FieldElement small = FieldElement::Zero(), big = FieldElement::FromUint128(max);
    auto a = bed->Share(FieldVector(kBatch, a_small ? small : big));
    auto b = bed->Share(FieldVector(kBatch, a_small ? big : small));
    bed->recorder(1).set_recording(true);
    ASSERT_TRUE(bed->Run([&](MpcEngine& e) {
      return LessThan(e, a[e.party_id()], b[e.party_id()], kBits).status();
    }).ok());
    // The masks take the key agreement (pseudo-random high parts) and
    // mask_rounds() rounds; the next round opens c. Parties 0 and 2 hold
    // the points x = 1 and x = 3 of the degree-1 sharing of c.
    const uint64_t open_round =
        (bed->config().pseudo_random_sharing() ? 1 : 0) + bed->config().mask_rounds() + 1;
    FieldVector from0, from2;
    for (const auto& r : bed->recorder(1).received()) {
      if (r.round != open_round) continue;
      auto v = DecodeFieldVector(r.payload, kBatch, "open").value();
      (r.from == 0 ? from0 : from2) = v;
    }
    ASSERT_EQ(from0.size(), static_cast<size_t>(kBatch));
    ASSERT_EQ(from2.size(), static_cast<size_t>(kBatch));
    const FieldVector lambda = LagrangeCoefficients(
        {FieldElement::FromUint64(1), FieldElement::FromUint64(3)}, FieldElement::Zero());
    std::vector<int64_t> low(16, 0), high(buckets, 0);
    for (int s = 0; s < kBatch; ++s) {
      const uint128 c = (lambda[0] * from0[s] + lambda[1] * from2[s]).value();
      low[static_cast<int>((c & max) >> (kBits - 4))] += 1;
      // r_high is a sum of `summands` values below 2^(sigma+2).
      const uint128 h = c >> (kBits + sigma - 1);
      ASSERT_LT(h, static_cast<uint128>(buckets));
      high[static_cast<int>(h)] += 1;
    }
    EXPECT_LT(UniformChiSquare(low), kChiSquare999Df15);
    // floor(c / 2^(l+sigma-1)) = floor(U1 + ... + tiny) with U_i the
    // summands' r_high / 2^(sigma-1), uniform on [0, 8): the Irwin-Hall
    // law. This fails if a high mask were narrower than stated.
    double stat = 0;
    for (int k = 0; k < buckets; ++k) {
      const double expected = kBatch * SumOfUniformsBucket(summands, k);
      stat += (high[k] - expected) * (high[k] - expected) / expected;
    }
    EXPECT_LT(stat, summands == 2 ? kChiSquare999Df15 : kChiSquare999Df23)
        << "high part of the opened value";
    low_hist.push_back(low);
    high_hist.push_back(high);
  }
  EXPECT_LT(TwoSampleChiSquare(low_hist[0], low_hist[1]), kChiSquare999Df15);
  EXPECT_LT(TwoSampleChiSquare(high_hist[0], high_hist[1]),
            high_hist[0].size() == 16 ? kChiSquare999Df15 : kChiSquare999Df23);
}

TEST(MpcViewStatTest, OpenedComparisonValueDoesNotDependOnTheInputs) {
  ExpectOpenedComparisonValueIndependentOfInputs(MpcConfig::SharedRandomness::kDealt);
}

TEST(MpcViewStatTest, OpenedComparisonValueDoesNotDependOnTheInputsWithPseudoRandomMasks) {
  ExpectOpenedComparisonValueIndependentOfInputs(MpcConfig::SharedRandomness::kPseudoRandom);
}

TEST(MpcViewStatTest, OpenedComparisonValueDoesNotDependOnTheInputsWithDefaultMasks) {
  ExpectOpenedComparisonValueIndependentOfInputs(MpcConfig::SharedRandomness::kAuto);
}

// Replicated conversion (replicated_ring.h): what a party of component
// e mod 3's pair learns is c minus the two masks it knows, x + r_missing
// with r_missing uniform on [0, 2^(b + sigma)); its two ring components add
// up to exactly that. Its low b bits are uniform and its top part follows
// the uniform law on 8 buckets for x = 0 and x = 2^b - 1 alike (distance
// 2^-sigma); a narrower mask than stated fails the second check.
TEST(MpcViewStatTest, ReplicatedConversionRevealsOnlyMaskedValues) {
  const int kBatch = 30000, kBits = 20, sigma = MpcConfig::kDefaultSigma;
  const uint128 max = (uint128{1} << kBits) - 1;
  std::vector<std::vector<int64_t>> high_hist;
  for (bool small : {true, false}) {
    auto bed = MpcTestbed::Create(3, 1, 79).value();
    auto x = bed->Share(FieldVector(kBatch, FieldElement::FromUint128(small ? 0 : max)));
    std::vector<RingShares> ring(3);
    ASSERT_TRUE(bed->Run([&](MpcEngine& e) -> absl::Status {
      ASSIGN_OR_RETURN(ReplicatedRing r, ReplicatedRing::Create(e));
      ASSIGN_OR_RETURN(ring[e.party_id()], r.FromField(x[e.party_id()], kBits));
      return absl::OkStatus();
    }).ok());
    std::vector<int64_t> low(16, 0), high(8, 0);
    for (int p = 0; p < 3; ++p) {
      for (int e = 0; e < kBatch; ++e) {
        const int component = e % 3;
        if (component != p && component != (p + 1) % 3) continue;  // nothing opened to p
        const uint128 seen = ring[p].own[e] + ring[p].next[e];       // x + r_missing
        ASSERT_TRUE(seen < (uint128{1} << (kBits + sigma + 1)));
        low[static_cast<int>((seen & max) >> (kBits - 4))] += 1;
        high[static_cast<int>(std::min<uint128>(seen >> (kBits + sigma - 3), 7))] += 1;
      }
    }
    EXPECT_LT(UniformChiSquare(low), kChiSquare999Df15);
    EXPECT_LT(UniformChiSquare(high), kChiSquare999Df7);
    high_hist.push_back(high);
  }
  EXPECT_LT(TwoSampleChiSquare(high_hist[0], high_hist[1]), kChiSquare999Df7);
}

}  // namespace
}  // namespace pplda::crypto

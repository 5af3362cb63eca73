#include "crypto/mpc/reciprocal.h"

#include <cmath>

#include "absl/status/status.h"
#include "crypto/mpc/mpc_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<FieldVector> RunReciprocal(MpcTestbed& bed, const std::vector<uint64_t>& xs,
                                          int k, int f) {
  FieldVector x;
  for (uint64_t v : xs) x.push_back(FieldElement::FromUint64(v));
  auto sx = bed.Share(x);
  std::vector<Shares> out(bed.num_parties());
  RETURN_IF_ERROR(bed.Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(out[e.party_id()], Reciprocal(e, sx[e.party_id()], k, f));
    return absl::OkStatus();
  }));
  return bed.Reveal(out);
}

// |y x - 2^f| / 2^f, the relative error of y against 2^f / x.
double RelativeError(FieldElement y, uint64_t x, int f) {
  const int128 exact = static_cast<int128>(1) << f;
  const int128 got = static_cast<int128>(y.value()) * x;
  const int128 diff = got > exact ? got - exact : exact - got;
  return std::ldexp(static_cast<double>(diff), -f);
}

// Checks the bound with exact integer arithmetic: |y x - 2^f| <= 2^(f-20).
void ExpectWithinBound(const FieldVector& y, const std::vector<uint64_t>& xs, int f,
                       double* worst) {
  ASSERT_EQ(y.size(), xs.size());
  const int128 exact = static_cast<int128>(1) << f;
  const int128 allowed = static_cast<int128>(1) << (f - 20);
  for (size_t i = 0; i < xs.size(); ++i) {
    ASSERT_LT(y[i].value(), uint128{1} << (f + 1)) << "x = " << xs[i];
    const int128 got = static_cast<int128>(y[i].value()) * xs[i];
    const int128 diff = got > exact ? got - exact : exact - got;
    EXPECT_LE(diff, allowed) << "x = " << xs[i] << " y = " << y[i].ToString();
    *worst = std::max(*worst, RelativeError(y[i], xs[i], f));
  }
}

TEST(ReciprocalTest, WholeRangeOfTwelveBitInputs) {
  auto bed = MpcTestbed::Create(3, 1, 31).value();
  const int k = 12, f = k + 21;
  std::vector<uint64_t> xs;
  for (uint64_t x = 1; x < (1u << k); ++x) xs.push_back(x);
  auto y = RunReciprocal(*bed, xs, k, f);
  ASSERT_TRUE(y.ok()) << y.status();
  double worst = 0;
  ExpectWithinBound(*y, xs, f, &worst);
  EXPECT_LE(worst, kReciprocalRelativeErrorBound);
  // Rounds: key agreement 1 (once per engine), masks 2, comparison 1 + 4,
  // products and truncations 9 (two Goldschmidt steps from the piecewise
  // guess: P - k = 28 spare bits).
  EXPECT_EQ(bed->engine(0).rounds(), 17u);
}

TEST(ReciprocalTest, FortyBitInputsAtEdgesAndRandom) {
  auto bed = MpcTestbed::Create(3, 1, 32).value();
  const int k = 40;
  std::vector<uint64_t> xs = {1, 2, 3, (1ULL << 40) - 1, (1ULL << 39) + 1, 1000000007};
  for (int j = 1; j < 40; ++j) {
    xs.push_back(1ULL << j);
    xs.push_back((1ULL << j) - 1);
    xs.push_back((1ULL << j) + 1);
  }
  SeededRng rng(33);
  for (int i = 0; i < 120; ++i) {
    // Random bit length, then a random value of that length.
    const int bits = 1 + static_cast<int>(rng.UniformUint64(40));
    xs.push_back((1ULL << (bits - 1)) | rng.UniformUint64(1ULL << (bits - 1)));
  }
  for (int f : {61, 90}) {  // f >= k + P = 80: no final truncation
    auto y = RunReciprocal(*bed, xs, k, f);
    ASSERT_TRUE(y.ok()) << y.status();
    double worst = 0;
    ExpectWithinBound(*y, xs, f, &worst);
    EXPECT_LE(worst, kReciprocalRelativeErrorBound) << "f = " << f;
    // Without the final truncation only the Goldschmidt residual remains.
    if (f >= 80) {
      EXPECT_LT(worst, std::ldexp(1.0, -28)) << "f = " << f;
    }
  }
}

// P - k = 1 and 2 spare bits (slopes in halves: |e0| <= 0.02457, two
// steps), 3 and 10 (eighths: |e0| <= 0.02096): edges of every bit length,
// both quarters of each octave, and random values. Without the final
// truncation (f >= k + P) the residual of two steps, e0^4 plus the
// truncations' drift, is all that remains: below 2^-21.3 and 2^-22.2.
TEST(ReciprocalTest, PiecewiseGuessWithTwoStepsAtEverySpareBitCount) {
  auto bed = MpcTestbed::Create(3, 1, 36).value();
  for (int k : {39, 38, 37, 30}) {
    std::vector<uint64_t> xs = {1, 2, 3, (1ULL << k) - 1};
    for (int j = 1; j < k; ++j) {
      for (uint64_t x :
           {(1ULL << j) - 1, 1ULL << j, (1ULL << j) + 1, 3ULL << (j - 1), (3ULL << (j - 1)) - 1}) {
        if (x >= 1 && x < (1ULL << k)) xs.push_back(x);
      }
    }
    SeededRng rng(37 + k);
    for (int i = 0; i < 60; ++i) {
      const int bits = 1 + static_cast<int>(rng.UniformUint64(k));
      xs.push_back((1ULL << (bits - 1)) | rng.UniformUint64(1ULL << (bits - 1)));
    }
    for (int f : {k + 21, k + 40}) {
      auto y = RunReciprocal(*bed, xs, k, f);
      ASSERT_TRUE(y.ok()) << y.status();
      double worst = 0;
      ExpectWithinBound(*y, xs, f, &worst);
      EXPECT_LE(worst, kReciprocalRelativeErrorBound) << "k = " << k << " f = " << f;
      if (f >= k + 40) {
        EXPECT_LT(worst, std::ldexp(1.0, k >= 38 ? -21.3 : -22.2)) << "k = " << k;
      }
    }
  }
}

TEST(ReciprocalTest, FivePartiesUseThirtyNineBitPrecision) {
  auto config = MpcConfig::Create(5, 2).value();
  EXPECT_EQ(ReciprocalPrecision(config).value(), 39);
  auto bed = MpcTestbed::Create(5, 2, 34).value();
  const std::vector<uint64_t> xs = {1, 7, 12345, (1ULL << 39) - 1, 1ULL << 38};
  auto y = RunReciprocal(*bed, xs, 39, 60);
  ASSERT_TRUE(y.ok()) << y.status();
  double worst = 0;
  ExpectWithinBound(*y, xs, 60, &worst);
}

TEST(ReciprocalTest, OneBitInputAndEmptyBatch) {
  auto bed = MpcTestbed::Create(3, 1, 35).value();
  auto y = RunReciprocal(*bed, {1}, 1, 30);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_LE(RelativeError((*y)[0], 1, 30), kReciprocalRelativeErrorBound);
  std::vector<Shares> out(3);
  ASSERT_TRUE(bed->Run([&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(out[e.party_id()], Reciprocal(e, Shares(), 10, 40));
    return absl::OkStatus();
  }).ok());
  EXPECT_TRUE(out[0].empty());
}

TEST(ReciprocalTest, ParametersAreValidated) {
  auto bed = MpcTestbed::Create(3, 1, 36).value();
  auto check = [&](int k, int f, const char* text) {
    absl::Status s = bed->Run([&](MpcEngine& e) { return Reciprocal(e, Shares(1), k, f).status(); });
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(s.message(), HasSubstr(text));
  };
  check(0, 30, "input bit length k = 0 is outside [1, 40]");
  check(41, 80, "input bit length k = 41");
  check(20, 40, "output precision f = 40 must be in [k + 21 = 41, 120]");
  check(20, 121, "output precision f = 121");
  auto tight = MpcConfig::Create(3, 1, 64).value();
  auto p = ReciprocalPrecision(tight);
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(p.status().message(), HasSubstr("sigma = 64"));
}

// Precomputed masks must be the ones ReciprocalMaskSpecs asks for: too few
// batches or batches of the wrong shape are refused before any round.
TEST(ReciprocalTest, PrecomputedMasksMustMatchTheirSpecs) {
  auto bed = MpcTestbed::Create(3, 1, 37).value();
  const int k = 12, f = 33;
  const auto specs = ReciprocalMaskSpecs(bed->config(), 2, k, f).value();
  ASSERT_GE(specs.size(), 2u);
  EXPECT_EQ(ReciprocalMaskSpecs(bed->config(), 2, 0, f).status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::Status s = bed->Run([&](MpcEngine& e) {
    return Reciprocal(e, Shares(2), k, f, std::vector<MaskBatch>(1)).status();
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("1 mask batches, expected"));
  bed = MpcTestbed::Create(3, 1, 38).value();  // a failed run shuts its network down
  s = bed->Run([&](MpcEngine& e) -> absl::Status {
    // Masks for 3 inputs handed to a reciprocal of 2.
    ASSIGN_OR_RETURN(auto wrong, e.GenerateMasks(ReciprocalMaskSpecs(e.config(), 3, k, f).value()));
    return Reciprocal(e, Shares(2), k, f, wrong).status();
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Reciprocal: masks were generated for"));
  EXPECT_EQ(bed->engine(0).rounds(), 3u);  // key agreement and the masks only
}

}  // namespace
}  // namespace pplda::crypto

// The additive sharing mod N of a data holder's packed deltas
// (party/holder_delta_shares.h): the members' shares sum to the packed
// values mod N for every committee size and every holder (so every full
// member in turn), a member's share alone (a seed's stream, or the full
// vector) is not the value, and messages of the wrong size or with a value
// not below N are refused naming the holder and member.
#include "party/holder_delta_shares.h"

#include <vector>

#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::party {
namespace {

using ::testing::HasSubstr;

// A 1024-bit odd modulus (its factors do not matter to the sharing).
mpz_class Modulus() {
  mpz_class n = 1;
  n <<= 1023;
  n += 12345677;
  return n;
}

std::vector<mpz_class> Values(const mpz_class& modulus) {
  // Negative values (packed negative deltas) and values at the edges.
  return {0, 1, -1, -5000, modulus - 1, mpz_class(1) << 700, 424242};
}

TEST(HolderDeltaSharesTest, SharesSumToThePackedValuesModN) {
  const mpz_class modulus = Modulus();
  const std::vector<mpz_class> values = Values(modulus);
  crypto::SeededRng rng(5);
  for (int committee : {3, 5}) {
    for (int holder = 0; holder < 7; ++holder) {
      const std::vector<std::vector<uint8_t>> messages =
          SplitPackedDeltas(values, modulus, committee, holder, rng);
      ASSERT_EQ(messages.size(), static_cast<size_t>(committee));
      std::vector<mpz_class> sum(values.size(), 0);
      for (int j = 0; j < committee; ++j) {
        const size_t expected_bytes =
            j == FullShareMember(holder, committee) ? values.size() * 128 : 32;
        EXPECT_EQ(messages[j].size(), expected_bytes) << committee << " " << holder << " " << j;
        auto share = PackedDeltaShare(messages[j], values.size(), modulus, committee, holder, j);
        ASSERT_TRUE(share.ok()) << share.status();
        for (size_t i = 0; i < values.size(); ++i) sum[i] += (*share)[i];
      }
      for (size_t i = 0; i < values.size(); ++i) {
        mpz_class want = values[i] % modulus;
        if (want < 0) want += modulus;
        mpz_class got = sum[i] % modulus;
        EXPECT_EQ(got, want) << "committee " << committee << ", holder " << holder << ", value "
                             << i;
      }
    }
  }
}

TEST(HolderDeltaSharesTest, NoSingleShareIsTheValue) {
  const mpz_class modulus = Modulus();
  const std::vector<mpz_class> values(64, 3);
  crypto::SeededRng rng(9);
  const std::vector<std::vector<uint8_t>> messages = SplitPackedDeltas(values, modulus, 3, 1, rng);
  for (int j = 0; j < 3; ++j) {
    auto share = PackedDeltaShare(messages[j], values.size(), modulus, 3, 1, j);
    ASSERT_TRUE(share.ok()) << share.status();
    int equal = 0;
    for (const mpz_class& v : *share) equal += v == 3 ? 1 : 0;
    // A uniform value mod a 1024-bit N is 3 with probability 2^-1023.
    EXPECT_EQ(equal, 0) << "member " << j;
  }
}

TEST(HolderDeltaSharesTest, BadMessagesAreRefused) {
  const mpz_class modulus = Modulus();
  crypto::SeededRng rng(2);
  const std::vector<std::vector<uint8_t>> messages =
      SplitPackedDeltas(Values(modulus), modulus, 3, 0, rng);
  const size_t count = Values(modulus).size();
  // Member 0 is holder 0's full member; member 1 gets a seed.
  auto short_seed = PackedDeltaShare(std::vector<uint8_t>(31, 0), count, modulus, 3, 0, 1);
  EXPECT_EQ(short_seed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(short_seed.status().message(),
              HasSubstr("data holder 0's delta share for member 1: 31 bytes"));
  std::vector<uint8_t> truncated = messages[0];
  truncated.pop_back();
  auto short_vector = PackedDeltaShare(truncated, count, modulus, 3, 0, 0);
  EXPECT_EQ(short_vector.status().code(), absl::StatusCode::kInvalidArgument);
  std::vector<uint8_t> too_big = messages[0];
  std::fill(too_big.begin(), too_big.begin() + 128, 0xff);
  auto above = PackedDeltaShare(too_big, count, modulus, 3, 0, 0);
  EXPECT_EQ(above.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(above.status().message(), HasSubstr("value 0 is not below N"));
}

}  // namespace
}  // namespace pplda::party

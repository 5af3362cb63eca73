// party/party_randomness.h: the INSECURE deterministic sources are a pure
// function of (seed, party, source), one independent stream per triple, and
// the OS sources are not streams of any seed.
#include "party/party_randomness.h"

#include <cstdint>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"

namespace pplda::party {
namespace {

std::vector<uint8_t> First64Bytes(crypto::SecureRng& rng) {
  std::vector<uint8_t> bytes(64);
  rng.Fill(absl::MakeSpan(bytes));
  return bytes;
}

constexpr PartyRandomSource kSources[] = {
    PartyRandomSource::kMpcEngine, PartyRandomSource::kPaillierEncryptor,
    PartyRandomSource::kDecryptionProofs, PartyRandomSource::kInitialTopics};

TEST(PartyRandomnessTest, DeterministicSourceIsAFunctionOfSeedPartyAndSource) {
  for (PartyRandomSource source : kSources) {
    std::unique_ptr<crypto::SecureRng> a = InsecureDeterministicRng(42, 1, source);
    std::unique_ptr<crypto::SecureRng> b = InsecureDeterministicRng(42, 1, source);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(First64Bytes(*a), First64Bytes(*b));
  }
}

TEST(PartyRandomnessTest, EverySeedPartyAndSourceHasItsOwnStream) {
  std::set<std::vector<uint8_t>> streams;
  int made = 0;
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{42}, uint64_t{INT64_MAX}}) {
    for (int party = 0; party < 5; ++party) {
      for (PartyRandomSource source : kSources) {
        streams.insert(First64Bytes(*InsecureDeterministicRng(seed, party, source)));
        ++made;
      }
    }
  }
  EXPECT_EQ(streams.size(), static_cast<size_t>(made));
}

TEST(PartyRandomnessTest, OsSourceIsNoSeededStream) {
  std::unique_ptr<crypto::SecureRng> a = OsRng(0, PartyRandomSource::kMpcEngine);
  std::unique_ptr<crypto::SecureRng> b = OsRng(0, PartyRandomSource::kMpcEngine);
  ASSERT_NE(a, nullptr);
  EXPECT_NE(First64Bytes(*a), First64Bytes(*b));
}

}  // namespace
}  // namespace pplda::party

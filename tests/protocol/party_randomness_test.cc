// party/party_randomness.h: the INSECURE deterministic sources are a pure
// function of (seed, party, source), one independent stream per triple, and
// the OS sources are not streams of any seed; a build without
// PPLDA_INSECURE_TEST_RANDOMNESS has none of them.
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

TEST(PartyRandomnessTest, TheBuildsGateDecidesWhetherDeterministicSourcesExist) {
  absl::StatusOr<ConsortiumRngFactory> factory = InsecureDeterministicRngFactory(42);
  if (InsecureTestRandomnessAllowed()) {
    ASSERT_TRUE(factory.ok()) << factory.status();
    EXPECT_NE((*factory)(0, PartyRandomSource::kMpcEngine), nullptr);
  } else {
    EXPECT_EQ(factory.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_EQ(factory.status().message(), kInsecureTestRandomnessRefused);
  }
}

TEST(PartyRandomnessTest, DeterministicSourceIsAFunctionOfSeedPartyAndSource) {
  if (!InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "built with PPLDA_INSECURE_TEST_RANDOMNESS=OFF: no deterministic sources";
  }
  absl::StatusOr<ConsortiumRngFactory> factory = InsecureDeterministicRngFactory(42);
  ASSERT_TRUE(factory.ok()) << factory.status();
  for (PartyRandomSource source : kSources) {
    std::unique_ptr<crypto::SecureRng> a = (*factory)(1, source);
    std::unique_ptr<crypto::SecureRng> b = (*factory)(1, source);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(First64Bytes(*a), First64Bytes(*b));
  }
}

TEST(PartyRandomnessTest, EverySeedPartyAndSourceHasItsOwnStream) {
  if (!InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "built with PPLDA_INSECURE_TEST_RANDOMNESS=OFF: no deterministic sources";
  }
  std::set<std::vector<uint8_t>> streams;
  int made = 0;
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{42}, uint64_t{INT64_MAX}}) {
    absl::StatusOr<ConsortiumRngFactory> factory = InsecureDeterministicRngFactory(seed);
    ASSERT_TRUE(factory.ok()) << factory.status();
    for (int party = 0; party < 5; ++party) {
      for (PartyRandomSource source : kSources) {
        streams.insert(First64Bytes(*(*factory)(party, source)));
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

#include "party/party_randomness.h"

#include <sodium.h>

#include <cstring>

#include "absl/status/status.h"

// 0 or 1, from PPLDA_INSECURE_TEST_RANDOMNESS (party/CMakeLists.txt).
#ifndef PPLDA_INSECURE_TEST_RANDOMNESS
#error "PPLDA_INSECURE_TEST_RANDOMNESS must be defined to 0 or 1 (party/CMakeLists.txt)"
#endif
#if PPLDA_INSECURE_TEST_RANDOMNESS
#include "crypto/random/secure_rng_testing.h"
#endif

namespace pplda::party {

std::unique_ptr<crypto::SecureRng> OsRng(int /*party*/, PartyRandomSource /*source*/) {
  return std::make_unique<crypto::SodiumRng>();
}

bool InsecureTestRandomnessAllowed() { return PPLDA_INSECURE_TEST_RANDOMNESS != 0; }

#if PPLDA_INSECURE_TEST_RANDOMNESS
namespace {

std::unique_ptr<crypto::SecureRng> InsecureDeterministicRng(uint64_t seed, int party,
                                                            PartyRandomSource source) {
  [[maybe_unused]] const int ignored = sodium_init();
  static constexpr char kDomain[] = "pplda/insecure-deterministic-rng/v1";
  constexpr size_t kDomainBytes = sizeof(kDomain) - 1;
  uint8_t input[kDomainBytes + 8 + 4 + 4];
  std::memcpy(input, kDomain, kDomainBytes);
  for (int i = 0; i < 8; ++i) input[kDomainBytes + i] = static_cast<uint8_t>(seed >> (56 - 8 * i));
  const uint32_t p = static_cast<uint32_t>(party);
  const uint32_t s = static_cast<uint32_t>(source);
  for (int i = 0; i < 4; ++i) {
    input[kDomainBytes + 8 + i] = static_cast<uint8_t>(p >> (24 - 8 * i));
    input[kDomainBytes + 12 + i] = static_cast<uint8_t>(s >> (24 - 8 * i));
  }
  uint8_t digest[crypto_generichash_BYTES_MIN];  // 16 bytes: libsodium's shortest BLAKE2b
  crypto_generichash(digest, sizeof(digest), input, sizeof(input), nullptr, 0);
  uint64_t stream_seed = 0;
  for (int i = 0; i < 8; ++i) stream_seed = (stream_seed << 8) | digest[i];
  return std::make_unique<crypto::SeededRng>(stream_seed);
}

}  // namespace
#endif  // PPLDA_INSECURE_TEST_RANDOMNESS

absl::StatusOr<ConsortiumRngFactory> InsecureDeterministicRngFactory(uint64_t seed) {
#if PPLDA_INSECURE_TEST_RANDOMNESS
  return ConsortiumRngFactory([seed](int party, PartyRandomSource source) {
    return InsecureDeterministicRng(seed, party, source);
  });
#else
  return absl::FailedPreconditionError(kInsecureTestRandomnessRefused);
#endif
}

}  // namespace pplda::party

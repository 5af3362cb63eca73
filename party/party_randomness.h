// A compute party's random sources, and the one place where their
// INSECURE deterministic (testing) variant is derived.
//
// Each compute party draws from independent sources, one per use
// (PartyRandomSource): its MPC engine (keyed once at the engine's creation,
// crypto/mpc/mpc_engine.h), its Paillier encryptor, its decryption proofs, and
// its initial topics (the daemon's, when no initial_topics_seed is set),
// and its DP noise shares (DP runs).
// Both paths get them from a factory:
//  - PartySession (party_session.h; the party daemon) from a PartyRngFactory
//    of its own party;
//  - InProcessPartyGroup (simulation/; `pplda simulate`) from a
//    ConsortiumRngFactory over every party.
// Normally every source is libsodium's CSPRNG (SodiumRng).
//
// INSECURE, TESTS ONLY, and only in builds with the CMake option
// PPLDA_INSECURE_TEST_RANDOMNESS (ON by default, OFF by default in Release
// builds; top-level CMakeLists.txt), the one gate for it: party p's source s
// of InsecureDeterministicRngFactory(seed) is a SeededRng (crypto/random/secure_rng_testing.h, a
// ChaCha20 stream) seeded with
// the first 8 bytes (big endian) of
//   BLAKE2b-128("pplda/insecure-deterministic-rng/v1" || seed (8 bytes, big
//               endian) || party (4 bytes, big endian) || source (4 bytes))
// so party p's source s is the same byte stream in `pplda simulate
// --insecure-deterministic-rng-seed S` and in the party daemon configured
// with insecure_deterministic_rng_seed = S: both paths consume the same
// bytes in the same order and publish the same model (tests/e2e). Anyone
// who knows the seed knows every mask and share: never with real data.
// Without the option, party_randomness.cc compiles neither these streams nor
// crypto/random/secure_rng_testing.h, InsecureTestRandomnessAllowed() is false and
// InsecureDeterministicRngFactory fails: the party daemon refuses the config
// key (party_daemon_config.h) and `pplda simulate` the flag, at start.
// Thread-safety: the functions are reentrant; see secure_rng.h for the
// sources themselves.
#ifndef PPLDA_PARTY_PARTY_RANDOMNESS_H_
#define PPLDA_PARTY_PARTY_RANDOMNESS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "crypto/random/secure_rng.h"

namespace pplda::party {

enum class PartyRandomSource : int {
  kMpcEngine = 0,
  kPaillierEncryptor = 1,
  kDecryptionProofs = 2,
  kInitialTopics = 3,
  kDpNoise = 4,  // the party's DP noise shares (secure_dp_noise.h)
  // The secure DP vocabulary (dp_vocabulary_party.h): its own encryption
  // randomness, noise shares and proof randomness, never shared with the
  // run's sources above.
  kVocabularyEncryptor = 5,
  kVocabularyNoise = 6,
  kVocabularyProofs = 7,
  // Dealer-free key generation in one process (simulation/dealer_free_key.h).
  kKeyGeneration = 8,
  // The run key of the party's per-iteration randomness
  // (iteration_randomness.h).
  kIterationKey = 9,
};
inline constexpr int kPartyRandomSources = 10;

// One party's sources.
using PartyRngFactory = std::function<std::unique_ptr<crypto::SecureRng>(PartyRandomSource)>;
// Every party's sources (party: 0-based compute party index).
using ConsortiumRngFactory =
    std::function<std::unique_ptr<crypto::SecureRng>(int party, PartyRandomSource)>;

// libsodium's CSPRNG for every source (what the daemons and `pplda
// simulate` use unless told otherwise).
std::unique_ptr<crypto::SecureRng> OsRng(int party, PartyRandomSource source);

// Whether this build holds the INSECURE deterministic sources (built with
// PPLDA_INSECURE_TEST_RANDOMNESS).
bool InsecureTestRandomnessAllowed();

// Why a build without them refuses them (the errors name the key or flag first).
inline constexpr char kInsecureTestRandomnessRefused[] =
    "this build does not allow insecure test randomness (built with "
    "PPLDA_INSECURE_TEST_RANDOMNESS=OFF, the default for Release builds)";

// INSECURE, TESTS ONLY (see above): every party's deterministic sources for
// `seed`; FailedPreconditionError(kInsecureTestRandomnessRefused) when
// !InsecureTestRandomnessAllowed().
absl::StatusOr<ConsortiumRngFactory> InsecureDeterministicRngFactory(uint64_t seed);

// The warning both paths log when the deterministic sources are in use.
inline constexpr char kInsecureDeterministicRngWarning[] =
    "INSECURE: deterministic randomness for testing; never use with real data";

}  // namespace pplda::party

#endif  // PPLDA_PARTY_PARTY_RANDOMNESS_H_

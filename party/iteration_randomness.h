// IterationRandomness: a compute party's randomness for each iteration as a
// function of a run key and the iteration, so that an iteration run again
// from the boundary it started at (after a party restarted: docs/protocol.md,
// "Restarts") repeats exactly. Every value it opens or reveals (masked
// openings, each token's drawn topic to its owner) is then the value the
// interrupted attempt opened or revealed: no token is drawn twice from the
// same conditional, and no DP noise share is drawn twice.
//
// The run key K (32 bytes, drawn once per run from the party's
// PartyRandomSource::kIterationKey source) and the pseudo-random sharing keys
// the parties agree once at Prepare (the master keys) are SECRET and kept in
// the party's run state file (0600). For iteration i (0 = the initial counts,
// 1..T the iterations, T + 1 = publication):
//   engine stream      ChaCha20 keyed BLAKE2b-256_K("pplda/iteration/v1" ||
//                      "engine" || i (8 bytes, big endian))
//   DP noise stream    the same with "dp-noise"
//   shared keys        each master key k becomes BLAKE2b-256_k(
//                      "pplda/iteration-prss/v1" || i): every holder of k
//                      derives the same key
//   round numbers      continue after i * 2^16 (an iteration takes well under
//                      2^16 rounds; distinct and increasing across
//                      iterations, and within what a party's link accepts
//                      ahead of it, net/frame_inbox.h)
// An engine from EngineFor(i) is a fresh MpcEngine over these; noise() is
// rekeyed in place by BeginIteration(i) (objects holding it by reference
// see the new stream). NOT in here, and never to be: the Paillier
// encryption randomness and the decryption proofs' nonces (the OS CSPRNG).
// A repeated iteration's ciphertexts differ from the first attempt's while
// what is decrypted from them (plaintexts plus the engine's masks) does
// not; a proof's nonce replayed over a different ciphertext (another
// Fiat-Shamir challenge) would give away the key share (z = r + e x).
// Thread-safety: noise() may be drawn from concurrently (a mutex); the rest
// is one caller at a time.
#ifndef PPLDA_PARTY_ITERATION_RANDOMNESS_H_
#define PPLDA_PARTY_ITERATION_RANDOMNESS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/mpc_prg.h"
#include "crypto/mpc/transport.h"
#include "crypto/random/secure_rng.h"

namespace pplda::party {

using IterationKey = std::array<uint8_t, 32>;

// A SecureRng whose stream is replaced by Rekey (Fill is serialised).
class RekeyedStream final : public crypto::SecureRng {
 public:
  void Rekey(const IterationKey& key);
  // Requires a Rekey first (IterationRandomness rekeys at creation).
  void Fill(absl::Span<uint8_t> out) override;

 private:
  std::mutex mu_;
  std::unique_ptr<crypto::ExpandedRng> stream_;
};

class IterationRandomness {
 public:
  // A fresh run key from `key_source`; streams keyed for iteration 0.
  static std::unique_ptr<IterationRandomness> Draw(crypto::SecureRng& key_source);
  // The run key as key_bytes() gave it (InvalidArgument unless 32 bytes).
  static absl::StatusOr<std::unique_ptr<IterationRandomness>> FromKey(std::string_view key);
  ~IterationRandomness();

  // SECRET: for the party's run state file only.
  std::string key_bytes() const;

  // The master keys (none with a config that deals its randomness).
  void set_shared_keys(crypto::MpcEngine::SharedKeys keys) { shared_keys_ = std::move(keys); }
  const std::optional<crypto::MpcEngine::SharedKeys>& shared_keys() const { return shared_keys_; }

  // Rekeys noise() for `iteration`.
  void BeginIteration(int iteration);
  // BeginIteration, then EngineFor: everything a party needs to run
  // `iteration`.
  absl::StatusOr<std::unique_ptr<crypto::MpcEngine>> Begin(int iteration,
                                                           const crypto::MpcConfig& config,
                                                           crypto::PartyTransport& transport) {
    BeginIteration(iteration);
    return EngineFor(iteration, config, transport);
  }
  // A fresh engine for `iteration` over `transport` (which must outlive
  // it): its stream, shared keys derived from the master keys (required
  // when config.pseudo_random_sharing(): FailedPrecondition without them)
  // and round numbers, as in the header.
  absl::StatusOr<std::unique_ptr<crypto::MpcEngine>> EngineFor(int iteration,
                                                              const crypto::MpcConfig& config,
                                                              crypto::PartyTransport& transport) const;

  crypto::SecureRng& noise() { return noise_; }

 private:
  explicit IterationRandomness(const IterationKey& key);
  IterationKey StreamKey(std::string_view purpose, int iteration) const;

  IterationKey key_;
  std::optional<crypto::MpcEngine::SharedKeys> shared_keys_;
  RekeyedStream noise_;
};

// The first round number of `iteration`'s engine, minus one.
inline uint64_t RoundsBeforeIteration(int iteration) {
  return static_cast<uint64_t>(iteration) << 16;
}

// SharedKeys <-> bytes (sets, outgoing, incoming, 32 bytes each, with the
// counts as 4-byte big-endian prefixes), for the run state file. SECRET.
std::string SharedKeysToBytes(const crypto::MpcEngine::SharedKeys& keys);
absl::StatusOr<crypto::MpcEngine::SharedKeys> SharedKeysFromBytes(std::string_view bytes);

}  // namespace pplda::party

#endif  // PPLDA_PARTY_ITERATION_RANDOMNESS_H_

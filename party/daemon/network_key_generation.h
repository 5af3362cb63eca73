// GenerateKeyOverNetwork: dealer-free threshold Paillier key generation
// among a consortium's compute parties over the network
// (crypto/keygen/distributed_threshold_key.h has the protocol), `pplda keys
// generate --config party.toml`. Each party's operator runs it with the party's own
// config, at about the same time as the others and before the party's
// daemon starts (it listens on party.listen, as the daemon would): the
// parties link to each other exactly as in a run (mutual TLS, every peer's
// certificate pinned by the consortium file; run id "keygen-<bits>"),
// generate N = pq with no one learning p, q or phi(N), derive the threshold
// decryption key, and each writes its own share to party.key_share (0600)
// and the public key to public.key in the same folder (0644; or
// options.public_key_path). The
// coordinator takes no part: its operator copies public.key from any party;
// every party prints the key's fingerprint, which the operators compare.
// The key records KeyOrigin::kDistributed, and every model trained with it
// says so.
// Errors: AlreadyExists (naming the file) when the share or public.key is
// there already, before anything is generated; FailedPrecondition for a
// consortium with relay-mode parties (their links need the coordinator's
// relay; not supported by this command); Unavailable / DeadlineExceeded
// naming the peer that did not connect or answer within `wait`; the
// protocol's errors.
#ifndef PPLDA_PARTY_DAEMON_NETWORK_KEY_GENERATION_H_
#define PPLDA_PARTY_DAEMON_NETWORK_KEY_GENERATION_H_

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

#include "absl/status/statusor.h"
#include "crypto/keygen/shared_modulus.h"

namespace pplda::party {

struct NetworkKeyGenerationOptions {
  int modulus_bits = 2048;
  // How long to wait for the other parties to connect, and for each of
  // their messages.
  std::chrono::seconds wait{900};
  // Where the public key goes; empty: public.key next to party.key_share.
  std::filesystem::path public_key_path;
};

struct NetworkKeyGenerationResult {
  std::filesystem::path share_path;
  std::filesystem::path public_key_path;
  std::string fingerprint;  // hex of the public key's BLAKE2b-256 fingerprint
  int party = 0;            // 1-based share index
  int num_parties = 0;
  int threshold = 0;  // partial decryptions a decryption needs
  crypto::SharedModulusStats stats;
  double seconds = 0;
  uint64_t bytes_sent = 0;  // MPC payload bytes this party sent
  uint64_t rounds = 0;
};

absl::StatusOr<NetworkKeyGenerationResult> GenerateKeyOverNetwork(
    const std::filesystem::path& config_path, const NetworkKeyGenerationOptions& options);

}  // namespace pplda::party

#endif  // PPLDA_PARTY_DAEMON_NETWORK_KEY_GENERATION_H_

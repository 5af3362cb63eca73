// CoordinatorDaemonConfig: the coordinator daemon's TOML config
// (coordinator.toml), validated at start; errors name the file and the key.
//
//   [coordinator]
//   name = "coordinator"            # this participant in the consortium file
//   consortium = "consortium.toml"
//   vocabulary = "vocabulary.txt"   # the consortium's public vocabulary
//   public_key = "keys/public.key"  # the threshold Paillier public key (no secret)
//   state_dir = "state/coordinator" # published models per run
//   listen = "0.0.0.0:7100"         # Coordinator service (+ health), mutual TLS
//   metrics_listen = "127.0.0.1:9100"   # optional
//   threads = 0
//   party_call_timeout_seconds = 3600   # one step of one party
//   party_restart_wait_seconds = 600    # a run waits this long for a lost
//                                   # party to come back (0 = fail at once):
//                                   # it resumes from its last saved boundary,
//                                   # or starts over from Join before the first
//   relay_capture = "audit/relay.capture"   # optional, relay mode: every
//                                   # message the relay reads from or writes to a
//                                   # party's stream, as the coordinator sees it
//                                   # (net/capture_file.h; 0600), to audit that it
//                                   # carries sealed boxes and no plaintext share
//   [tls]
//   ca = "certs/ca.pem"  cert = "certs/coordinator.pem"  key = "certs/coordinator.key"
#ifndef PPLDA_COORDINATOR_DAEMON_COORDINATOR_DAEMON_CONFIG_H_
#define PPLDA_COORDINATOR_DAEMON_COORDINATOR_DAEMON_CONFIG_H_

#include <filesystem>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "net/common_daemon_config.h"

namespace pplda::coordinator {

// name, consortium, vocabulary, state_dir, metrics_listen, threads and the
// [tls] files: net::CommonDaemonConfig's.
struct CoordinatorDaemonConfig : net::CommonDaemonConfig {
  std::filesystem::path public_key;
  std::string listen;
  int party_call_timeout_seconds = 3600;
  int party_restart_wait_seconds = 600;
  std::optional<std::filesystem::path> relay_capture;
};

absl::StatusOr<CoordinatorDaemonConfig> LoadCoordinatorDaemonConfig(
    const std::filesystem::path& path);

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_DAEMON_COORDINATOR_DAEMON_CONFIG_H_

// RunCoordinatorDaemon: `pplda-coordinator --config coordinator.toml`.
// Loads and validates everything at start (config, consortium file, TLS
// identity pinned in it, the public key whose party count matches the
// consortium, the vocabulary), serves the Coordinator service and the gRPC
// health service on one mutual-TLS port and /metrics + /healthz over HTTP
// when configured, until SIGTERM or SIGINT: then an active run is aborted
// at every party and the server stops.
#ifndef PPLDA_COORDINATOR_DAEMON_COORDINATOR_DAEMON_H_
#define PPLDA_COORDINATOR_DAEMON_COORDINATOR_DAEMON_H_

#include <filesystem>

#include "absl/status/status.h"

namespace pplda::coordinator {

absl::Status RunCoordinatorDaemon(const std::filesystem::path& config_path);

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_DAEMON_COORDINATOR_DAEMON_H_

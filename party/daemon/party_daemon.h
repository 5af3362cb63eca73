// RunPartyDaemon: `pplda-party --config party.toml`. Loads and validates
// everything at start (config, consortium file, TLS identity pinned in it,
// key share 0600 of this party, the consortium vocabulary, this party's
// documents mapped to it), then serves PartyControl, PartyLink and the gRPC
// health service on one mutual-TLS port, and /metrics + /healthz over HTTP
// when configured, until SIGTERM or SIGINT: then the active run's links are
// shut down and the server stops (in-flight calls get 5 s).
// Errors name the file or key at fault; nothing secret is logged.
#ifndef PPLDA_PARTY_DAEMON_PARTY_DAEMON_H_
#define PPLDA_PARTY_DAEMON_PARTY_DAEMON_H_

#include <filesystem>

#include "absl/status/status.h"

namespace pplda::party {

absl::Status RunPartyDaemon(const std::filesystem::path& config_path);

}  // namespace pplda::party

#endif  // PPLDA_PARTY_DAEMON_PARTY_DAEMON_H_

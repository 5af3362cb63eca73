// CommonDaemonConfig: the settings every daemon's TOML config has, in the
// daemon's own table (party.toml's [party], coordinator.toml's
// [coordinator]) and in [tls]:
//
//   name = "alpha"                    # this participant in the consortium file
//   consortium = "consortium.toml"
//   vocabulary = "vocabulary.txt"     # the consortium's public vocabulary
//   state_dir = "state/alpha"
//   metrics_listen = "127.0.0.1:9101" # optional: /metrics, /healthz
//   threads = 0                       # 0 = all cores; in [0, 1024]
//   [tls]
//   ca = "certs/ca.pem"  cert = "certs/alpha.pem"  key = "certs/alpha.key"
//
// Every key is required except metrics_listen and threads; paths are
// resolved against the config file's folder. Errors are DaemonConfigFile's
// (net/daemon_config_file.h), naming the file and the key.
#ifndef PPLDA_NET_COMMON_DAEMON_CONFIG_H_
#define PPLDA_NET_COMMON_DAEMON_CONFIG_H_

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "net/daemon_config_file.h"

namespace pplda::net {

// A daemon's config (party/daemon/party_daemon_config.h,
// coordinator/daemon/coordinator_daemon_config.h) derives from this.
struct CommonDaemonConfig {
  std::string name;
  std::filesystem::path consortium, vocabulary, state_dir;
  std::optional<std::string> metrics_listen;
  int threads = 0;
  std::filesystem::path tls_ca, tls_cert, tls_key;
};

// Reads the settings above from `table` and [tls] of `file` into `config`
// (the daemon's own config, the rest of it untouched); the first missing or
// invalid key is the error.
absl::Status ReadCommonDaemonConfig(const DaemonConfigFile& file, std::string_view table,
                                    CommonDaemonConfig& config);

}  // namespace pplda::net

#endif  // PPLDA_NET_COMMON_DAEMON_CONFIG_H_

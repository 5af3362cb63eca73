#include "net/common_daemon_config.h"

#include <cstdint>

#include "base/status_macros.h"

namespace pplda::net {

absl::Status ReadCommonDaemonConfig(const DaemonConfigFile& file, std::string_view table,
                                    CommonDaemonConfig& config) {
  ASSIGN_OR_RETURN(config.name, file.String(table, "name"));
  ASSIGN_OR_RETURN(config.consortium, file.Path(table, "consortium"));
  ASSIGN_OR_RETURN(config.vocabulary, file.Path(table, "vocabulary"));
  ASSIGN_OR_RETURN(config.state_dir, file.Path(table, "state_dir"));
  ASSIGN_OR_RETURN(config.metrics_listen, file.OptionalAddress(table, "metrics_listen"));
  ASSIGN_OR_RETURN(int64_t threads, file.IntOr(table, "threads", 0, 0, 1024));
  config.threads = static_cast<int>(threads);
  ASSIGN_OR_RETURN(config.tls_ca, file.Path("tls", "ca"));
  ASSIGN_OR_RETURN(config.tls_cert, file.Path("tls", "cert"));
  ASSIGN_OR_RETURN(config.tls_key, file.Path("tls", "key"));
  return absl::OkStatus();
}

}  // namespace pplda::net

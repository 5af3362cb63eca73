#include "coordinator/daemon/coordinator_daemon_config.h"

#include "base/status_macros.h"
#include "net/common_daemon_config.h"
#include "net/daemon_config_file.h"

namespace pplda::coordinator {

absl::StatusOr<CoordinatorDaemonConfig> LoadCoordinatorDaemonConfig(
    const std::filesystem::path& path) {
  ASSIGN_OR_RETURN(net::DaemonConfigFile file,
                   net::DaemonConfigFile::Load(path, net::CoordinatorConfigSchema()));
  CoordinatorDaemonConfig c;
  RETURN_IF_ERROR(net::ReadCommonDaemonConfig(file, "coordinator", c));
  ASSIGN_OR_RETURN(c.public_key, file.Path("coordinator", "public_key"));
  ASSIGN_OR_RETURN(c.listen, file.Address("coordinator", "listen"));
  ASSIGN_OR_RETURN(int64_t timeout,
                   file.IntOr("coordinator", "party_call_timeout_seconds", 3600, 1, 7 * 86400));
  c.party_call_timeout_seconds = static_cast<int>(timeout);
  ASSIGN_OR_RETURN(int64_t restart_wait,
                   file.IntOr("coordinator", "party_restart_wait_seconds", 600, 0, 7 * 86400));
  c.party_restart_wait_seconds = static_cast<int>(restart_wait);
  ASSIGN_OR_RETURN(c.relay_capture, file.OptionalPath("coordinator", "relay_capture"));
  return c;
}

}  // namespace pplda::coordinator

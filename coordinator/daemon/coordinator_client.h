// CoordinatorClient: the run CLI's connection to the coordinator daemon
// (`pplda run ...`), over mutual TLS as one participant of the consortium:
// FromConfig reads that participant's daemon config (party.toml or
// coordinator.toml: its name, the consortium file and its [tls] files),
// pins the coordinator named in the consortium file and dials its address.
// Every call sends a WireHeader (protocol version, run id, sender) and
// returns the coordinator's status unchanged (Unavailable with the address
// when the coordinator does not answer).
// Thread-safety: one caller at a time.
#ifndef PPLDA_COORDINATOR_DAEMON_COORDINATOR_CLIENT_H_
#define PPLDA_COORDINATOR_DAEMON_COORDINATOR_CLIENT_H_

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "proto/coordinator_service.pb.h"

namespace pplda::coordinator {

class CoordinatorClient {
 public:
  static absl::StatusOr<std::unique_ptr<CoordinatorClient>> FromConfig(
      const std::filesystem::path& config);
  virtual ~CoordinatorClient() = default;

  virtual const std::string& coordinator_address() const = 0;
  virtual absl::StatusOr<std::string> Start(const pplda::v1::RunParameters& parameters) = 0;
  virtual absl::StatusOr<pplda::v1::RunStatus> Status(const std::string& run_id) = 0;
  // Calls on_status at every change until the run ends.
  virtual absl::Status Watch(const std::string& run_id,
                             const std::function<void(const pplda::v1::RunStatus&)>& on_status) = 0;
  virtual absl::StatusOr<std::string> Result(const std::string& run_id) = 0;
  virtual absl::Status Cancel(const std::string& run_id, const std::string& reason) = 0;
};

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_DAEMON_COORDINATOR_CLIENT_H_

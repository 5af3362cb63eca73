// RunStore: what the coordinator daemon keeps of its runs on disk, one
// folder a run, STATE/runs/<run id>/ (docs/operations.md, "Coordinator
// restarts"):
//   parameters.pb   the run's parameters as started (a start over reads them)
//   start           the number of the run's current start (absent: 1); the
//                   parties know start s > 1 as "<run id>.start<s>"
//   joined-starts   how many starts got past Join (each may debit the data
//                   holders' privacy ledgers); at most kMaxJoinedStarts
//   run-state.pb    the last saved iteration boundary (protocol/run_state_file.h)
//   model.json      the published model
//   ended           why a run ended without a model; it is never resumed
// Run ids sort by their start time, so the newest run is the largest id.
// Thread-safety: none needed beyond the file system's: every call is one
// read or one atomic write of one file.
#ifndef PPLDA_COORDINATOR_DAEMON_RUN_STORE_H_
#define PPLDA_COORDINATOR_DAEMON_RUN_STORE_H_

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "proto/party_control_service.pb.h"
#include "proto/run_state.pb.h"

namespace pplda::coordinator {

class RunStore {
 public:
  static constexpr int kMaxJoinedStarts = 3;

  // participant: the coordinator's name, checked in every boundary it reads.
  RunStore(std::filesystem::path state_dir, std::string participant);

  // The id the parties know start `start` (>= 1) of run `run_id` by.
  static std::string SessionId(const std::string& run_id, int start);

  // A new run's folder with its parameters (PermissionDenied naming the
  // folder when it cannot be made).
  absl::Status CreateRun(const std::string& run_id,
                         const pplda::v1::RunParameters& parameters) const;
  absl::StatusOr<pplda::v1::RunParameters> StartParameters(const std::string& run_id) const;

  int CurrentStart(const std::string& run_id) const;
  std::string CurrentSession(const std::string& run_id) const;
  absl::Status RecordStart(const std::string& run_id, int start) const;
  int JoinedStarts(const std::string& run_id) const;
  absl::Status RecordJoinedStart(const std::string& run_id) const;
  // Whether another start may get past Join (logged when not).
  bool MayStartAgain(const std::string& run_id) const;

  // The run's last saved boundary, checked to be its current session's.
  bool HasBoundary(const std::string& run_id) const;
  absl::StatusOr<pplda::v1::CoordinatorRunState> ReadBoundary(const std::string& run_id) const;
  int SavedBoundary(const std::string& run_id) const;  // -1: none that reads
  absl::Status WriteBoundary(const std::string& run_id,
                             const pplda::v1::CoordinatorRunState& state) const;

  // Returns model.json's path.
  absl::StatusOr<std::filesystem::path> WriteModel(const std::string& run_id,
                                                   const std::string& json) const;
  void MarkEnded(const std::string& run_id, const std::string& reason) const;

  // How an ended run ended: its model, or why it failed.
  struct Ended {
    bool published = false;
    std::string model_json;
    std::string error;
  };
  // nullopt: the model is there but does not read.
  std::optional<Ended> ReadEnded(const std::string& run_id) const;

  // Every run folder's id (sorted), and those with neither a model nor an
  // `ended` marker.
  struct Runs {
    std::vector<std::string> all;
    std::vector<std::string> unfinished;
  };
  Runs ListRuns() const;

 private:
  std::filesystem::path Dir(const std::string& run_id) const;
  int ReadCounter(const std::string& run_id, const char* file, int fallback) const;

  std::filesystem::path state_dir_;
  std::string participant_;
};

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_DAEMON_RUN_STORE_H_

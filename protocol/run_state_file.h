// Run state files (proto/run_state.proto): each participant's state of a
// run at an iteration boundary, in STATE_DIR/runs/<run id>/run-state.pb,
// written atomically (temporary file, fsync, rename: a crash leaves the
// previous complete file) with mode 0600, inside a versioned envelope with a
// BLAKE2b-256 checksum of the state.
//
// ReadRunState refuses, naming the file:
//   NotFound            no such file
//   DataLoss            not a run state file, truncated or corrupt (the
//                       envelope or the state does not parse, or the
//                       checksum does not match)
//   FailedPrecondition  a newer format than this build reads; a state of
//                       another kind, run or participant than asked for
// and never changes the file. Thread-safe (no shared state).
#ifndef PPLDA_PROTOCOL_RUN_STATE_FILE_H_
#define PPLDA_PROTOCOL_RUN_STATE_FILE_H_

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "proto/party_control_service.pb.h"
#include "proto/run_state.pb.h"

namespace pplda::protocol {

inline constexpr uint32_t kRunStateFormatVersion = 1;

using PlanDigest = std::array<uint8_t, 32>;

// BLAKE2b-256 of (run id, parameters, every party's token total): what the
// parties compare at Prepare, and what every run state file names.
PlanDigest ComputePlanDigest(const std::string& run_id, const pplda::v1::RunParameters& parameters,
                             absl::Span<const int64_t> tokens_per_party);

// STATE_DIR/runs/<run id>/run-state.pb (`run_id` must be a safe file name:
// the daemons refuse other run ids at Join).
std::filesystem::path RunStatePath(const std::filesystem::path& state_dir,
                                   const std::string& run_id);

// STATE_DIR/runs/<run id>/run-state.previous.pb: a party keeps the boundary
// before its latest too, since its peers may not have reached the latest
// when a party restarts (PartySession::Resume).
std::filesystem::path PreviousRunStatePath(const std::filesystem::path& state_dir,
                                           const std::string& run_id);

// Replaces `path` (its folder must exist) with `state`, 0600.
absl::Status WriteRunState(const std::filesystem::path& path,
                           const pplda::v1::PartyRunState& state);
absl::Status WriteRunState(const std::filesystem::path& path,
                           const pplda::v1::CoordinatorRunState& state);

// The state in `path`, checked to be of run `run_id`, written by
// `participant`.
absl::StatusOr<pplda::v1::PartyRunState> ReadPartyRunState(const std::filesystem::path& path,
                                                           const std::string& run_id,
                                                           const std::string& participant);
absl::StatusOr<pplda::v1::CoordinatorRunState> ReadCoordinatorRunState(
    const std::filesystem::path& path, const std::string& run_id, const std::string& participant);

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_RUN_STATE_FILE_H_

#include "coordinator/daemon/run_store.h"

#include <algorithm>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/atomic_file.h"
#include "base/status_macros.h"
#include "lda/text_file.h"
#include "protocol/run_state_file.h"
#include "spdlog/spdlog.h"

namespace pplda::coordinator {
namespace {

constexpr char kParametersFile[] = "parameters.pb";
constexpr char kStartFile[] = "start";
constexpr char kJoinedStartsFile[] = "joined-starts";
constexpr char kModelFile[] = "model.json";
constexpr char kEndedFile[] = "ended";

absl::Status CreateFolder(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create ", dir.string(), ": ", ec.message()));
  }
  return absl::OkStatus();
}

}  // namespace

RunStore::RunStore(std::filesystem::path state_dir, std::string participant)
    : state_dir_(std::move(state_dir)), participant_(std::move(participant)) {}

std::string RunStore::SessionId(const std::string& run_id, int start) {
  return start <= 1 ? run_id : absl::StrCat(run_id, ".start", start);
}

std::filesystem::path RunStore::Dir(const std::string& run_id) const {
  return state_dir_ / "runs" / run_id;
}

absl::Status RunStore::CreateRun(const std::string& run_id,
                                 const pplda::v1::RunParameters& parameters) const {
  RETURN_IF_ERROR(CreateFolder(Dir(run_id)));
  return WriteFileAtomically(Dir(run_id) / kParametersFile, parameters.SerializeAsString());
}

absl::StatusOr<pplda::v1::RunParameters> RunStore::StartParameters(
    const std::string& run_id) const {
  const std::filesystem::path path = Dir(run_id) / kParametersFile;
  ASSIGN_OR_RETURN(const std::string bytes, lda::ReadFileBytes(path.string(), int64_t{1} << 20));
  pplda::v1::RunParameters parameters;
  if (!parameters.ParseFromString(bytes)) {
    return absl::DataLossError(absl::StrCat(path.string(), " does not hold run parameters"));
  }
  return parameters;
}

// A small counter file of the run (absent or unreadable: `fallback`).
int RunStore::ReadCounter(const std::string& run_id, const char* file, int fallback) const {
  absl::StatusOr<std::string> text = lda::ReadFileBytes((Dir(run_id) / file).string(), 64);
  int value = 0;
  if (text.ok() && absl::SimpleAtoi(absl::StripAsciiWhitespace(*text), &value) &&
      value >= fallback) {
    return value;
  }
  return fallback;
}

int RunStore::CurrentStart(const std::string& run_id) const {
  return ReadCounter(run_id, kStartFile, 1);
}

std::string RunStore::CurrentSession(const std::string& run_id) const {
  return SessionId(run_id, CurrentStart(run_id));
}

absl::Status RunStore::RecordStart(const std::string& run_id, int start) const {
  return WriteFileAtomically(Dir(run_id) / kStartFile, absl::StrCat(start, "\n"));
}

int RunStore::JoinedStarts(const std::string& run_id) const {
  return ReadCounter(run_id, kJoinedStartsFile, 0);
}

absl::Status RunStore::RecordJoinedStart(const std::string& run_id) const {
  return WriteFileAtomically(Dir(run_id) / kJoinedStartsFile,
                             absl::StrCat(JoinedStarts(run_id) + 1, "\n"));
}

bool RunStore::MayStartAgain(const std::string& run_id) const {
  if (JoinedStarts(run_id) < kMaxJoinedStarts) return true;
  spdlog::error(
      "run {}: not started over: {} of its starts got past Join already (at most {}; "
      "each may debit the data holders' privacy ledgers)",
      run_id, JoinedStarts(run_id), kMaxJoinedStarts);
  return false;
}

bool RunStore::HasBoundary(const std::string& run_id) const {
  return std::filesystem::exists(protocol::RunStatePath(state_dir_, run_id));
}

absl::StatusOr<pplda::v1::CoordinatorRunState> RunStore::ReadBoundary(
    const std::string& run_id) const {
  return protocol::ReadCoordinatorRunState(protocol::RunStatePath(state_dir_, run_id),
                                           CurrentSession(run_id), participant_);
}

int RunStore::SavedBoundary(const std::string& run_id) const {
  absl::StatusOr<pplda::v1::CoordinatorRunState> state = ReadBoundary(run_id);
  return state.ok() ? state->header().iteration() : -1;
}

absl::Status RunStore::WriteBoundary(const std::string& run_id,
                                     const pplda::v1::CoordinatorRunState& state) const {
  const std::filesystem::path path = protocol::RunStatePath(state_dir_, run_id);
  RETURN_IF_ERROR(CreateFolder(path.parent_path()));
  return protocol::WriteRunState(path, state);
}

absl::StatusOr<std::filesystem::path> RunStore::WriteModel(const std::string& run_id,
                                                           const std::string& json) const {
  RETURN_IF_ERROR(CreateFolder(Dir(run_id)));
  RETURN_IF_ERROR(WriteFileAtomically(Dir(run_id) / kModelFile, json));
  return Dir(run_id) / kModelFile;
}

void RunStore::MarkEnded(const std::string& run_id, const std::string& reason) const {
  std::error_code ec;
  if (!std::filesystem::exists(Dir(run_id), ec)) return;
  const absl::Status written = WriteFileAtomically(Dir(run_id) / kEndedFile, reason + "\n");
  if (!written.ok()) spdlog::warn("run {}: {}", run_id, written.ToString());
}

std::optional<RunStore::Ended> RunStore::ReadEnded(const std::string& run_id) const {
  Ended ended;
  if (std::filesystem::exists(Dir(run_id) / kModelFile)) {
    absl::StatusOr<std::string> model =
        lda::ReadFileBytes((Dir(run_id) / kModelFile).string(), int64_t{1} << 32);
    if (!model.ok()) return std::nullopt;
    ended.published = true;
    ended.model_json = *std::move(model);
    return ended;
  }
  absl::StatusOr<std::string> reason =
      lda::ReadFileBytes((Dir(run_id) / kEndedFile).string(), int64_t{1} << 20);
  ended.error =
      reason.ok() ? std::string(absl::StripTrailingAsciiWhitespace(*reason)) : std::string("ended");
  return ended;
}

RunStore::Runs RunStore::ListRuns() const {
  Runs runs;
  const std::filesystem::path folder = state_dir_ / "runs";
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) return runs;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
    if (!entry.is_directory()) continue;
    const std::filesystem::path dir = entry.path();
    runs.all.push_back(dir.filename().string());
    if (!std::filesystem::exists(dir / kModelFile) && !std::filesystem::exists(dir / kEndedFile)) {
      runs.unfinished.push_back(dir.filename().string());
    }
  }
  std::sort(runs.all.begin(), runs.all.end());
  std::sort(runs.unfinished.begin(), runs.unfinished.end());
  return runs;
}

}  // namespace pplda::coordinator

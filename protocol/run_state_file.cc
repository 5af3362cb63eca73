#include "protocol/run_state_file.h"

#include <sodium.h>

#include <fstream>
#include <sstream>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "base/atomic_file.h"
#include "base/status_macros.h"

namespace pplda::protocol {
namespace {

constexpr char kMagic[] = "pplda run state";

std::string Blake2b256(std::string_view bytes) {
  std::string out(crypto_generichash_BYTES, '\0');
  crypto_generichash(reinterpret_cast<unsigned char*>(out.data()), out.size(),
                     reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), nullptr,
                     0);
  return out;
}

absl::Status Write(const std::filesystem::path& path, std::string kind,
                   const google::protobuf::Message& state) {
  pplda::v1::RunStateFile file;
  file.set_magic(kMagic);
  file.set_format_version(kRunStateFormatVersion);
  file.set_kind(std::move(kind));
  file.set_state(state.SerializeAsString());
  file.set_checksum(Blake2b256(file.state()));
  std::string bytes = file.SerializeAsString();
  const absl::Status written = WriteFileAtomically(path, bytes, FileMode::kPrivate);
  // A party's state holds secrets (its topics and per-iteration keys).
  sodium_memzero(bytes.data(), bytes.size());
  sodium_memzero(file.mutable_state()->data(), file.state().size());
  return written;
}

// The envelope's state, checked; DataLoss / FailedPrecondition as the
// header says.
absl::StatusOr<std::string> ReadEnvelope(const std::filesystem::path& path, std::string_view kind) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(absl::StrCat("run state file ", path.string(), ": not found"));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  const std::string what = absl::StrCat("run state file ", path.string());
  pplda::v1::RunStateFile file;
  if (!file.ParseFromString(bytes.str()) || file.magic() != kMagic) {
    return absl::DataLossError(absl::StrCat(what, ": not a run state file (corrupt or truncated)"));
  }
  if (file.format_version() > kRunStateFormatVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat(what, ": format ", file.format_version(), " is newer than this pplda reads (",
                     kRunStateFormatVersion, "); it was written by a later version"));
  }
  if (file.checksum() != Blake2b256(file.state())) {
    return absl::DataLossError(absl::StrCat(what, ": checksum mismatch (corrupt or truncated)"));
  }
  if (file.kind() != kind) {
    return absl::FailedPreconditionError(absl::StrCat(
        what, ": holds a ", file.kind(), " state, expected a ", std::string(kind), " state"));
  }
  return std::move(*file.mutable_state());
}

absl::Status CheckHeader(const std::filesystem::path& path, const pplda::v1::RunStateHeader& h,
                         const std::string& run_id, const std::string& participant) {
  if (h.run_id() != run_id) {
    return absl::FailedPreconditionError(absl::StrCat("run state file ", path.string(),
                                                      ": belongs to run '", h.run_id(), "', not '",
                                                      run_id, "'"));
  }
  if (h.participant() != participant) {
    return absl::FailedPreconditionError(absl::StrCat("run state file ", path.string(),
                                                      ": written by '", h.participant(), "', not '",
                                                      participant, "'"));
  }
  return absl::OkStatus();
}

template <typename State>
absl::StatusOr<State> Read(const std::filesystem::path& path, std::string_view kind,
                           const std::string& run_id, const std::string& participant) {
  ASSIGN_OR_RETURN(std::string bytes, ReadEnvelope(path, kind));
  State state;
  const bool parsed = state.ParseFromString(bytes);
  sodium_memzero(bytes.data(), bytes.size());
  if (!parsed) {
    return absl::DataLossError(absl::StrCat("run state file ", path.string(), ": the ",
                                            std::string(kind), " state does not parse"));
  }
  RETURN_IF_ERROR(CheckHeader(path, state.header(), run_id, participant));
  return state;
}

}  // namespace

PlanDigest ComputePlanDigest(const std::string& run_id, const pplda::v1::RunParameters& parameters,
                             absl::Span<const int64_t> tokens_per_party) {
  crypto_generichash_state state;
  PlanDigest digest{};
  crypto_generichash_init(&state, nullptr, 0, digest.size());
  const std::string params = parameters.SerializeAsString();
  for (const std::string* s : {&run_id, &params}) {
    const uint64_t size = s->size();
    crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(&size), sizeof(size));
    crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(s->data()), s->size());
  }
  for (int64_t t : tokens_per_party) {
    crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(&t), sizeof(t));
  }
  crypto_generichash_final(&state, digest.data(), digest.size());
  return digest;
}

std::filesystem::path RunStatePath(const std::filesystem::path& state_dir,
                                   const std::string& run_id) {
  return state_dir / "runs" / run_id / "run-state.pb";
}

std::filesystem::path PreviousRunStatePath(const std::filesystem::path& state_dir,
                                           const std::string& run_id) {
  return state_dir / "runs" / run_id / "run-state.previous.pb";
}

absl::Status WriteRunState(const std::filesystem::path& path,
                           const pplda::v1::PartyRunState& state) {
  return Write(path, "party", state);
}

absl::Status WriteRunState(const std::filesystem::path& path,
                           const pplda::v1::CoordinatorRunState& state) {
  return Write(path, "coordinator", state);
}

absl::StatusOr<pplda::v1::PartyRunState> ReadPartyRunState(const std::filesystem::path& path,
                                                           const std::string& run_id,
                                                           const std::string& participant) {
  return Read<pplda::v1::PartyRunState>(path, "party", run_id, participant);
}

absl::StatusOr<pplda::v1::CoordinatorRunState> ReadCoordinatorRunState(
    const std::filesystem::path& path, const std::string& run_id, const std::string& participant) {
  return Read<pplda::v1::CoordinatorRunState>(path, "coordinator", run_id, participant);
}

}  // namespace pplda::protocol

// DaemonConfigFile: reading a daemon's TOML config (party.toml,
// coordinator.toml, the run CLI's client.toml) with every error naming the
// file and the key ("party.toml: tls.key: missing"). Tables and keys not
// declared by the caller are refused (a typo must not silently drop a
// setting). Relative paths are resolved against the config file's folder.
// Errors: NotFound for an unreadable file; InvalidArgument otherwise.
// Thread-safety: one thread per object.
#ifndef PPLDA_NET_DAEMON_CONFIG_FILE_H_
#define PPLDA_NET_DAEMON_CONFIG_FILE_H_

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace pplda::net {

using ConfigSchema = std::map<std::string, std::vector<std::string>>;

// The tables and keys of party.toml and coordinator.toml: one list each,
// used by the daemons and by the run CLI (which reads either file).
const ConfigSchema& PartyConfigSchema();
const ConfigSchema& CoordinatorConfigSchema();

class DaemonConfigFile {
 public:
  // `schema`: table name -> allowed keys; every other table or key is refused.
  static absl::StatusOr<DaemonConfigFile> Load(
      const std::filesystem::path& path, const std::map<std::string, std::vector<std::string>>& schema);
  static absl::StatusOr<DaemonConfigFile> Parse(
      std::string_view text, const std::filesystem::path& path,
      const std::map<std::string, std::vector<std::string>>& schema);
  ~DaemonConfigFile();
  DaemonConfigFile(DaemonConfigFile&&) noexcept;
  DaemonConfigFile& operator=(DaemonConfigFile&&) noexcept;

  // "table.key" values.
  absl::StatusOr<std::string> String(std::string_view table, std::string_view key) const;
  absl::StatusOr<std::string> StringOr(std::string_view table, std::string_view key,
                                       std::string fallback) const;
  absl::StatusOr<int64_t> IntOr(std::string_view table, std::string_view key, int64_t fallback,
                                int64_t min, int64_t max) const;
  absl::StatusOr<std::optional<int64_t>> OptionalInt(std::string_view table, std::string_view key,
                                                     int64_t min, int64_t max) const;
  // A TOML float or integer in [min, max]; nullopt when absent.
  absl::StatusOr<std::optional<double>> OptionalDouble(std::string_view table,
                                                       std::string_view key, double min,
                                                       double max) const;
  // A TOML boolean (true / false), `fallback` when absent.
  absl::StatusOr<bool> BoolOr(std::string_view table, std::string_view key, bool fallback) const;
  // A path, resolved against the config file's folder.
  absl::StatusOr<std::filesystem::path> Path(std::string_view table, std::string_view key) const;
  absl::StatusOr<std::optional<std::filesystem::path>> OptionalPath(std::string_view table,
                                                                    std::string_view key) const;
  // A host:port.
  absl::StatusOr<std::string> Address(std::string_view table, std::string_view key) const;
  absl::StatusOr<std::optional<std::string>> OptionalAddress(std::string_view table,
                                                             std::string_view key) const;
  const std::filesystem::path& path() const { return path_; }

 private:
  struct Tables;
  DaemonConfigFile();
  absl::Status Error(std::string_view table, std::string_view key, std::string_view what) const;

  std::filesystem::path path_;
  std::unique_ptr<Tables> tables_;
};

}  // namespace pplda::net

#endif  // PPLDA_NET_DAEMON_CONFIG_FILE_H_

// CaptureFile: an append-only record file of traffic, for audits and tests:
// what the coordinator's relay reads and writes (coordinator.toml
// relay_capture), or, INSECURE and in test builds only, the plaintext
// payloads a party hands its transport (party.toml
// insecure_capture_sent_payloads). Each record is one tag byte, the length
// as a 4-byte little-endian integer, then that many bytes. Created 0600,
// replacing an old file, never through a symbolic link. After the first
// write error the file is left as it is and later records are dropped (the
// error is logged once): capturing never stops the traffic it watches.
// Thread-safety: Append may be called from any thread.
#ifndef PPLDA_NET_CAPTURE_FILE_H_
#define PPLDA_NET_CAPTURE_FILE_H_

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string_view>

#include "absl/status/statusor.h"

namespace pplda::net {

class CaptureFile {
 public:
  // PermissionDenied naming the path when it cannot be created.
  static absl::StatusOr<std::unique_ptr<CaptureFile>> Create(const std::filesystem::path& path);
  ~CaptureFile();
  CaptureFile(const CaptureFile&) = delete;
  CaptureFile& operator=(const CaptureFile&) = delete;

  void Append(char tag, std::string_view bytes);
  const std::filesystem::path& path() const { return path_; }

 private:
  CaptureFile(std::filesystem::path path, int fd) : path_(std::move(path)), fd_(fd) {}

  const std::filesystem::path path_;
  std::mutex mu_;
  int fd_;  // -1 after a write error
};

}  // namespace pplda::net

#endif  // PPLDA_NET_CAPTURE_FILE_H_

#include "net/capture_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"

namespace pplda::net {
namespace {

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

absl::StatusOr<std::unique_ptr<CaptureFile>> CaptureFile::Create(
    const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create the capture file ", path.string(), ": ", std::strerror(errno)));
  }
  ::fchmod(fd, 0600);  // an existing file keeps its mode under O_CREAT
  return std::unique_ptr<CaptureFile>(new CaptureFile(path, fd));
}

CaptureFile::~CaptureFile() {
  if (fd_ >= 0) ::close(fd_);
}

void CaptureFile::Append(char tag, std::string_view bytes) {
  std::string record(5, '\0');
  record[0] = tag;
  const uint32_t size = static_cast<uint32_t>(bytes.size());
  for (int i = 0; i < 4; ++i) record[1 + i] = static_cast<char>((size >> (8 * i)) & 0xff);
  record.append(bytes);
  std::lock_guard<std::mutex> lock(mu_);
  if (fd_ < 0) return;
  if (!WriteAll(fd_, record.data(), record.size())) {
    spdlog::error("capture file {}: write failed ({}); no further records are captured",
                  path_.string(), std::strerror(errno));
    ::close(fd_);
    fd_ = -1;
  }
}

}  // namespace pplda::net

#include "base/secret_file.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace pplda {
namespace {

absl::Status OpenError(int err, const std::filesystem::path& path, absl::string_view what) {
  if (err == ENOENT) {
    return absl::NotFoundError(absl::StrCat(what, " ", path.string(), ": no such file"));
  }
  if (err == ELOOP) {
    return absl::FailedPreconditionError(absl::StrCat(
        what, " ", path.string(),
        " is a symbolic link: give the file itself (a link could be pointed elsewhere)"));
  }
  return absl::PermissionDeniedError(
      absl::StrCat(what, " ", path.string(), ": cannot open: ", std::strerror(err)));
}

// The descriptor's file must be a regular file of at most `max_bytes`,
// private to its owner.
absl::Status CheckOpenFile(int fd, const std::filesystem::path& path, absl::string_view what,
                           size_t max_bytes) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return absl::PermissionDeniedError(
        absl::StrCat(what, " ", path.string(), ": cannot stat: ", std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " ", path.string(), " is not a regular file"));
  }
  if ((st.st_mode & 077) != 0) {
    return absl::FailedPreconditionError(
        absl::StrFormat("%s %s is accessible by group or others (mode %04o); run `chmod 600 %s`",
                        what, path.string(), st.st_mode & 07777, path.string()));
  }
  if (static_cast<size_t>(st.st_size) > max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(what, " ", path.string(), " has ", st.st_size,
                                                   " bytes, more than ", max_bytes));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> ReadSecretFile(const std::filesystem::path& path, absl::string_view what,
                                           size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return OpenError(errno, path, what);
  std::string out;
  absl::Status status = CheckOpenFile(fd, path, what, max_bytes);
  char buf[4096];
  while (status.ok()) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      status = absl::DataLossError(
          absl::StrCat(what, " ", path.string(), ": read failed: ", std::strerror(errno)));
    } else if (n == 0) {
      break;
    } else if (out.size() + static_cast<size_t>(n) > max_bytes) {
      status = absl::InvalidArgumentError(
          absl::StrCat(what, " ", path.string(), " grew beyond ", max_bytes, " bytes"));
    } else {
      out.append(buf, static_cast<size_t>(n));
    }
  }
  ::close(fd);
  explicit_bzero(buf, sizeof buf);
  if (!status.ok()) {
    explicit_bzero(out.data(), out.size());
    return status;
  }
  return out;
}

}  // namespace pplda

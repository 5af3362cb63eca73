// ReadSecretFile: the bytes of a file that holds a secret (a TLS private
// key, a box secret key), read so that what is checked is what is read: the
// file is opened without following a symbolic link (O_NOFOLLOW), and its
// type and mode are checked on the open descriptor, not on the path (no
// window in which the path could be pointed elsewhere).
// Errors name `what` and the path: NotFound (no such file),
// FailedPrecondition (a symbolic link; group or other permission bits,
// with the chmod to run), InvalidArgument (not a regular file, or larger
// than `max_bytes`), PermissionDenied (cannot open), DataLoss (a failed
// read). The caller wipes the bytes once used.
#ifndef PPLDA_BASE_SECRET_FILE_H_
#define PPLDA_BASE_SECRET_FILE_H_

#include <cstddef>
#include <filesystem>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace pplda {

absl::StatusOr<std::string> ReadSecretFile(const std::filesystem::path& path, absl::string_view what,
                                           size_t max_bytes = 1 << 20);

}  // namespace pplda

#endif  // PPLDA_BASE_SECRET_FILE_H_

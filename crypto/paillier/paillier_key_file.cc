#include "crypto/paillier/paillier_key_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/atomic_file.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"
#include "crypto/paillier/paillier_serialization.h"

namespace pplda::crypto {
namespace {

absl::Status OsError(int err, const std::filesystem::path& path, std::string_view action) {
  const std::string msg =
      absl::StrCat("cannot ", std::string(action), " ", path.string(), ": ", std::strerror(err));
  switch (err) {
    case ENOENT:
      return absl::NotFoundError(msg);
    case EEXIST:
      return absl::AlreadyExistsError(
          absl::StrCat(msg, " (refusing to overwrite an existing key file)"));
    case EACCES:
    case EPERM:
      return absl::PermissionDeniedError(msg);
    case ELOOP:
      return absl::InvalidArgumentError(
          absl::StrCat(msg, " (key files must not be symbolic links)"));
    default:
      return absl::InternalError(msg);
  }
}

// Writes `bytes` to the new file `path` atomically with `mode`
// (base/atomic_file.h); an existing file (or symlink) is never replaced.
absl::Status WriteNewFile(const std::filesystem::path& path, const std::string& bytes,
                          FileMode mode) {
  absl::Status s = WriteFileAtomically(path, bytes, mode, Replace::kNever);
  if (absl::IsAlreadyExists(s)) {
    return absl::AlreadyExistsError(absl::StrCat(
        "cannot create ", path.string(),
        ": it exists (refusing to overwrite an existing key file)"));
  }
  return s;
}

// Reads a regular, non-symlink file of at most kMaxKeyFileBytes; if
// `private_only`, refuses files with any group/other permission bit.
absl::StatusOr<std::string> ReadKeyFileBytes(const std::filesystem::path& path,
                                             bool private_only) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return OsError(errno, path, "open");
  struct stat st;
  absl::Status status;
  if (::fstat(fd, &st) != 0) {
    status = OsError(errno, path, "stat");
  } else if (!S_ISREG(st.st_mode)) {
    status = absl::InvalidArgumentError(absl::StrCat(path.string(), " is not a regular file"));
  } else if (private_only && (st.st_mode & 077) != 0) {
    status = absl::PermissionDeniedError(absl::StrFormat(
        "key share file %s has mode %04o and is accessible to group or others; it must be "
        "private to its owner: run chmod 600 %s",
        path.string(), st.st_mode & 07777, path.string()));
  } else if (static_cast<size_t>(st.st_size) > kMaxKeyFileBytes) {
    status = absl::InvalidArgumentError(absl::StrCat(
        path.string(), " has ", st.st_size, " bytes, more than a key file can hold (",
        kMaxKeyFileBytes, ")"));
  }
  std::string bytes;
  if (status.ok()) {
    bytes.resize(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (status.ok() && done < bytes.size()) {
      const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) status = OsError(errno, path, "read");
      if (n == 0) status = absl::DataLossError(absl::StrCat(path.string(), " was truncated while reading"));
      if (n > 0) done += static_cast<size_t>(n);
    }
  }
  ::close(fd);
  if (!status.ok()) {
    WipeString(bytes);
    return status;
  }
  return bytes;
}

absl::Status Annotate(const absl::Status& s, const std::filesystem::path& path) {
  return absl::Status(s.code(), absl::StrCat(path.string(), ": ", s.message()));
}

}  // namespace

absl::Status WriteKeyShareFile(const std::filesystem::path& path, const PaillierKeyShare& share) {
  pplda::v1::PaillierKeyShare proto = KeyShareToProto(share);
  std::string bytes;
  const bool ok = proto.SerializeToString(&bytes);
  WipeKeyShareProto(proto);
  if (!ok) return absl::InternalError("cannot serialize the key share");
  absl::Status s = WriteNewFile(path, bytes, FileMode::kPrivate);
  WipeString(bytes);
  return s;
}

absl::StatusOr<PaillierKeyShare> ReadKeyShareFile(const std::filesystem::path& path) {
  ASSIGN_OR_RETURN(std::string bytes, ReadKeyFileBytes(path, /*private_only=*/true));
  pplda::v1::PaillierKeyShare proto;
  const bool parsed = proto.ParseFromString(bytes);
  WipeString(bytes);
  if (!parsed) {
    WipeKeyShareProto(proto);
    return absl::InvalidArgumentError(
        absl::StrCat(path.string(), " is not a pplda key share file (protobuf parse failed)"));
  }
  absl::StatusOr<PaillierKeyShare> share = KeyShareFromProto(proto);
  WipeKeyShareProto(proto);
  if (!share.ok()) return Annotate(share.status(), path);
  return share;
}

absl::Status WritePublicKeyFile(const std::filesystem::path& path, const ThresholdPublicKey& key) {
  std::string bytes;
  if (!ThresholdPublicKeyToProto(key).SerializeToString(&bytes)) {
    return absl::InternalError("cannot serialize the public key");
  }
  return WriteNewFile(path, bytes, FileMode::kPublic);
}

absl::StatusOr<ThresholdPublicKeyPtr> ReadPublicKeyFile(const std::filesystem::path& path) {
  ASSIGN_OR_RETURN(std::string bytes, ReadKeyFileBytes(path, /*private_only=*/false));
  pplda::v1::ThresholdPaillierPublicKey proto;
  if (!proto.ParseFromString(bytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path.string(), " is not a pplda public key file (protobuf parse failed)"));
  }
  absl::StatusOr<ThresholdPublicKeyPtr> key = ThresholdPublicKeyFromProto(proto);
  if (!key.ok()) return Annotate(key.status(), path);
  return key;
}

}  // namespace pplda::crypto

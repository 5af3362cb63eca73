// Key files: a party's SECRET key share and the consortium's public key,
// stored as binary PaillierKeyShare / ThresholdPaillierPublicKey messages
// (proto/paillier.proto). This is the only file I/O in crypto/.
//
// Key share files:
//  - Written atomically with mode 0600 (base/atomic_file.h: a temporary
//    file, fsync, then a rename that refuses an existing destination); an
//    existing file or symlink is never overwritten (AlreadyExists), and no
//    partly written key file is ever visible.
//  - Read only if the path is a regular file (not a symlink) whose mode
//    grants nothing to group or others (PermissionDenied otherwise, naming
//    the file, its mode and the chmod that fixes it), no larger than
//    kMaxKeyFileBytes (InvalidArgument), parsing as a key share whose share
//    matches its verification key (InvalidArgument naming the file).
//  - Every buffer that held the serialized share is wiped (sodium_memzero).
//    The share's value never appears in an error message or a log.
// Public key files: written with mode 0644, same checks otherwise except
// the permission check.
// Errors from the OS come back as the matching absl code with strerror text.
// Thread-safety: reentrant (no shared state).
#ifndef PPLDA_CRYPTO_PAILLIER_PAILLIER_KEY_FILE_H_
#define PPLDA_CRYPTO_PAILLIER_PAILLIER_KEY_FILE_H_

#include <cstddef>
#include <filesystem>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crypto/paillier/paillier_key_share.h"
#include "crypto/paillier/paillier_threshold_key.h"

namespace pplda::crypto {

inline constexpr size_t kMaxKeyFileBytes = size_t{1} << 20;

absl::Status WriteKeyShareFile(const std::filesystem::path& path, const PaillierKeyShare& share);
absl::StatusOr<PaillierKeyShare> ReadKeyShareFile(const std::filesystem::path& path);

absl::Status WritePublicKeyFile(const std::filesystem::path& path, const ThresholdPublicKey& key);
absl::StatusOr<ThresholdPublicKeyPtr> ReadPublicKeyFile(const std::filesystem::path& path);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PAILLIER_KEY_FILE_H_

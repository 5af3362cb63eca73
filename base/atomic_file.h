// Writing an output file atomically: the contents go to a temporary file in
// the destination's folder (".NAME.tmp-XXXXXX", created exclusively with the
// final mode), are fsync'ed, and the temporary file is renamed onto the
// destination, then the folder is fsync'ed. A reader, a crash or an
// interrupted run therefore sees either the old file or the complete new
// one, never a half-written file; on any error the temporary file is
// removed and the destination is untouched.
//
// Modes, set with fchmod (exactly, whatever the umask): kPublic is 0644,
// kPrivate 0600 (files that hold secrets or exact per-document statistics:
// key shares, topic mixtures, per-document audit figures). Replace::kNever
// refuses an existing destination (AlreadyExists; the check and the rename
// are one step, renameat2(RENAME_NOREPLACE), so a concurrent writer cannot
// be overwritten either).
//
// Errors name the destination path: NotFound when its folder does not
// exist, PermissionDenied when it cannot be written, AlreadyExists (kNever),
// InvalidArgument when the destination is a folder, DataLoss when a write,
// sync or rename fails midway. Thread-safe (no shared state; temporary names
// are unique).
#ifndef PPLDA_BASE_ATOMIC_FILE_H_
#define PPLDA_BASE_ATOMIC_FILE_H_

#include <filesystem>
#include <string_view>

#include "absl/status/status.h"

namespace pplda {

enum class FileMode { kPublic, kPrivate };
enum class Replace { kAllowed, kNever };

absl::Status WriteFileAtomically(const std::filesystem::path& path, std::string_view contents,
                                 FileMode mode = FileMode::kPublic,
                                 Replace replace = Replace::kAllowed);

}  // namespace pplda

#endif  // PPLDA_BASE_ATOMIC_FILE_H_

// Whole-file text I/O for the corpus readers and the prepared-corpus folder:
// size-limited reading with UTF-8 validation and line iteration (writing:
// base/atomic_file.h). Thread-safe (no state).
#ifndef PPLDA_LDA_TEXT_FILE_H_
#define PPLDA_LDA_TEXT_FILE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pplda::lda {

// Reads `path` whole. Errors: NotFound if it does not exist; InvalidArgument
// if it is not a regular file or is larger than max_bytes (the message names
// the file, its size and the limit); Internal on a read failure.
absl::StatusOr<std::string> ReadFileBytes(const std::string& path, int64_t max_bytes);

// ReadFileBytes plus UTF-8 validation: InvalidArgument naming `display_name`,
// the line and the byte offset of the first invalid sequence. A leading
// byte-order mark is removed.
absl::StatusOr<std::string> ReadUtf8File(const std::string& path, int64_t max_bytes,
                                         std::string_view display_name);

// Calls fn(line_number, line) for every line of `text` (1-based numbers;
// the '\n' and one trailing '\r' removed; no call for the empty remainder
// after a final '\n'). Stops at and returns the first error of fn.
absl::Status ForEachLine(std::string_view text,
                         const std::function<absl::Status(int64_t, std::string_view)>& fn);

// A short, printable excerpt of a line for error messages.
std::string LineExcerpt(std::string_view line);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_TEXT_FILE_H_

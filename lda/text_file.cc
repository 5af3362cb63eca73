#include "lda/text_file.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "lda/unicode_text.h"

namespace pplda::lda {

namespace fs = std::filesystem;

absl::StatusOr<std::string> ReadFileBytes(const std::string& path, int64_t max_bytes) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) return absl::NotFoundError(absl::StrCat(path, ": no such file"));
  if (!fs::is_regular_file(status)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a regular file"));
  }
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) return absl::InternalError(absl::StrCat(path, ": cannot get size: ", ec.message()));
  if (size > static_cast<uintmax_t>(max_bytes)) {
    return absl::InvalidArgumentError(absl::StrCat(path, " is ", size,
                                                   " bytes, more than the limit of ",
                                                   max_bytes, " bytes per file"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InternalError(absl::StrCat(path, ": cannot open for reading"));
  std::string bytes(size, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (static_cast<uintmax_t>(in.gcount()) != size) {
    return absl::InternalError(absl::StrCat(path, ": read ", in.gcount(), " of ", size,
                                            " bytes"));
  }
  return bytes;
}

absl::StatusOr<std::string> ReadUtf8File(const std::string& path, int64_t max_bytes,
                                         std::string_view display_name) {
  absl::StatusOr<std::string> bytes = ReadFileBytes(path, max_bytes);
  if (!bytes.ok()) return bytes;
  size_t bom = 0;
  if (std::string_view(*bytes).substr(0, kUtf8Bom.size()) == kUtf8Bom) {
    bom = kUtf8Bom.size();
    bytes->erase(0, bom);
  }
  if (auto bad = FindInvalidUtf8(*bytes)) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(display_name), ":", bad->line, ": invalid UTF-8 at byte offset ",
        bad->byte_offset + bom, " of the file (convert the file to UTF-8)"));
  }
  return bytes;
}

absl::Status ForEachLine(std::string_view text,
                         const std::function<absl::Status(int64_t, std::string_view)>& fn) {
  int64_t number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    absl::Status status = fn(++number, line);
    if (!status.ok()) return status;
    start = end + 1;
  }
  return absl::OkStatus();
}

std::string LineExcerpt(std::string_view line) {
  constexpr size_t kMax = 60;
  std::string excerpt =
      absl::CHexEscape(absl::string_view(line.data(), std::min(line.size(), kMax)));
  if (line.size() > kMax) excerpt += "...";
  return absl::StrCat("\"", excerpt, "\"");
}

}  // namespace pplda::lda

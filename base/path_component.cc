#include "base/path_component.h"

#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace pplda {

absl::Status CheckPathComponent(std::string_view name, std::string_view what) {
  const std::string shown =
      absl::StrCat(std::string(what), " '",
                   absl::CHexEscape(absl::string_view(name.data(), name.size())), "'");
  if (name.empty()) return absl::InvalidArgumentError(absl::StrCat(std::string(what), " is empty"));
  if (name == "." || name == "..") {
    return absl::InvalidArgumentError(
        absl::StrCat(shown, " is not allowed: it names a folder, not a file in it"));
  }
  if (name.size() > kMaxPathComponentBytes) {
    return absl::InvalidArgumentError(absl::StrCat(shown.substr(0, 80), "... is ", name.size(),
                                                   " bytes long; at most ",
                                                   kMaxPathComponentBytes, " are allowed"));
  }
  for (char c : name) {
    if (c == '/' || c == '\\') {
      return absl::InvalidArgumentError(absl::StrCat(
          shown, " holds '", std::string(1, c),
          "': it becomes a file or folder name and must stay inside its folder"));
    }
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return absl::InvalidArgumentError(
          absl::StrCat(shown, " holds a control character; use printable characters"));
    }
  }
  return absl::OkStatus();
}

}  // namespace pplda

#include "lda/warning_list.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace pplda::lda {

void AddCappedWarning(std::vector<std::string>* warnings, int64_t* dropped, std::string line) {
  if (static_cast<int>(warnings->size()) < kMaxReportWarnings) {
    warnings->push_back(std::move(line));
    return;
  }
  ++*dropped;
  std::string summary =
      absl::StrCat("... and ", *dropped, " more warning", *dropped == 1 ? "" : "s");
  if (static_cast<int>(warnings->size()) == kMaxReportWarnings) {
    warnings->push_back(std::move(summary));
  } else {
    warnings->back() = std::move(summary);
  }
}

}  // namespace pplda::lda

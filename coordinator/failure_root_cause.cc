#include "coordinator/failure_root_cause.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace pplda::coordinator {
namespace {

bool IsSecondary(absl::StatusCode code) {
  return code == absl::StatusCode::kAborted || code == absl::StatusCode::kCancelled;
}

// How many other failed parties' errors name party p.
int Mentions(const std::vector<absl::Status>& results, const std::vector<std::string>& names,
             int p) {
  int mentions = 0;
  for (size_t q = 0; q < results.size(); ++q) {
    if (static_cast<int>(q) != p && !results[q].ok() && NamesParty(results[q].message(), names[p])) {
      ++mentions;
    }
  }
  return mentions;
}

bool NamesAnotherParty(const std::vector<absl::Status>& results,
                       const std::vector<std::string>& names, int p) {
  for (size_t q = 0; q < names.size(); ++q) {
    if (static_cast<int>(q) != p && NamesParty(results[p].message(), names[q])) return true;
  }
  return false;
}

}  // namespace

bool NamesParty(absl::string_view message, absl::string_view name) {
  return absl::StrContains(message, absl::StrCat("(", name, ")")) ||
         absl::StrContains(message, absl::StrCat("(", name, " at "));
}

int RootCauseParty(const std::vector<absl::Status>& results,
                   const std::vector<std::string>& names) {
  const int n = static_cast<int>(results.size());
  int root = -1, root_mentions = 0, named = -1, primary = -1, any = -1;
  for (int p = 0; p < n; ++p) {
    if (results[p].ok()) continue;
    if (any < 0) any = p;
    if (primary < 0 && !IsSecondary(results[p].code())) primary = p;
    const int mentions = Mentions(results, names, p);
    if (mentions == 0) continue;
    if (named < 0) named = p;
    if (!NamesAnotherParty(results, names, p) && mentions > root_mentions) {
      root = p;
      root_mentions = mentions;
    }
  }
  if (root >= 0) return root;
  if (named >= 0) return named;
  return primary >= 0 ? primary : any;
}

}  // namespace pplda::coordinator

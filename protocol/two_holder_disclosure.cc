#include "protocol/two_holder_disclosure.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace pplda::protocol {

int DataHolders(const std::vector<int64_t>& tokens_per_party) {
  int holders = 0;
  for (int64_t t : tokens_per_party) holders += t > 0 ? 1 : 0;
  return holders;
}

absl::Status CheckTwoHolderDisclosure(int data_holders, bool dp_counts, bool accepted,
                                      std::string_view how_to_accept) {
  if (data_holders != 2 || dp_counts || accepted) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "this run has two data holders and no differential privacy: the published exact "
      "counts minus one holder's own counts are the other holder's counts, so each holder "
      "learns the other's topic-term counts. Accept that with ", std::string(how_to_accept),
      ", train with DP (--dp-epsilon), or add a third data holder"));
}

}  // namespace pplda::protocol

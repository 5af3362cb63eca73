// Two data holders and no differential privacy: the published exact counts
// minus one holder's own counts are the other holder's counts, so each holder
// learns the other's topic-term counts (DESIGN section 3; the leakage
// statement of protocol/consortium_policy.h says so in every such model).
// Such a run needs an explicit acceptance: `pplda simulate` and `pplda run
// start` take a flag, and each data-holding party daemon its own party.toml
// key, so no coordinator can accept for a party.
#ifndef PPLDA_PROTOCOL_TWO_HOLDER_DISCLOSURE_H_
#define PPLDA_PROTOCOL_TWO_HOLDER_DISCLOSURE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace pplda::protocol {

// Parties holding at least one token.
int DataHolders(const std::vector<int64_t>& tokens_per_party);

// OK for any number of data holders other than two, for DP counts, or when
// `accepted`; otherwise FailedPrecondition saying what each holder learns and
// naming `how_to_accept` (a flag or a config key).
absl::Status CheckTwoHolderDisclosure(int data_holders, bool dp_counts, bool accepted,
                                      std::string_view how_to_accept);

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_TWO_HOLDER_DISCLOSURE_H_

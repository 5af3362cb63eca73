// RootCauseParty: which party's failure to report when a step fails at
// several parties at once. When one party dies, the others fail too, and
// their errors name it the way the MPC transport does: "(middle)" or
// "(middle at host:port)". The root cause is a failed party that others
// name while its own error names no other party (the most named one, then
// the lowest index); without such a party, a failed party that others name;
// otherwise the first failure that is not Aborted or Cancelled (the
// secondary codes of parties stopped by someone else), else the first one.
// Returns -1 when every status is OK. names[p] is party p's name.
#ifndef PPLDA_COORDINATOR_FAILURE_ROOT_CAUSE_H_
#define PPLDA_COORDINATOR_FAILURE_ROOT_CAUSE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace pplda::coordinator {

// Whether `message` names the party called `name` as the transport does.
bool NamesParty(absl::string_view message, absl::string_view name);

int RootCauseParty(const std::vector<absl::Status>& results,
                   const std::vector<std::string>& names);

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_FAILURE_ROOT_CAUSE_H_

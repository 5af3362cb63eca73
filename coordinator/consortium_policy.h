// The consortium's policy, one copy for `pplda simulate` and the daemons:
// how many compute parties a set of data holders needs, the thresholds, and
// the leakage statement every secure model file carries (DESIGN.md
// section 3; docs/protocol.md says what trusting the helper means).
//   ComputeParties(h) = 3 for h = 2 (a data-less helper joins: the MPC's
//                       honest majority needs n >= 3), h otherwise (h >= 2);
//   MpcThreshold(n)   = t = floor((n - 1) / 2): coalitions of up to t learn
//                       nothing (t < n / 2);
//   PaillierThreshold(n) = t + 1 key shares decrypt.
#ifndef PPLDA_COORDINATOR_CONSORTIUM_POLICY_H_
#define PPLDA_COORDINATOR_CONSORTIUM_POLICY_H_

#include <string>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace pplda::coordinator {

// InvalidArgument for fewer than 2 data holders.
absl::StatusOr<int> ComputeParties(int data_holders);
int MpcThreshold(int compute_parties);
int PaillierThreshold(int compute_parties);

struct LeakageContext {
  std::string setting;       // e.g. "secure multi-party simulation (all parties in one process)"
  std::string key_origin;    // "trusted dealer" or "distributed"
  int data_holders = 0;
  int compute_parties = 0;
  int modulus_bits = 0;
};

// The "privacy" object of a secure model's metadata: setting, key origin
// (a dealt key is labelled: whoever dealt it can decrypt everything), the
// leakage statement, the parties and thresholds; no DP budget (none spent).
nlohmann::json LeakageStatement(const LeakageContext& context);

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_CONSORTIUM_POLICY_H_

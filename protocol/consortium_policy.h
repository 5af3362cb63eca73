// The consortium's policy, one copy for `pplda simulate` and the daemons:
// how many compute parties a set of data holders needs, the thresholds, and
// the leakage statement every secure model file carries (DESIGN.md
// section 3; docs/protocol.md says what trusting the helper means).
//   ComputeParties(h) = 3 for h = 2 (a data-less helper joins: the MPC's
//                       honest majority needs n >= 3), h otherwise (h >= 2);
//   MpcThreshold(n)   = t = floor((n - 1) / 2): coalitions of up to t learn
//                       nothing (t < n / 2);
//   PaillierThreshold(n) = t + 1 key shares decrypt.
#ifndef PPLDA_PROTOCOL_CONSORTIUM_POLICY_H_
#define PPLDA_PROTOCOL_CONSORTIUM_POLICY_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "nlohmann/json.hpp"

namespace pplda::protocol {

// InvalidArgument for fewer than 2 data holders.
absl::StatusOr<int> ComputeParties(int data_holders);
int MpcThreshold(int compute_parties);
int PaillierThreshold(int compute_parties);

// "distributed" for a key from a distributed protocol, "trusted dealer"
// otherwise (a key of unknown origin is treated as dealt).
std::string KeyOriginLabel(crypto::KeyOrigin origin);

struct LeakageContext {
  std::string setting;       // e.g. "secure multi-party simulation (all parties in one process)"
  std::string key_origin;    // KeyOriginLabel: "trusted dealer" or "distributed"
  int data_holders = 0;
  int compute_parties = 0;
  // Of the data holders, those outside the committee (party/data_holder.h).
  int holders_outside_committee = 0;
  int modulus_bits = 0;
  // INSECURE, tests only (party/party_randomness.h): the parties' random
  // sources were seeded streams; the seed when so.
  std::optional<uint64_t> insecure_deterministic_rng_seed;
  // DP training: the published counts are the last noisy release (the
  // budget is in the model's top-level privacy object).
  bool dp_counts = false;
};

// The "privacy" object of a secure model's metadata: setting, key origin
// (a dealt key is labelled: whoever dealt it can decrypt everything), the
// leakage statement and in "hiding" the model it holds in (semi-honest,
// honest majority, computational assumptions, the statistical distance per
// opening and where the whole-run sum is stated) and what it does not cover,
// the parties and thresholds; no DP budget (none spent).
// With insecure_deterministic_rng_seed it also says, in "randomness", that
// the parties' randomness was deterministic (testing only: no privacy).
nlohmann::json LeakageStatement(const LeakageContext& context);

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_CONSORTIUM_POLICY_H_

// PartyGroup: how the run driver (run_driver.h) reaches the compute parties
// of a run, whatever carries the messages: in-process parties over the
// simulated network (simulation/) or remote party daemons over gRPC
// (coordinator/daemon/). Each call addresses every party at once and
// returns one answer per party in party order; the parties run the MPC among
// themselves during Iterate and Publish.
//
// The coordinator only relays (docs/protocol.md, "Untrusted coordinator"):
// Iterate and Publish hand every party the updates of the previous step
// exactly as the parties sent them; each party folds them itself, checks its
// own entry and compares the fold's digest with the others.
// Errors: the first failing party's status, with the party named; after an
// error the run cannot continue (parties are out of step).
// Thread-safety: one caller at a time.
#ifndef PPLDA_COORDINATOR_PARTY_GROUP_H_
#define PPLDA_COORDINATOR_PARTY_GROUP_H_

#include <vector>

#include "absl/status/statusor.h"
#include "crypto/paillier/paillier_ciphertext.h"
#include "protocol/encrypted_counts.h"
#include "protocol/messages.h"
#include "protocol/phase_times.h"

namespace pplda::coordinator {

struct IterationOutput {
  // One per token owner in owner order: the committee's parties, then the
  // data holders (protocol/secure_lda_plan.h).
  std::vector<protocol::CountUpdate> updates;
  protocol::PartyPhaseTimes phases;            // party 0's phases in this iteration
};

class PartyGroup {
 public:
  virtual ~PartyGroup() = default;

  // The committee's compute parties.
  virtual int num_parties() const = 0;
  // Data holders outside the committee (none over the daemons yet).
  virtual int num_holders() const { return 0; }
  // Every owner's encrypted initial counts (iteration 0), owner order.
  virtual absl::StatusOr<std::vector<protocol::CountUpdate>> InitialCounts() = 0;
  // Relays `previous` (the updates of iteration - 1) to the committee and
  // runs `iteration`; data holders get `draw_matrix`, the coordinator's
  // fold's draw matrix after iteration - 1, which each checks against the
  // committee's attestation before selecting from it.
  virtual absl::StatusOr<IterationOutput> Iterate(
      int iteration, const std::vector<protocol::CountUpdate>& previous,
      const std::vector<crypto::Ciphertext>& draw_matrix) = 0;
  // Relays the last updates; the parties confirm the fold among themselves;
  // parties 0 .. decryptors-1 return partial decryptions (with proofs) of
  // the fold whose digest is `digest`.
  virtual absl::StatusOr<std::vector<protocol::DecryptionShare>> Publish(
      const std::vector<protocol::CountUpdate>& last, const protocol::CountsDigest& digest,
      int decryptors) = 0;
};

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_PARTY_GROUP_H_

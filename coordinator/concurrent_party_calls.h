// CallEveryParty: runs one step's call at every party at once (one thread
// per party: the MPC among them needs all of them in the step together) and
// returns every result, by party.
// A failure stops the rest promptly: once a call has failed, the others get
// `grace` to finish on their own (their errors usually name the party that
// failed first, see failure_root_cause.h); then `stop_the_rest` is called
// once with that first failure. It must make the outstanding calls return
// (the coordinator sends Abort), and CallEveryParty then waits for them.
// Without a failure, it waits as long as the calls take (a slow or stopped
// party is waited for). `done(p)` runs, if given, as party p's call returns.
#ifndef PPLDA_COORDINATOR_CONCURRENT_PARTY_CALLS_H_
#define PPLDA_COORDINATOR_CONCURRENT_PARTY_CALLS_H_

#include <chrono>
#include <functional>
#include <vector>

#include "absl/status/status.h"

namespace pplda::coordinator {

std::vector<absl::Status> CallEveryParty(
    int num_parties, const std::function<absl::Status(int)>& call,
    std::chrono::milliseconds grace,
    const std::function<void(const absl::Status& first_failure)>& stop_the_rest,
    const std::function<void(int)>& done = nullptr);

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_CONCURRENT_PARTY_CALLS_H_

// GenerateDealerFreeKeyInProcess: the dealer-free threshold Paillier key
// (crypto/keygen/distributed_threshold_key.h: shared modulus, then the threshold
// decryption key) with every compute party in this process over the
// simulated network: the protocol of `pplda keys generate`, for `pplda
// simulate --dealer-free-key` and tests. No party ever holds p, q or
// phi(N); but this process ends up holding every party's share, as it holds
// every party's documents in a simulation, so it is a key for simulating a
// consortium, not for deploying one (the key records KeyOrigin::kDistributed,
// the model's leakage statement says the simulation ran in one process).
// Randomness: party p's kKeyGeneration source. The Paillier threshold is the
// MPC threshold + 1, as for every consortium key (coordinator/
// consortium_policy.h). Errors: the protocol's, naming the party.
#ifndef PPLDA_SIMULATION_DEALER_FREE_KEY_H_
#define PPLDA_SIMULATION_DEALER_FREE_KEY_H_

#include "absl/status/statusor.h"
#include "crypto/paillier/paillier_dealer.h"
#include "party/party_randomness.h"

namespace pplda::simulation {

absl::StatusOr<crypto::DealtKey> GenerateDealerFreeKeyInProcess(
    int modulus_bits, int parties, const party::ConsortiumRngFactory& rng_factory);

}  // namespace pplda::simulation

#endif  // PPLDA_SIMULATION_DEALER_FREE_KEY_H_

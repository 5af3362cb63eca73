// LocalConsortium: a whole secure LDA run in one process: n compute parties
// (InProcessPartyGroup: LdaParty objects, one thread each, over a
// SimulatedNetwork) and the coordinator (LdaCoordinator, on the calling
// thread), driven by the same schedule as the coordinator daemon
// (coordinator/run_driver.h). Used by `pplda simulate`, the protocol tests
// and bench_secure_lda.
//
// Roles (protocol/consortium_policy.h): every entry of `parties` is a
// compute party (party id = index); with exactly two data holders a
// data-less helper party is appended. With options.committee = N, a
// committee of N data-less compute parties ("committee-0" ..) serves every
// entry of `parties` as a data holder outside it (party/data_holder.h,
// InProcessPartyGroup's committee links); results list the committee, then
// the holders. The MPC threshold is t = (n - 1) / 2
// and the Paillier key must be a threshold key of the same n parties.
// KEY: the key is dealt by the caller (dealer mode: whoever dealt it can
// decrypt everything); results carry that label.
// Randomness: rng_factory(party, source) gives each party its independent
// sources (in_process_party_group.h, party/party_randomness.h). Tests pass
// seeded sources; `pplda simulate` passes the OS CSPRNG, or, INSECURE, the
// deterministic sources party daemons derive from the same seed.
// DP (options.dp): the shares are calibrated by
// privacy::CalibrateDistributedCountNoise for n compute parties and a
// coalition of t, the twin's release schedule is shifted to 1-based
// iterations (protocol/secure_dp_noise.h), and the published model is the last
// release with negative cells set to 0.
// Errors: InvalidArgument for inconsistent inputs (naming the party);
// protocol errors pass through with the party that failed.
// Thread-safety: one call at a time per options object; reentrant.
#ifndef PPLDA_SIMULATION_LOCAL_CONSORTIUM_H_
#define PPLDA_SIMULATION_LOCAL_CONSORTIUM_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/run_driver.h"
#include "crypto/paillier/paillier_dealer.h"
#include "crypto/random/secure_rng.h"
#include "lda/lda_model.h"
#include "lda/vocabulary.h"
#include "party/lda_party.h"
#include "party/party_randomness.h"
#include "privacy/dp_count_training.h"
#include "privacy/privacy_accountant.h"
#include "protocol/secure_lda_plan.h"

namespace pplda::simulation {

struct ConsortiumParty {
  std::string name;
  std::vector<std::vector<lda::TermId>> documents;  // term ids over the shared vocabulary
  std::vector<std::vector<int>> initial_topics;     // empty: uniform from options.seed
};

using coordinator::IterationReport;

struct LocalConsortiumOptions {
  protocol::SecureLdaOptions lda;
  int iterations = 10;
  uint64_t seed = 1;       // initial topics of parties without initial_topics
  int threads = 0;         // one pool shared by all roles; 0 = all cores
  std::string run_id = "local-simulation";
  // 0: every party computes; N (odd, >= 3): a committee of N serves the
  // parties as data holders.
  int committee = 0;
  // How the MPC makes its random values and bits (crypto/mpc/mpc_config.h).
  crypto::MpcConfig::SharedRandomness shared_randomness =
      crypto::MpcConfig::SharedRandomness::kAuto;
  std::function<void(const IterationReport&)> on_step;  // may be empty
  // DP training (docs/protocol.md "DP training"): budget, caps
  // and R as `pplda train --dp-epsilon`; noise_parties and noise_coalition
  // are set here to n and the MPC threshold t. Every party's documents must
  // already be capped (privacy::CapDocument; InvalidArgument naming the
  // party and document otherwise). `seed` is then unused: each party's
  // initial topics come from its kInitialTopics source (secret).
  std::optional<privacy::DpCountOptions> dp;
};

// The run driver's statistics (timings, party 0's phases, the coordinator's
// bytes) and what the simulated network counted.
struct ConsortiumStats : coordinator::RunStats {
  uint64_t partial_decryptions = 0;  // all parties, iterations + publication
  uint64_t partial_decryptions_per_iteration = 0;  // all parties
  uint64_t rounds = 0;               // MPC rounds that carried traffic (whole run)
  uint64_t iteration_rounds = 0;     // of them, in the iterations (not setup or publication)
  std::vector<uint64_t> bytes_sent;  // per party, MPC payload bytes
  // Committee links (data holders only): payload bytes each endpoint sent
  // and received, the committee's members first, and the rounds.
  std::vector<uint64_t> link_bytes_sent, link_bytes_received;
  uint64_t link_rounds = 0;
  // Each data holder's own seconds over the iterations (its phases; in one
  // process its threads share the cores with everybody's).
  std::vector<double> holder_seconds;
};

struct LocalConsortiumResult {
  lda::LdaModel model;  // published counts; alpha, beta the effective ones
  // Owner order: the compute parties (an appended helper included), then
  // the data holders.
  std::vector<std::string> party_names;
  std::vector<std::vector<std::vector<int>>> assignments;  // [owner][doc][pos]
  std::vector<std::vector<std::vector<double>>> mixtures;  // [owner][doc][k]
  ConsortiumStats stats;
  int num_parties = 0;  // the compute parties
  int num_holders = 0;  // data holders outside the committee
  int threshold = 0;
  // DP runs: the accountant (truncation and every noisy iteration debited
  // before the run starts: a refused release is never computed) and the
  // mechanism's record (DescribeDpCountTraining with the distributed noise).
  std::optional<privacy::PrivacyAccountant> accountant;
  nlohmann::json dp_training;
};

absl::StatusOr<LocalConsortiumResult> RunLocalConsortium(
    std::vector<ConsortiumParty> parties, const lda::Vocabulary& vocabulary,
    const crypto::DealtKey& key,
    const party::ConsortiumRngFactory& rng_factory, const LocalConsortiumOptions& options);

}  // namespace pplda::simulation

#endif  // PPLDA_SIMULATION_LOCAL_CONSORTIUM_H_

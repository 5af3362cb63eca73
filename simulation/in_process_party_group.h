// InProcessPartyGroup: the PartyGroup (coordinator/party_group.h) of n
// LdaParty objects in this process, one thread each per step, over a
// SimulatedNetwork that counts MPC rounds and bytes. The run driver drives
// it exactly as it drives remote party daemons.
// Randomness: rng_factory(p, source) gives party p its independent sources
// (party/party_randomness.h: its MPC engine, Paillier encryptor and the run
// key of its per-iteration randomness, party/iteration_randomness.h, from
// which its engine, DP noise and proofs streams of each iteration are
// derived as in the party daemon; initial topics are given). Tests pass seeded sources;
// `pplda simulate` the OS CSPRNG (or, INSECURE, the deterministic sources
// the party daemon derives for the same seed).
// Data holders outside the committee (holder_inputs): DataHolder objects,
// one thread each beside the committee's, over a second SimulatedNetwork of
// committee links (crypto/mpc/committee_links.h: endpoints 0..n-1 the
// members, n + h holder h); holder h's sources are rng_factory(n + h, ...)
// (its encryptor's and, as kMpcEngine, its input shares').
// Thread-safety: one caller at a time.
#ifndef PPLDA_SIMULATION_IN_PROCESS_PARTY_GROUP_H_
#define PPLDA_SIMULATION_IN_PROCESS_PARTY_GROUP_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/thread_pool.h"
#include "coordinator/party_group.h"
#include "crypto/mpc/committee_links.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/simulated_network.h"
#include "crypto/paillier/paillier_dealer.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/random/secure_rng.h"
#include "party/data_holder.h"
#include "party/iteration_randomness.h"
#include "party/lda_party.h"
#include "party/party_randomness.h"
#include "protocol/secure_lda_plan.h"

namespace pplda::simulation {

struct InProcessPartyInput {
  std::vector<std::vector<lda::TermId>> documents;
  std::vector<std::vector<int>> topics;  // initial topics, one per token
};

class InProcessPartyGroup : public coordinator::PartyGroup {
 public:
  // One input per compute party of `plan`; `key` dealt to them; `pool`
  // (may be null) and `key` must outlive the group.
  static absl::StatusOr<std::unique_ptr<InProcessPartyGroup>> Create(
      std::vector<InProcessPartyInput> inputs, const std::string& run_id,
      const protocol::SecureLdaPlan& plan, const crypto::MpcConfig& config,
      const crypto::DealtKey& key, const party::ConsortiumRngFactory& rng_factory, ThreadPool* pool,
      std::vector<InProcessPartyInput> holder_inputs = {});

  int num_parties() const override { return static_cast<int>(parties_.size()); }
  int num_holders() const override { return static_cast<int>(holders_.size()); }
  absl::StatusOr<std::vector<protocol::CountUpdate>> InitialCounts() override;
  absl::StatusOr<coordinator::IterationOutput> Iterate(
      int iteration, const std::vector<protocol::CountUpdate>& previous,
      const std::vector<crypto::Ciphertext>& draw_matrix) override;
  absl::StatusOr<std::vector<protocol::DecryptionShare>> Publish(
      const std::vector<protocol::CountUpdate>& last, const protocol::CountsDigest& digest,
      int decryptors) override;

  party::LdaParty& party(int p) { return *parties_[p]; }
  crypto::MpcEngine& engine(int p) { return *engines_[p]; }
  crypto::SimulatedNetwork& network() { return *network_; }
  party::DataHolder& holder(int h) { return *holders_[h]; }
  // The committee links (null without data holders).
  crypto::SimulatedNetwork* holder_network() { return holder_network_.get(); }

 private:
  InProcessPartyGroup() = default;

  // Party p's engine and noise and proof streams for `iteration`, as the
  // party daemon makes them (party/iteration_randomness.h).
  absl::Status BeginIteration(int p, int iteration);
  // The data holders, their sources and links.
  absl::Status AddHolders(std::vector<InProcessPartyInput> holder_inputs, const std::string& run_id,
                          const protocol::SecureLdaPlan& plan, const crypto::DealtKey& key,
                          const party::ConsortiumRngFactory& rng_factory, ThreadPool* pool);
  // fn(p) for every member p (network_'s threads), or, with data holders,
  // on_member(p) for the members and on_holder(h) for the holders, each on
  // its own thread.
  absl::Status RunAll(const std::function<absl::Status(int)>& on_member,
                      const std::function<absl::Status(int)>& on_holder);

  std::unique_ptr<crypto::SimulatedNetwork> network_;
  std::optional<crypto::MpcConfig> config_;
  std::vector<std::unique_ptr<party::IterationRandomness>> randomness_;
  std::vector<std::unique_ptr<crypto::SecureRng>> rngs_;
  std::vector<std::unique_ptr<crypto::PaillierEncryptor>> encryptors_;
  std::vector<std::unique_ptr<crypto::MpcEngine>> engines_;
  std::vector<std::unique_ptr<party::LdaParty>> parties_;
  std::unique_ptr<crypto::SimulatedNetwork> holder_network_;
  std::vector<crypto::CommitteeLinks> links_;                    // members', then holders'
  std::vector<std::unique_ptr<crypto::SecureRng>> holder_rngs_;  // input shares
  std::vector<std::unique_ptr<crypto::PaillierEncryptor>> holder_encryptors_;
  std::vector<std::unique_ptr<party::DataHolder>> holders_;
};

}  // namespace pplda::simulation

#endif  // PPLDA_SIMULATION_IN_PROCESS_PARTY_GROUP_H_

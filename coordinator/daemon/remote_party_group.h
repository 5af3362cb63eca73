// RemotePartyGroup: the PartyGroup (coordinator/party_group.h) of party
// daemons reached over PartyControl (proto/party_control_service.proto),
// mutual TLS with each party's certificate pinned. Each step calls every
// party at once (one thread per party; the MPC among them needs all of them
// running the step together) and waits for all answers
// (concurrent_party_calls.h): once a call fails, the others get
// kFailureGrace, then are told to Abort so that no daemon waits for its
// receive timeout; the root-cause failure is returned naming its party. waiting_for() lists the
// parties
// whose answer to the current step is outstanding (`pplda run status`).
// The group's parties are the run's owners (net/consortium_file.h): the
// committee's compute parties (party indices 0..n-1), then the data
// holders outside it (n..n+h-1); every step calls all of them, and
// waiting_for() names data holders as well. A data holder is handed only
// what its side needs: Prepare's totals, each iteration's draw matrix (no
// other owner's update) and a bare Publish (nothing to decrypt).
// Join and Prepare precede the PartyGroup steps: Join checks every party
// holds the run's vocabulary and gathers the token totals; InitialCounts
// sends Prepare with all totals.
// Relay mode: a party with relay = true in the consortium file is called
// through the coordinator's RelayHub (down its own outbound stream) instead
// of being dialled (coordinator/daemon/party_control_client.h). Since every
// owner then relays its run frames, Join first waits (at most
// kRelayConnectWait) until every owner has its stream to the hub, and
// fails with Unavailable naming those that have none.
// Thread-safety: one caller at a time for the steps; waiting_for() and
// Abort() from any thread.
#ifndef PPLDA_COORDINATOR_DAEMON_REMOTE_PARTY_GROUP_H_
#define PPLDA_COORDINATOR_DAEMON_REMOTE_PARTY_GROUP_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "coordinator/daemon/party_control_client.h"
#include "coordinator/dp_vocabulary_driver.h"
#include "coordinator/party_group.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "lda/vocabulary.h"
#include "net/consortium_file.h"
#include "net/relay_hub.h"
#include "net/tls_identity.h"
#include "privacy/dp_candidate_union.h"
#include "proto/party_control_service.grpc.pb.h"
#include "protocol/secure_lda_plan.h"

namespace pplda::coordinator {

struct SelectedDpVocabulary {
  lda::Vocabulary vocabulary;      // the selected candidates, ascending ids
  std::vector<int64_t> tokens;     // each party's tokens over it, after the DP caps
  uint64_t coordinator_bytes = 0;  // received and relayed
  double seconds = 0;
};

struct RemoteCallStats {
  uint64_t mpc_bytes_sent_party0 = 0;  // last iteration, party 0's real transport
  uint64_t mpc_rounds = 0;             // last iteration
};

class RemotePartyGroup : public PartyGroup, public VocabularyPartyGroup {
 public:
  static constexpr std::chrono::seconds kRelayConnectWait{30};
  // After a party's call fails, how long the others may take to fail or
  // finish by themselves before they are told to Abort.
  static constexpr std::chrono::seconds kFailureGrace{10};

  // `identity`, `consortium`, `key` and `relay` must outlive the group;
  // `relay` may be null when no party is in relay mode.
  RemotePartyGroup(std::string coordinator_name, std::string run_id,
                   const net::Consortium& consortium, const net::TlsIdentity& identity,
                   crypto::ThresholdPublicKeyPtr key, std::chrono::seconds call_timeout,
                   net::RelayHub* relay = nullptr);

  // Join: every party checks the parameters and its vocabulary; returns the
  // token totals by owner index (the committee's, then the data holders').
  absl::StatusOr<std::vector<int64_t>> Join(const pplda::v1::RunParameters& parameters);
  // The secure DP vocabulary (after Join, before the plan; runs with
  // dp_vocab_epsilon), driven by DriveDpVocabulary (coordinator/
  // dp_vocabulary_driver.h) over this group's VocabularyPartyGroup calls:
  // contribute -> every party sums, confirms and (the key's threshold of
  // them) decrypts -> every party verifies and selects.
  absl::StatusOr<SelectedDpVocabulary> SelectDpVocabulary(const privacy::CandidateUnionPlan& plan,
                                                          const lda::Vocabulary& candidates,
                                                          ThreadPool* pool);
  // VocabularyPartyGroup, within SelectDpVocabulary (its plan's lengths).
  std::string PartyName(int party) const override { return Describe(party); }
  absl::StatusOr<std::vector<protocol::VocabularyContribution>> Contribute() override;
  absl::StatusOr<std::vector<crypto::PartialDecryptionBatch>> SumAndDecrypt(
      const std::vector<protocol::VocabularyContribution>& contributions, int decryptors) override;
  absl::StatusOr<std::vector<VocabularySelection>> Select(
      const std::vector<crypto::PartialDecryptionBatch>& partials) override;
  // After Join, by party index: the seed of a party whose randomness is
  // INSECURE deterministic (tests only; party/party_randomness.h), as it
  // reported at Join.
  const std::vector<std::optional<uint64_t>>& insecure_deterministic_rng_seeds() const {
    return insecure_deterministic_rng_seeds_;
  }
  // The plan the parties will build (set after Join, before InitialCounts).
  void set_plan(const protocol::SecureLdaPlan& plan, std::vector<int64_t> tokens);
  // The run's iteration count (set by Join; a resumed run sets it here).
  void set_iterations(int iterations) { iterations_ = iterations; }

  int num_parties() const override { return num_committee_; }
  int num_holders() const override { return num_owners() - num_committee_; }
  int num_owners() const { return static_cast<int>(parties_.size()); }
  absl::StatusOr<std::vector<protocol::CountUpdate>> InitialCounts() override;
  absl::StatusOr<IterationOutput> Iterate(
      int iteration, const std::vector<protocol::CountUpdate>& previous,
      const std::vector<crypto::Ciphertext>& draw_matrix) override;
  absl::StatusOr<std::vector<protocol::DecryptionShare>> Publish(
      const std::vector<protocol::CountUpdate>& last, const protocol::CountsDigest& digest,
      int decryptors) override;

  // After a party restarted (docs/protocol.md, "Restarts"): every party
  // rebuilds its session from its own state after `iteration` iterations,
  // on new links for resumption number `attempt` (>= 1), and shows the
  // update of `iteration` it sent then, which must be the one in `sent`
  // (this coordinator's saved boundary; FailedPrecondition otherwise). Needs
  // the plan. A party that does not answer (still down) is Unavailable /
  // DeadlineExceeded, and named in not_back().
  absl::Status Resume(int iteration, uint32_t attempt, const pplda::v1::RunParameters& parameters,
                      const std::vector<protocol::CountUpdate>& sent);
  // The parties that could not be reached: by the last Resume call, or the
  // root cause of the last failed step when it was a lost party.
  std::vector<std::string> not_back() const;

  // Tells every party to abort the run (best effort).
  void Abort(const std::string& reason);
  // Tells every party the run is over: its model is published (best
  // effort; AbortRequest.run_published).
  void EndPublished();
  std::vector<std::string> waiting_for() const;
  RemoteCallStats last_iteration() const;
  // Where each party wrote its document mixtures (after Publish).
  const std::vector<std::string>& mixtures_paths() const { return mixtures_paths_; }

 private:
  // Runs call(p) for every party on its own thread; returns the first
  // failure as "<party name>: <status>" and aborts the run on failure.
  absl::Status ForEachParty(const std::string& step,
                            const std::function<absl::Status(int party)>& call);
  PartyControlClient::Deadline Deadline() const;
  void SendAbort(const std::string& reason, bool run_published);
  // "<name> (<address>)", or "<name> (relay mode)".
  std::string Describe(int party) const;

  const std::string name_;
  const std::string run_id_;
  const crypto::ThresholdPublicKeyPtr key_;
  const std::chrono::seconds call_timeout_;
  net::RelayHub* const relay_;
  std::vector<net::Participant> parties_;  // the owners, by owner index
  int num_committee_ = 0;
  std::vector<std::unique_ptr<PartyControlClient>> clients_;  // by owner index
  std::unique_ptr<protocol::SecureLdaPlan> plan_;
  // Within SelectDpVocabulary: the ciphertexts of one contribution.
  size_t vocabulary_length_ = 0;
  int iterations_ = 0;
  std::vector<std::optional<uint64_t>> insecure_deterministic_rng_seeds_;  // set by Join
  std::vector<std::string> mixtures_paths_;
  mutable std::mutex mu_;
  std::set<int> waiting_;
  std::vector<std::string> not_back_;
  RemoteCallStats last_;
};

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_DAEMON_REMOTE_PARTY_GROUP_H_

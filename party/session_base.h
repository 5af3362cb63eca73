// SessionBase: what a compute party's and a data holder's sessions of a
// run (party_session.h, holder_session.h) keep and check alike: the run's
// id and parameters, the participant's resources, run transport and random
// sources, its documents (capped for DP training; in a DP-vocabulary run,
// once selected, over the selection and capped then), whether a step
// failed or the run was published, and the update it resumed with.
// Thread-safety: as RunSession (one caller at a time).
#ifndef PPLDA_PARTY_SESSION_BASE_H_
#define PPLDA_PARTY_SESSION_BASE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "crypto/mpc/transport.h"
#include "crypto/random/secure_rng.h"
#include "lda/corpus.h"
#include "party/party_randomness.h"
#include "party/party_resources.h"
#include "party/run_session.h"
#include "proto/party_control_service.pb.h"
#include "proto/run_state.pb.h"
#include "protocol/run_dp_budget.h"

namespace pplda::party {

class SessionBase : public RunSession {
 public:
  const std::string& run_id() const final { return run_id_; }
  int64_t tokens() const final { return resources_.corpus->num_tokens(); }
  int64_t documents() const final { return resources_.corpus->num_documents(); }
  // What Join reveals to the coordinator: the token and document totals,
  // or, in a DP-vocabulary run, only whether the participant holds
  // documents (1 or 0, and 0 documents): its totals over the candidates,
  // against those over the selected vocabulary that the selection reports,
  // would count the tokens of the terms the selection drops.
  int64_t join_tokens() const final;
  int64_t join_documents() const final;
  bool failed() const final { return failed_; }
  // After a resumption: this participant's update of the boundary, as sent.
  const pplda::v1::CountUpdateMessage& resumed_update() const final { return resumed_update_; }

 protected:
  // `participant` names the role in errors ("party", "data holder").
  SessionBase(std::string run_id, pplda::v1::RunParameters parameters,
              const PartyResources& resources, crypto::PartyTransport& transport,
              std::string_view participant);

  // Join's work for either role, once the role's own checks passed: a DP
  // run above the participant's ceiling per run refused (FailedPrecondition
  // naming both figures), and a run larger than it holds (CheckRunSize);
  // the DP vocabulary's plan (with the consortium's data holders), DP
  // training's options validated and, without a DP vocabulary, the documents capped (before their
  // token count is reported); the random sources.
  absl::Status SetUpAtJoin();
  // ResourceExhausted when the run's K x V or K x D cells pass kMaxRunCells.
  absl::Status CheckRunSize() const;
  crypto::SecureRng& rng(PartyRandomSource source) { return *rngs_[static_cast<int>(source)]; }
  // Aborted once a step failed (only a Resume goes on), FailedPrecondition
  // once published; `what` names the refused step.
  absl::Status CheckUsable(std::string_view what) const;
  // Passes `result` through; an error marks the session failed (the
  // participants are out of step: the run is over).
  template <typename T>
  absl::StatusOr<T> Guard(absl::StatusOr<T> result) {
    if (!result.ok()) failed_ = true;
    return result;
  }
  // The DP vocabulary's selection: the documents over it, capped; the
  // run's vocabulary is then the selection (its SHA-256 returned).
  std::string UseSelectedVocabulary(std::vector<lda::TermId> selected);
  // Resume of a DP-vocabulary run: the selection a boundary saved, used
  // again; `steps` is the role's count of vocabulary steps, all done.
  absl::Status RestoreSelectedVocabulary(const pplda::v1::PartyRunState& state, int steps);

  std::string run_id_;
  pplda::v1::RunParameters parameters_;
  PartyResources resources_;                              // its corpus is the one the run uses
  crypto::PartyTransport& transport_;                     // every owner's endpoint
  std::vector<std::unique_ptr<crypto::SecureRng>> rngs_;  // by PartyRandomSource
  // DP runs: the documents capped (resources_.corpus then points here).
  std::unique_ptr<lda::Corpus> capped_corpus_;
  // DP-vocabulary runs: the plan and its accountant (from Join), the steps
  // done, the selected candidate ids (saved in every boundary).
  std::optional<protocol::RunDpVocabulary> dp_vocabulary_;
  int vocabulary_steps_ = 0;
  std::vector<lda::TermId> selected_terms_;
  pplda::v1::CountUpdateMessage resumed_update_;
  int current_file_iteration_ = -1;  // of run-state.pb, -1 = none yet
  bool published_ = false;
  bool failed_ = false;

 private:
  std::string participant_;
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_SESSION_BASE_H_

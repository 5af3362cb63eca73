// RunSession: what the PartyControl adapter (party/daemon/) drives of a
// party daemon's side of one run, whatever the daemon's role: a compute
// party's PartySession (party_session.h) or a data holder's HolderSession
// (holder_session.h). The steps are PartyControl's messages
// (proto/party_control_service.proto); each implementation states what it
// does at each and what it refuses.
// A failed step leaves the session unusable for the run: failed() is true
// and every later call is Aborted (only a Resume from a saved boundary
// goes on).
// Thread-safety: one caller at a time (the adapter locks).
#ifndef PPLDA_PARTY_RUN_SESSION_H_
#define PPLDA_PARTY_RUN_SESSION_H_

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "crypto/random/secure_rng.h"
#include "lda/corpus.h"
#include "party/privacy_ledger.h"
#include "privacy/document_caps.h"
#include "privacy/dp_count_training.h"
#include "proto/party_control_service.pb.h"
#include "proto/run_state.pb.h"

namespace pplda::party {

class RunSession {
 public:
  virtual ~RunSession() = default;

  virtual const std::string& run_id() const = 0;
  // This participant's documents and tokens in the run (after its caps).
  virtual int64_t tokens() const = 0;
  virtual int64_t documents() const = 0;
  // What Join reveals to the coordinator (the implementations say what).
  virtual int64_t join_tokens() const = 0;
  virtual int64_t join_documents() const = 0;
  virtual bool failed() const = 0;
  virtual int iterations_done() const = 0;
  // For logs: "joined", "prepared", "iteration 3", "published", "failed".
  virtual std::string state() const = 0;
  // For logs: hex of the fold digest this party agreed with its peers;
  // empty where there is none (a data holder folds nothing).
  virtual std::string counts_digest_hex() const = 0;
  // After a resumption: this party's update of the boundary, as it sent it.
  virtual const pplda::v1::CountUpdateMessage& resumed_update() const = 0;

  virtual absl::StatusOr<pplda::v1::VocabularyReply> Vocabulary(
      const pplda::v1::VocabularyRequest& request) = 0;
  virtual absl::StatusOr<pplda::v1::PrepareReply> Prepare(
      const pplda::v1::PrepareRequest& request) = 0;
  virtual absl::StatusOr<pplda::v1::IterateReply> Iterate(
      const pplda::v1::IterateRequest& request) = 0;
  virtual absl::StatusOr<pplda::v1::PublishReply> Publish(
      const pplda::v1::PublishRequest& request) = 0;
};

// What every session checks at Join (and Resume): the run id names a
// folder (InvalidArgument), the parameters are valid, and the
// coordinator's vocabulary is `vocabulary_sha256` (FailedPrecondition).
absl::Status CheckJoin(const std::string& run_id, const pplda::v1::RunParameters& parameters,
                       const std::string& vocabulary_sha256);

// A boundary's state with what every session saves: the header (run id,
// participant, iteration, plan digest), the owner index, the parameters,
// every owner's tokens and `assignments` flattened.
pplda::v1::PartyRunState RunStateBoundary(const std::string& run_id, const std::string& participant,
                                          int iteration, const std::array<uint8_t, 32>& plan_digest,
                                          int owner_index,
                                          const pplda::v1::RunParameters& parameters,
                                          const std::vector<int64_t>& tokens,
                                          const std::vector<std::vector<int>>& assignments);

// STATE/runs/<run id>/published: written at publication; from then on only
// the publication of the run can be resumed.
std::filesystem::path PublishedMarkerPath(const std::filesystem::path& state_dir,
                                          const std::string& run_id);

// Replaces STATE/runs/<run id>/run-state.pb with `state` (the boundary
// after state.header().iteration() iterations). The file there becomes the
// previous boundary when it is of an earlier iteration than the new one
// (`*file_iteration`, -1 = none yet, is the latest file's iteration and is
// updated); an iteration run again after a restart replaces the latest
// and keeps the previous. PermissionDenied naming the path on failure.
absl::Status WriteRunStateBoundary(const std::filesystem::path& state_dir,
                                   const std::string& run_id, const pplda::v1::PartyRunState& state,
                                   int* file_iteration);
// The saved boundary after `iteration` iterations, from the latest or the
// previous file (`*file_iteration` set to the latest file's iteration when
// it reads). NotFound naming both files when neither is at `iteration`; a
// damaged file's DataLoss / FailedPrecondition wins over NotFound.
absl::StatusOr<pplda::v1::PartyRunState> ReadRunStateAt(const std::filesystem::path& state_dir,
                                                        const std::string& run_id,
                                                        const std::string& participant,
                                                        int iteration, int* file_iteration);
// The flat saved topics of a state file split by `corpus`'s documents;
// FailedPrecondition when their number is not its token count.
absl::StatusOr<std::vector<std::vector<int>>> SplitSavedTopics(
    const std::string& run_id, const lda::Corpus& corpus,
    const google::protobuf::RepeatedField<uint32_t>& topics);

// Writes STATE/runs/<run id>/mixtures.csv (0600: the party's exact
// per-document mixtures): a header "document,topic_0,..." and one row per
// document of `corpus` (its name, CSV-quoted when needed) with theta[m].
// Returns the path; PermissionDenied when the folder cannot be made.
absl::StatusOr<std::string> WriteMixturesFile(const std::filesystem::path& state_dir,
                                              const std::string& run_id, const lda::Corpus& corpus,
                                              const std::vector<std::vector<double>>& theta,
                                              int num_topics);

// A DP vocabulary step is asked of a session: FailedPrecondition unless the
// run has a DP vocabulary and is not prepared yet.
absl::Status CheckVocabularyStep(const std::string& run_id, bool has_dp_vocabulary, bool prepared);

// A run with a DP vocabulary, once selected: `*corpus` (over the
// candidates) restricted to the `selected` candidate ids and capped by DP
// training's `caps`, kept in `*owned` and `*corpus` pointed at it; from
// then on the run's vocabulary is the selection (`parameters`'
// vocabulary_sha256, which the plan digest binds). Returns that SHA-256.
std::string UseSelectedVocabulary(const std::vector<lda::TermId>& selected,
                                  const privacy::DocumentCaps& caps,
                                  std::unique_ptr<lda::Corpus>* owned, const lda::Corpus** corpus,
                                  pplda::v1::RunParameters* parameters);
// The select step's reply: the selected vocabulary's SHA-256 and size, and
// the participant's documents and tokens over it (`corpus`, capped).
pplda::v1::VocabularyReply SelectionReply(const std::string& vocabulary_sha256,
                                          const lda::Corpus& corpus);
// The selected candidate ids a boundary saved: ascending, below
// `candidates`, not empty (FailedPrecondition otherwise).
absl::StatusOr<std::vector<lda::TermId>> SavedSelectedTerms(const std::string& run_id,
                                                            const pplda::v1::PartyRunState& state,
                                                            int32_t candidates);

// Debits run `run_id`'s whole DP budget `dp` from the ledger in
// `state_dir` when the participant has a `budget` (PrivacyLedger::Debit's
// refusals); a run without DP is then refused (FailedPrecondition: it
// would publish exact counts). OK, and nothing written, without a budget.
absl::Status DebitRunBudget(const std::filesystem::path& state_dir, const std::string& run_id,
                            const std::optional<privacy::DpCountOptions>& dp,
                            const std::optional<PrivacyBudget>& budget);

// The initial topics of a participant's documents: with `seed`, the
// seeded derivation `pplda simulate` uses for owner `index` (so both start
// from the same topics); without, one uniform topic per token from `rng`.
std::vector<std::vector<int>> InitialTopics(const lda::Corpus& corpus, int num_topics,
                                            const std::optional<uint64_t>& seed, int index,
                                            crypto::SecureRng& rng);

}  // namespace pplda::party

#endif  // PPLDA_PARTY_RUN_SESSION_H_

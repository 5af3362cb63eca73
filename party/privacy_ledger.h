// PrivacyLedger: what a data holder's documents have spent in differential
// privacy across runs, kept in its state folder (privacy_ledger.json, 0600,
// written atomically), and the check that keeps the total within the
// budget its party.toml sets (privacy_budget_epsilon, privacy_budget_delta).
//
// Composition across runs is basic sequential composition (Dwork and Roth,
// Theorem 3.16): runs that are (epsilon_i, delta_i)-DP on the same
// documents are together (sum epsilon_i, sum delta_i)-DP. Within a run the
// accountant is tighter (privacy/privacy_accountant.h); across runs nothing
// tighter is claimed.
//
// A run is debited when the party prepares it, before anything is computed
// on its documents, and stays debited whatever happens next (published,
// failed or cancelled: its noisy releases may already have reached the
// other parties). A run id already in the ledger is refused: the
// coordinator is untrusted, and a reused id must not run a second release
// for free (a party prepares each session once, so an honest coordinator
// never asks twice).
//
// Errors: FailedPrecondition naming the spent total, the run's cost and the
// budget when a run would exceed it, or naming a run id already debited; DataLoss (naming the file) for a
// ledger file that cannot be parsed; write errors as base/atomic_file.h.
// Thread-safety: one object per party session; not thread-safe.
#ifndef PPLDA_PARTY_PRIVACY_LEDGER_H_
#define PPLDA_PARTY_PRIVACY_LEDGER_H_

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pplda::party {

struct PrivacyBudget {
  double epsilon = 0;  // > 0
  double delta = 0;    // in [0, 1)
};

class PrivacyLedger {
 public:
  struct Entry {
    std::string run_id;
    double epsilon = 0, delta = 0;
    std::string debited_at;  // UTC, RFC 3339
  };

  static constexpr char kFileName[] = "privacy_ledger.json";

  // The ledger in `state_dir` (empty when the file does not exist yet).
  static absl::StatusOr<PrivacyLedger> Load(const std::filesystem::path& state_dir);

  // Records run `run_id` at (epsilon, delta) and writes the file, or
  // refuses it when the id is already recorded or the totals would exceed
  // `budget` (a relative slack of 1e-9 absorbs rounding in the sums).
  absl::Status Debit(const std::string& run_id, double epsilon, double delta,
                     const PrivacyBudget& budget);

  const std::vector<Entry>& entries() const { return entries_; }
  PrivacyBudget Spent() const;

 private:
  explicit PrivacyLedger(std::filesystem::path file) : file_(std::move(file)) {}

  std::filesystem::path file_;
  std::vector<Entry> entries_;
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_PRIVACY_LEDGER_H_

#include "party/privacy_ledger.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/atomic_file.h"
#include "nlohmann/json.hpp"

namespace pplda::party {
namespace {

constexpr char kFormat[] = "pplda-privacy-ledger/1";
constexpr double kSlack = 1e-9;

std::string Figure(double epsilon, double delta) {
  return absl::StrFormat("(epsilon %.6g, delta %.3g)", epsilon, delta);
}

absl::Status Malformed(const std::filesystem::path& file, const std::string& why) {
  return absl::DataLossError(absl::StrCat(
      file.string(), ": ", why, "; the privacy ledger is damaged: restore it from a backup "
      "(deleting it would forget what the documents have spent)"));
}

}  // namespace

absl::StatusOr<PrivacyLedger> PrivacyLedger::Load(const std::filesystem::path& state_dir) {
  PrivacyLedger ledger(state_dir / kFileName);
  std::ifstream in(ledger.file_);
  if (!in) {
    if (!std::filesystem::exists(ledger.file_)) return ledger;
    return absl::PermissionDeniedError(
        absl::StrCat(ledger.file_.string(), ": cannot read the privacy ledger"));
  }
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return Malformed(ledger.file_, "not JSON");
  if (doc.value("format", "") != kFormat) {
    return Malformed(ledger.file_, absl::StrCat("format is not ", kFormat));
  }
  const auto runs = doc.find("runs");
  if (runs == doc.end() || !runs->is_array()) return Malformed(ledger.file_, "no runs array");
  for (const nlohmann::json& r : *runs) {
    if (!r.is_object() || !r.contains("run_id") || !r["run_id"].is_string() ||
        !r.contains("epsilon") || !r["epsilon"].is_number() || !r.contains("delta") ||
        !r["delta"].is_number()) {
      return Malformed(ledger.file_, "a run without run_id, epsilon and delta");
    }
    Entry e{r["run_id"].get<std::string>(), r["epsilon"].get<double>(),
            r["delta"].get<double>(), r.value("debited_at", "")};
    if (!std::isfinite(e.epsilon) || e.epsilon <= 0 || !std::isfinite(e.delta) || e.delta < 0 ||
        e.delta >= 1) {
      return Malformed(ledger.file_, absl::StrCat("run ", e.run_id, " has ",
                                                  Figure(e.epsilon, e.delta)));
    }
    ledger.entries_.push_back(std::move(e));
  }
  return ledger;
}

PrivacyBudget PrivacyLedger::Spent() const {
  PrivacyBudget spent;
  for (const Entry& e : entries_) {
    spent.epsilon += e.epsilon;
    spent.delta += e.delta;
  }
  return spent;
}

absl::Status PrivacyLedger::Debit(const std::string& run_id, double epsilon, double delta,
                                  const PrivacyBudget& budget) {
  for (const Entry& e : entries_) {
    if (e.run_id == run_id) {
      return absl::FailedPreconditionError(absl::StrCat(
          "run ", run_id, " was already debited ", Figure(e.epsilon, e.delta), " at ",
          e.debited_at, " (", file_.string(), "); a run id is used once, so a reused one "
          "cannot release the documents again"));
    }
  }
  const PrivacyBudget spent = Spent();
  if (spent.epsilon + epsilon > budget.epsilon * (1 + kSlack) ||
      spent.delta + delta > budget.delta * (1 + kSlack)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id, " would spend ", Figure(epsilon, delta), " of this party's documents, "
        "which have already spent ", Figure(spent.epsilon, spent.delta), " in ", entries_.size(),
        " run(s) (", file_.string(), "); the budget in party.toml is ",
        Figure(budget.epsilon, budget.delta), " (runs compose by adding their epsilons and deltas)"));
  }
  Entry added{run_id, epsilon, delta, absl::FormatTime(absl::RFC3339_sec, absl::Now(),
                                                       absl::UTCTimeZone())};
  nlohmann::json runs = nlohmann::json::array();
  std::vector<Entry> all = entries_;
  all.push_back(added);
  for (const Entry& e : all) {
    runs.push_back({{"run_id", e.run_id},
                    {"epsilon", e.epsilon},
                    {"delta", e.delta},
                    {"debited_at", e.debited_at}});
  }
  const nlohmann::json doc = {
      {"format", kFormat},
      {"composition", "basic: the runs' epsilons add and their deltas add"},
      {"runs", runs}};
  if (absl::Status s = WriteFileAtomically(file_, doc.dump(2) + "\n", FileMode::kPrivate);
      !s.ok()) {
    return s;
  }
  entries_ = std::move(all);
  return absl::OkStatus();
}

}  // namespace pplda::party

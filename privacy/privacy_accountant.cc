#include "privacy/privacy_accountant.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "privacy/zcdp_calibration.h"

namespace pplda::privacy {

absl::StatusOr<PrivacyAccountant> PrivacyAccountant::WithBudget(double epsilon, double delta) {
  RETURN_IF_ERROR(ValidateEpsilonDelta(epsilon, delta, "the privacy budget's"));
  PrivacyAccountant a;
  a.budget_ = PrivacyBudget{epsilon, delta};
  return a;
}

PrivacyAccountant::Totals PrivacyAccountant::Convert(const Sums& sums) const {
  Totals t{sums.approx_epsilon, sums.approx_delta};
  if (sums.zcdp > 0 && budget_) {
    const double delta_z = budget_->delta - sums.approx_delta;
    t.epsilon += delta_z > 0 ? EpsilonForZcdp(sums.rho, delta_z) : HUGE_VAL;
    t.delta = budget_->delta;
  }
  return t;
}

absl::Status PrivacyAccountant::Record(DpRelease release) {
  if (release.epsilon < 0 || release.delta < 0 || (release.rho && *release.rho < 0)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("release of %s has a negative epsilon, delta or rho", release.what));
  }
  if (release.rho && !budget_) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the zCDP release of %s needs an accountant with a budget (the delta of its "
        "conversion to (epsilon, delta)-DP)",
        release.what));
  }
  Sums after = sums_;
  if (release.rho) {
    after.rho += *release.rho;
    ++after.zcdp;
  } else {
    after.approx_epsilon += release.epsilon;
    after.approx_delta += release.delta;
  }
  const Totals t = Convert(after);
  // (With zCDP releases and no delta left for their conversion, t.epsilon
  // is infinite.)
  if (budget_ && (t.epsilon > budget_->epsilon || t.delta > budget_->delta)) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "refused: releasing %s would spend (epsilon %.6g, delta %.3g) in all, over the budget "
        "(epsilon %.6g, delta %.3g); %d release(s) recorded so far spent (epsilon %.6g, delta "
        "%.3g)",
        release.what, t.epsilon, t.delta, budget_->epsilon, budget_->delta, releases_.size(),
        epsilon(), delta()));
  }
  sums_ = after;
  releases_.push_back(std::move(release));
  return absl::OkStatus();
}

double PrivacyAccountant::epsilon() const { return Convert(sums_).epsilon; }
double PrivacyAccountant::delta() const { return Convert(sums_).delta; }
double PrivacyAccountant::rho() const { return sums_.rho; }
int PrivacyAccountant::zcdp_releases() const { return sums_.zcdp; }

nlohmann::json PrivacyAccountant::ToJson() const {
  const Totals t = Convert(sums_);
  nlohmann::json releases = nlohmann::json::array();
  // Consecutive zCDP releases of the same kind and parameters (the T noisy
  // iterations) are recorded once with their count, so the file stays small.
  for (size_t i = 0; i < releases_.size();) {
    const DpRelease& r = releases_[i];
    size_t j = i + 1;
    while (j < releases_.size() && r.rho && releases_[j].rho && releases_[j].what == r.what &&
           *releases_[j].rho == *r.rho && releases_[j].parameters == r.parameters) {
      ++j;
    }
    nlohmann::json entry = {{"release", r.what}, {"mechanism", r.mechanism},
                            {"parameters", r.parameters}};
    if (r.rho) {
      entry["rho"] = *r.rho;
      entry["count"] = j - i;
      entry["rho_total"] = *r.rho * static_cast<double>(j - i);
    } else {
      entry["epsilon"] = r.epsilon;
      entry["delta"] = r.delta;
    }
    releases.push_back(entry);
    i = j;
  }
  nlohmann::json out = {
      {"composition",
       sums_.zcdp > 0
           ? "zCDP composition of the zCDP releases (rho adds, Bun & Steinke 2016 Lemma 2.3), "
             "converted to (epsilon, delta)-DP at the delta the budget leaves, then basic "
             "sequential composition with the (epsilon, delta) releases (epsilons and deltas "
             "add)"
           : "basic sequential composition: the epsilons and deltas of the releases add"},
      {"epsilon", t.epsilon},
      {"delta", t.delta},
      {"budget", budget_ ? nlohmann::json{{"epsilon", budget_->epsilon},
                                          {"delta", budget_->delta}}
                         : nlohmann::json(nullptr)},
      {"releases", releases}};
  if (sums_.zcdp > 0) {
    out["rho"] = sums_.rho;
    out["conversion"] = kZcdpConversion;
  }
  return out;
}

}  // namespace pplda::privacy

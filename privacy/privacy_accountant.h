// PrivacyAccountant: the (epsilon, delta) spent by the differentially
// private releases of a run, composed with basic sequential composition:
// epsilons add and deltas add (Dwork & Roth, Thm. 3.16; the composition of
// Manzonelli et al., Thm. 4.1). Only releases that are DP mechanisms may be
// recorded: today the DP vocabulary selection alone. The final-count noise
// (privacy/final_count_noise.h) gives no guarantee and is never recorded, so
// the totals cover exactly the recorded releases and nothing else. Each
// release records its mechanism and parameters (no data-dependent figure)
// so the model file states exactly what was spent and how.
//
// Invariant: totals are the sums over the recorded releases; a run with no
// DP release has epsilon() == delta() == 0 and empty() == true.
// Thread-safety: a plain value.
#ifndef PPLDA_PRIVACY_PRIVACY_ACCOUNTANT_H_
#define PPLDA_PRIVACY_PRIVACY_ACCOUNTANT_H_

#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace pplda::privacy {

struct DpRelease {
  std::string what;       // what was released, e.g. "vocabulary"
  std::string mechanism;  // e.g. "DP set union by Gaussian thresholding ..."
  double epsilon = 0;
  double delta = 0;
  nlohmann::json parameters = nlohmann::json::object();
};

class PrivacyAccountant {
 public:
  void Record(DpRelease release) { releases_.push_back(std::move(release)); }

  bool empty() const { return releases_.empty(); }
  double epsilon() const;
  double delta() const;
  const std::vector<DpRelease>& releases() const { return releases_; }

  // {"composition": ..., "epsilon": ..., "delta": ..., "releases": [...]}.
  nlohmann::json ToJson() const;

 private:
  std::vector<DpRelease> releases_;
};

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_PRIVACY_ACCOUNTANT_H_

#include "privacy/privacy_accountant.h"

namespace pplda::privacy {

double PrivacyAccountant::epsilon() const {
  double total = 0;
  for (const DpRelease& r : releases_) total += r.epsilon;
  return total;
}

double PrivacyAccountant::delta() const {
  double total = 0;
  for (const DpRelease& r : releases_) total += r.delta;
  return total;
}

nlohmann::json PrivacyAccountant::ToJson() const {
  nlohmann::json releases = nlohmann::json::array();
  for (const DpRelease& r : releases_) {
    releases.push_back({{"release", r.what},
                        {"mechanism", r.mechanism},
                        {"epsilon", r.epsilon},
                        {"delta", r.delta},
                        {"parameters", r.parameters}});
  }
  return {{"composition", "basic sequential composition: the epsilons and deltas of the "
                          "releases add"},
          {"epsilon", epsilon()},
          {"delta", delta()},
          {"releases", releases}};
}

}  // namespace pplda::privacy

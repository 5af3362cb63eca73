#include "protocol/phase_times.h"

#include <string>

namespace pplda::protocol {

PartyPhaseTimes& PartyPhaseTimes::operator+=(const PartyPhaseTimes& o) {
  selection += o.selection;
  exchange += o.exchange;
  conversion += o.conversion;
  weights += o.weights;
  draw += o.draw;
  update += o.update;
  return *this;
}

PartyPhaseTimes PartyPhaseTimes::Since(const PartyPhaseTimes& before) const {
  return PartyPhaseTimes{
      selection - before.selection, exchange - before.exchange, conversion - before.conversion,
      weights - before.weights,     draw - before.draw,         update - before.update};
}

nlohmann::json PhaseSecondsJson(const PartyPhaseTimes& t) {
  nlohmann::json out = nlohmann::json::object();
  const std::array<double, kNumPhases> seconds = t.Seconds();
  for (int i = 0; i < kNumPhases; ++i) out[std::string(kPhaseNames[i])] = seconds[i];
  return out;
}

}  // namespace pplda::protocol

// The six phases of a secure iteration, each named once here: the parties'
// and the coordinator's metrics label them so, the model's metadata keys
// them so, and the wire (proto PhaseSeconds) carries them in this order.
//   selection   owner-side homomorphic selection and packing
//   exchange    sending and receiving selection ciphertexts
//   conversion  mask encryption, partial decryptions, combination
//   weights     input, normalisers, weight products (MPC rounds)
//   draw        the secure draw
//   update      local count update and delta encryption
// Plain data; thread-safety of a value.
#ifndef PPLDA_PROTOCOL_PHASE_TIMES_H_
#define PPLDA_PROTOCOL_PHASE_TIMES_H_

#include <array>
#include <string_view>

#include "nlohmann/json.hpp"

namespace pplda::protocol {

inline constexpr int kNumPhases = 6;
inline constexpr std::array<std::string_view, kNumPhases> kPhaseNames = {
    "selection", "exchange", "conversion", "weights", "draw", "update"};

// Wall-clock seconds one party spent per phase (summed over iterations).
struct PartyPhaseTimes {
  double selection = 0;
  double exchange = 0;
  double conversion = 0;
  double weights = 0;
  double draw = 0;
  double update = 0;

  // The phases' seconds in kPhaseNames' order.
  std::array<double, kNumPhases> Seconds() const {
    return {selection, exchange, conversion, weights, draw, update};
  }
  double Total() const { return selection + exchange + conversion + weights + draw + update; }
  PartyPhaseTimes& operator+=(const PartyPhaseTimes& o);
  // The phases spent since `before` (this minus before, phase by phase).
  PartyPhaseTimes Since(const PartyPhaseTimes& before) const;
};

// {"selection": s, "exchange": s, ...}: the metadata's phase_seconds object.
nlohmann::json PhaseSecondsJson(const PartyPhaseTimes& t);

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_PHASE_TIMES_H_

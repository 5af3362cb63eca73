// The rounds of one iteration on the committee links (crypto/mpc/
// committee_links.h) between the committee's members and the data holders
// outside it; every member and every data holder steps through them in
// this order (docs/protocol.md, "Data holders"):
//   kAttest     member -> holder: CiphertextsDigest("draw matrix") of the
//               member's own fold of the counts the committee agreed on;
//   kSelection  holder -> members: that digest and the holder's selection
//               ciphertexts (SelectionMessage);
//   kInputs     holder -> members: Shamir shares of its d and e;
//   kDraw       members -> holder: its tokens' topics (secure_draw.h);
//   kDeltas     holder -> members: its share of its packed count deltas
//               (party/holder_delta_shares.h).
// Before the first iteration, the party daemons' Prepare has one more
// (kPlanRound).
#ifndef PPLDA_PROTOCOL_DATA_HOLDER_ROUNDS_H_
#define PPLDA_PROTOCOL_DATA_HOLDER_ROUNDS_H_

#include <cstdint>

namespace pplda::protocol {

enum class HolderStep : uint64_t {
  kAttest = 1,
  kSelection = 2,
  kInputs = 3,
  kDraw = 4,
  kDeltas = 5
};

// The links round of `step` in `iteration` (1-based): increasing in both.
constexpr uint64_t HolderRound(int iteration, HolderStep step) {
  return 8 * static_cast<uint64_t>(iteration) + static_cast<uint64_t>(step);
}

// The daemons' round at Prepare (iteration 0), member -> holder: the plan
// digest (protocol/consortium_policy.h) the committee agreed on.
inline constexpr uint64_t kPlanRound = HolderRound(0, HolderStep::kAttest);

// The label of the draw matrix's digest (CiphertextsDigest).
inline constexpr char kDrawMatrixLabel[] = "draw matrix";

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_DATA_HOLDER_ROUNDS_H_

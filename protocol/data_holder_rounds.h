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
// Before the first iteration (iteration 0), the party daemons have three
// more, in this order: with a DP vocabulary, kVocabularyContributionRound
// (holder -> members: the digest of its contribution) and
// kVocabularySelectionRound (members -> holder: the selected candidate
// ids); at Prepare, kPlanRound (members -> holder: the plan digest).
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

// The rounds of iteration 0 (all below HolderRound(1, kAttest)).
inline constexpr uint64_t kVocabularyContributionRound = 1;
inline constexpr uint64_t kVocabularySelectionRound = 2;
// At Prepare, member -> holder: the plan digest (protocol/consortium_policy.h)
// the committee agreed on.
inline constexpr uint64_t kPlanRound = 3;
static_assert(kPlanRound < HolderRound(1, HolderStep::kAttest));

// The label of the draw matrix's digest (CiphertextsDigest).
inline constexpr char kDrawMatrixLabel[] = "draw matrix";

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_DATA_HOLDER_ROUNDS_H_

// The secure weighted draw of secure LDA (DESIGN.md section 4; paper
// "secure distributed LDA", section 3.4): for every token tau, draw a topic
// k in [0, K) with probability w_{tau,k} / S_tau from secret-shared integer
// weights, S_tau = sum_k w_{tau,k}, and reveal it to the token's owner only.
// All tokens of an iteration are drawn in one batch: the rounds do not
// depend on the number of tokens.
//
// Exactness. The topics form a fixed binary tree (node [lo, hi) splits at
// mid = lo + ceil((hi - lo) / 2); depth D = ceil(log2 K), any K >= 1, no
// dummy topics). At an internal node with left weight L = sum_{lo<=k<mid} w_k
// and total T = sum_{lo<=k<hi} w_k the draw goes left iff
//     U T < 2^u L,     U uniform in [0, 2^u) from u shared random bits,
// so Pr[left] = ceil(2^u L / T) / 2^u lies in [L/T, L/T + 2^-u): a subtree
// of weight 0 is never entered (L = 0 gives "never left", L = T > 0 gives
// "always left"), and the drawn topic's distribution is within
// D 2^-u <= 2^-sigma total variation distance of w / S (couple the draws
// node by node: the walk differs only if one of its D decisions differs,
// each with probability < 2^-u), because
//     u = sigma + ceil(log2 D).
// This replaces the paper's r = floor(R S / 2^l) with a bound that holds for
// any K and needs only u + weight_bits bits per comparison.
//
// Methods (DrawMethod):
//  kParallelTree: every node's decision for every token in one batched
//    comparison; the owner's leaf indicator is the product of the decisions
//    along its path, computed obliviously level by level; only the topic
//    index sum_k k [leaf k reached] is opened, to the owner.
//    Rounds: masks (MpcConfig::mask_rounds()) + 1 (U T) + comparison online
//    rounds + (D - 1) + 1.
//    Per token: K - 1 comparisons, (K - 1) u random bits, about 2K more
//    multiplications.
//  kBinarySearch: D levels; at each level the owner deals the one-hot
//    indicator of its current node among the level's nodes (all zeros once
//    its walk has reached a leaf, so every token takes exactly D levels),
//    the parties compute the node's L and T as inner products, compare, and
//    open the decision to the owner only. Rounds: 2 + per level (deal, inner
//    products, U T, comparison, reveal; the root level needs no deal or inner
//    product). Per token: D comparisons and D u random bits.
//  kInverseCdf: one U per token and the prefix sums P_k = w_0 + ... +
//    w_{k-1}: topic = #{k in 1..K-1 : 2^u P_k <= U S}, all K - 1
//    comparisons in one batch, the count (a sum: no multiplications) opened
//    to the owner. Pr[topic >= k] = 1 - ceil(2^u P_k / S) / 2^u, so each
//    topic's probability is within 2^-u of w_k / S (exactly 0 for w_k = 0)
//    and the total variation is below K 2^-u / 2 <= 2^-sigma with
//    u = sigma + ceil(log2 K) - 1. Rounds: masks + 1 (U S) + comparison
//    online rounds + 1. Per token: K - 1 comparisons, u random bits, one
//    multiplication.
//  Either way nothing but the topic reaches the owner (the binary-search
//  owner learns the decisions along its own path, which its topic
//  determines), and the other parties receive only shares and values masked
//  within 2^-sigma.
//
// Comparison: l = u + weight_bits bits. kAuto uses replicated sharing
// (replicated_ring.h) for the binary search and the inverse CDF when the
// config has 3 parties, t = 1 and pseudo-random sharing, l <= 127 and
// max(u, weight_bits) + sigma <= 125: U and the sums move to the ring in one
// masked opening each (within 2^-sigma), the sign of U T - 2^u L is a
// boolean circuit, and the bits are opened to the owner (the inverse CDF's
// K - 1 bits are monotone in k: they tell the owner its topic and nothing
// more). Otherwise the statistical LessThan when l <= max_comparison_bits()
// (for n = 3, t = 1, sigma = 40: weight_bits <= 41 for K <= 16, <= 40 for
// K <= 256) and the full-range comparison when l <= 125 (weight_bits <= 82
// for K <= 256), else InvalidArgument. kStatistical, kFullRange and
// kReplicated force one kind (InvalidArgument when it does not apply).
// With replicated sharing the draw needs only the uniforms' masks
// (SecureDrawMaskSpecs returns one batch instead of two).
//
// Input ranges: weights are non-negative integers with S_tau in
// [1, 2^weight_bits) for every token (not checkable on secrets: S_tau = 0
// draws topic K-1; larger sums give wrong topics). Errors: InvalidArgument
// for bad options, sizes or owners; engine errors pass through.
#ifndef PPLDA_PROTOCOL_SECURE_DRAW_H_
#define PPLDA_PROTOCOL_SECURE_DRAW_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/mpc/committee_links.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/mpc_masks.h"
#include "crypto/mpc/mpc_shares.h"

namespace pplda::protocol {

enum class DrawMethod { kParallelTree, kBinarySearch, kInverseCdf };
enum class DrawComparison { kAuto, kStatistical, kFullRange, kReplicated };

// The methods' names on the command line and the wire: "binary", "tree",
// "cdf". InvalidArgument for any other name.
absl::StatusOr<DrawMethod> DrawMethodFromName(std::string_view name);

struct SecureDrawOptions {
  int num_topics = 0;   // K >= 1
  int weight_bits = 0;  // every token's weight sum is < 2^weight_bits
  DrawMethod method = DrawMethod::kParallelTree;
  DrawComparison comparison = DrawComparison::kAuto;
};

// The public shape of a draw, derived from the options and the config.
struct SecureDrawPlan {
  int num_topics = 0;
  DrawMethod method = DrawMethod::kBinarySearch;
  int tree_depth = 0;         // D = ceil(log2 K)
  int uniform_bits = 0;       // u: sigma + ceil(log2 D), or for the inverse
                              // CDF sigma + ceil(log2 K) - 1
  int comparison_bits = 0;    // l = u + weight_bits
  bool full_range = false;    // comparison kind chosen (field)
  bool replicated = false;    // or replicated sharing (replicated_ring.h)
  int conversion_bits = 0;    // replicated: width of the values converted
  int comparisons_per_token = 0;
  int rounds = 0;             // for any number of tokens (without the
                              // engine's one-time key agreement)
};

absl::StatusOr<SecureDrawPlan> PlanSecureDraw(const crypto::MpcConfig& config,
                                              const SecureDrawOptions& options);

// weights: num_tokens * K shares, token-major (w_{tau,k} at tau * K + k);
// owners[tau]: the party that learns token tau's topic. Returns, for this
// party, the topic of each token it owns and nullopt for the others.
absl::StatusOr<std::vector<std::optional<int>>> SecureDraw(crypto::MpcEngine& engine,
                                                           const crypto::Shares& weights,
                                                           absl::Span<const int> owners,
                                                           const SecureDrawOptions& options);

// The masks a draw of `tokens` tokens needs (empty for K = 1), so that a
// caller can make them in the same GenerateMasks call as other masks, and
// the draw with those masks (InvalidArgument if they do not match; the
// mask rounds are then not part of plan.rounds' cost here).
std::vector<crypto::MaskSpec> SecureDrawMaskSpecs(const crypto::MpcConfig& config,
                                                  const SecureDrawPlan& plan, size_t tokens);
absl::StatusOr<std::vector<std::optional<int>>> SecureDraw(
    crypto::MpcEngine& engine, const crypto::Shares& weights, absl::Span<const int> owners,
    const SecureDrawOptions& options, absl::Span<const crypto::MaskBatch> masks);

// Owners outside the committee (data holders): with `clients`, an owner id
// n + c (n = the engine's parties) is client c of clients->links
// (crypto/mpc/committee_links.h), which learns its tokens' topics, in
// token order, from every member in links round clients->round: the
// topic's shares (field comparisons) or its K - 1 monotone comparison bits
// (replicated), as a committee owner's OpenTo would give them. Every member
// sends each client one message, empty when it owns no token. The
// binary-search draw, whose owner deals at every level, is InvalidArgument
// with clients.
struct DrawClients {
  crypto::CommitteeLinks* links = nullptr;
  uint64_t round = 0;
};
absl::StatusOr<std::vector<std::optional<int>>> SecureDraw(
    crypto::MpcEngine& engine, const crypto::Shares& weights, absl::Span<const int> owners,
    const SecureDrawOptions& options, absl::Span<const crypto::MaskBatch> masks,
    const DrawClients& clients);
// A client's side: the topics of its `tokens` tokens, revealed in `round`
// by a committee with `committee`'s config drawing with `options`.
// InvalidArgument for a topic out of range (inconsistent members).
absl::StatusOr<std::vector<int>> ReceiveDrawnTopics(crypto::CommitteeLinks& links,
                                                    const crypto::MpcConfig& committee,
                                                    const SecureDrawOptions& options,
                                                    uint64_t round, size_t tokens);

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_SECURE_DRAW_H_

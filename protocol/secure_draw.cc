#include "protocol/secure_draw.h"

#include <algorithm>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/mpc/cnf_ring.h"
#include "crypto/mpc/comparison.h"
#include "crypto/mpc/replicated_ring.h"

namespace pplda::protocol {

using crypto::BitShares;
using crypto::CnfBits;
using crypto::CnfRing;
using crypto::CnfShares;
using crypto::FieldElement;
using crypto::FieldVector;
using crypto::FullRangeMaskSpec;
using crypto::LessThan;
using crypto::LessThanFullRange;
using crypto::LessThanMaskSpec;
using crypto::MaskBatch;
using crypto::MaskSpec;
using crypto::MpcConfig;
using crypto::MpcEngine;
using crypto::ReplicatedRing;
using crypto::RingShares;
using crypto::Shares;
using crypto::uint128;

namespace {

constexpr int kMaxTopics = 1 << 16;
constexpr int kFullRangeMaxBits = 125;  // operands < 2^125 < (p - 1) / 2
// Replicated: the sign of a value below 2^l in magnitude on l + 1 <= 128
// bits; conversion of b-bit values up to CnfRing::MaxConversionBits (125 -
// sigma for n = 3).
constexpr int kReplicatedMaxBits = 128;

int CeilLog2(int x) {
  int bits = 0;
  while ((1 << bits) < x) ++bits;
  return bits;
}

// The fixed binary tree over topics [0, K). Internal nodes are numbered in
// breadth-first order; a child is either an internal node (>= 0) or a leaf,
// encoded as -(topic + 1).
struct TopicTree {
  struct Node {
    int lo, mid, hi, depth, left, right;
  };
  std::vector<Node> nodes;
  std::vector<std::vector<int>> by_depth;  // internal nodes per depth
  int depth = 0;                           // D

  explicit TopicTree(int num_topics) {
    if (num_topics < 2) return;
    nodes.push_back(Node{0, 0, num_topics, 0, 0, 0});
    for (size_t i = 0; i < nodes.size(); ++i) {
      // Child() appends to `nodes`, so no reference into it is held.
      const int lo = nodes[i].lo, hi = nodes[i].hi, depth = nodes[i].depth;
      const int mid = lo + (hi - lo + 1) / 2;
      const int left = Child(lo, mid, depth + 1);
      const int right = Child(mid, hi, depth + 1);
      nodes[i].mid = mid;
      nodes[i].left = left;
      nodes[i].right = right;
    }
    for (int v = 0; v < static_cast<int>(nodes.size()); ++v) {
      const int d = nodes[v].depth;
      if (static_cast<int>(by_depth.size()) <= d) by_depth.resize(d + 1);
      by_depth[d].push_back(v);
    }
    depth = static_cast<int>(by_depth.size());
  }

  int Child(int lo, int hi, int child_depth) {
    if (hi - lo == 1) return -(lo + 1);
    nodes.push_back(Node{lo, 0, hi, child_depth, 0, 0});
    return static_cast<int>(nodes.size()) - 1;
  }
};

// Rounds of the comparison after U T (replicated: the conversion to the
// ring, which comes before U T, and the sign; ReplicatedRing's for n = 3
// are CnfRing's).
int ComparisonOnlineRounds(const SecureDrawPlan& plan, int parties) {
  if (plan.replicated) return 1 + CnfRing::SignRounds(parties, plan.comparison_bits + 1);
  return plan.full_range ? 2 + CeilLog2(FieldElement::kBits)
                         : 1 + CeilLog2(plan.comparison_bits);
}

// The replicated draw runs over either ring: ReplicatedRing (n = 3, its
// own fast path) or CnfRing (any odd n). Both hold a value as components,
// each a vector over the elements; these apply one function to each
// component of this party's shares.
template <typename F>
void ForEachComponent(RingShares& a, const RingShares& b, F f) {
  f(a.own, b.own), f(a.next, b.next);
}
template <typename F>
void ForEachComponent(CnfShares& a, const CnfShares& b, F f) {
  for (size_t h = 0; h < a.parts.size(); ++h) f(a.parts[h], b.parts[h]);
}

RingShares EmptyLike(const RingShares&) { return RingShares{}; }
CnfShares EmptyLike(const CnfShares& a) {
  return CnfShares{std::vector<std::vector<uint128>>(a.parts.size())};
}

template <typename RingValues>
RingValues RingSlice(const RingValues& a, size_t begin, size_t count) {
  RingValues out = EmptyLike(a);
  ForEachComponent(out, a, [&](std::vector<uint128>& to, const std::vector<uint128>& from) {
    to.assign(from.begin() + begin, from.begin() + begin + count);
  });
  return out;
}

// Runs body(ring) over the ring the engine's committee uses.
template <typename Body>
auto WithRing(MpcEngine& engine, Body body) -> decltype(body(std::declval<CnfRing&>())) {
  if (engine.config().replicated_three_party()) {
    ASSIGN_OR_RETURN(ReplicatedRing ring, ReplicatedRing::Create(engine));
    return body(ring);
  }
  ASSIGN_OR_RETURN(CnfRing ring, CnfRing::Create(engine));
  return body(ring);
}

// Left weights L and totals T for every (token, internal node), token-major.
void NodeSums(const Shares& weights, size_t tokens, int num_topics, const TopicTree& tree,
              Shares& left, Shares& total) {
  const size_t nodes = tree.nodes.size();
  left = Shares(tokens * nodes);
  total = Shares(tokens * nodes);
  FieldVector prefix(num_topics + 1);
  for (size_t tau = 0; tau < tokens; ++tau) {
    prefix[0] = FieldElement::Zero();
    for (int k = 0; k < num_topics; ++k) prefix[k + 1] = prefix[k] + weights[tau * num_topics + k];
    for (size_t v = 0; v < nodes; ++v) {
      const TopicTree::Node& node = tree.nodes[v];
      left[tau * nodes + v] = prefix[node.mid] - prefix[node.lo];
      total[tau * nodes + v] = prefix[node.hi] - prefix[node.lo];
    }
  }
}

MaskSpec ComparisonMasks(const MpcConfig& config, const SecureDrawPlan& plan, size_t count) {
  return plan.full_range ? FullRangeMaskSpec(count)
                         : LessThanMaskSpec(config, count, plan.comparison_bits);
}

// [U T < 2^u L] for every element, opened to its owner only, with
// replicated sharing: U, L and T to the ring in one round, U T in one,
// then the sign of U T - 2^u L (|.| < 2^l) on l + 1 bits.
template <typename Ring>
absl::StatusOr<std::vector<std::optional<bool>>> GoLeftReplicated(
    Ring& ring, const SecureDrawPlan& plan, const Shares& uniform, const Shares& left,
    const Shares& total, absl::Span<const int> owners) {
  const size_t n = uniform.size();
  Shares all = uniform;
  all.Append(left);
  all.Append(total);
  // Every value (U < 2^u, weight sums < 2^weight_bits) fits in
  // plan.conversion_bits.
  ASSIGN_OR_RETURN(auto converted, ring.FromField(all, plan.conversion_bits));
  ASSIGN_OR_RETURN(auto scaled_total,
                   ring.Mul(RingSlice(converted, 0, n), RingSlice(converted, 2 * n, n)));
  ForEachComponent(scaled_total, RingSlice(converted, n, n),
                   [&](std::vector<uint128>& st, const std::vector<uint128>& l) {
                     for (size_t e = 0; e < n; ++e) st[e] -= l[e] << plan.uniform_bits;
                   });
  ASSIGN_OR_RETURN(auto below, ring.LessThanZero(scaled_total, plan.comparison_bits + 1));
  return ring.OpenBitsTo(below, owners);
}

// Shares of [U T < 2^u L] for every element.
absl::StatusOr<Shares> GoLeft(MpcEngine& engine, const SecureDrawPlan& plan,
                              const Shares& uniform, const Shares& left, const Shares& total,
                              const MaskBatch& masks) {
  ASSIGN_OR_RETURN(Shares scaled_total, engine.Mul(uniform, total));
  const Shares scaled_left = left * FieldElement::PowerOfTwo(plan.uniform_bits);
  if (plan.full_range) return LessThanFullRange(engine, scaled_total, scaled_left, masks);
  return LessThan(engine, scaled_total, scaled_left, plan.comparison_bits, masks);
}

absl::StatusOr<std::vector<std::optional<int>>> ToTopics(
    const std::vector<std::optional<FieldElement>>& opened, int num_topics) {
  std::vector<std::optional<int>> out(opened.size());
  for (size_t tau = 0; tau < opened.size(); ++tau) {
    if (!opened[tau].has_value()) continue;
    const uint128 v = opened[tau]->value();
    if (v >= static_cast<uint128>(num_topics)) {
      return absl::InternalError(absl::StrCat(
          "secure draw: token ", tau, " opened topic ", opened[tau]->ToString(),
          ", not below K = ", num_topics, " (inconsistent parties)"));
    }
    out[tau] = static_cast<int>(v);
  }
  return out;
}

// The elements `picked` of bit-sliced words, in that order.
std::vector<uint64_t> PickWords(const std::vector<uint64_t>& words,
                                const std::vector<size_t>& picked) {
  std::vector<uint64_t> out((picked.size() + 63) / 64, 0);
  for (size_t i = 0; i < picked.size(); ++i) {
    const size_t e = picked[i];
    out[i / 64] |= ((words[e / 64] >> (e % 64)) & 1) << (i % 64);
  }
  return out;
}

// The elements `picked` of bit-sliced shares, in that order.
BitShares PickBits(const BitShares& bits, const std::vector<size_t>& picked) {
  return BitShares{picked.size(), PickWords(bits.own, picked), PickWords(bits.next, picked)};
}
CnfBits PickBits(const CnfBits& bits, const std::vector<size_t>& picked) {
  CnfBits out{picked.size(), {}};
  for (const std::vector<uint64_t>& part : bits.parts) out.parts.push_back(PickWords(part, picked));
  return out;
}

// For each client, the positions in [0, owners.size()) it owns, in order;
// and the committee's positions. InvalidArgument for an owner that is
// neither a party nor (with clients) a client.
absl::Status SplitOwners(int parties, absl::Span<const int> owners, const DrawClients* clients,
                         std::vector<size_t>& committee,
                         std::vector<std::vector<size_t>>& by_client) {
  const int num_clients = clients == nullptr ? 0 : clients->links->num_clients();
  by_client.assign(num_clients, {});
  for (size_t tau = 0; tau < owners.size(); ++tau) {
    const int o = owners[tau];
    if (o >= 0 && o < parties) {
      committee.push_back(tau);
    } else if (o >= parties && o < parties + num_clients) {
      by_client[o - parties].push_back(tau);
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "secure draw: owner of token ", tau, " is ", o, ", not a party id (0..", parties - 1, ")",
          num_clients > 0
              ? absl::StrCat(" or a client (", parties, "..", parties + num_clients - 1, ")")
              : ""));
    }
  }
  return absl::OkStatus();
}

// values[tau] opened to owners[tau]: OpenTo for the committee's owners, and
// every member's shares of a client's tokens to that client.
absl::StatusOr<std::vector<std::optional<FieldElement>>> OpenToOwners(MpcEngine& engine,
                                                                      const Shares& values,
                                                                      absl::Span<const int> owners,
                                                                      const DrawClients* clients) {
  if (clients == nullptr) return engine.OpenTo(values, owners);
  std::vector<size_t> committee;
  std::vector<std::vector<size_t>> by_client;
  RETURN_IF_ERROR(SplitOwners(engine.num_parties(), owners, clients, committee, by_client));
  Shares mine(committee.size());
  std::vector<int> receivers(committee.size());
  for (size_t i = 0; i < committee.size(); ++i) {
    mine[i] = values[committee[i]];
    receivers[i] = owners[committee[i]];
  }
  ASSIGN_OR_RETURN(auto opened, engine.OpenTo(mine, receivers));
  std::vector<std::optional<FieldElement>> out(values.size());
  for (size_t i = 0; i < committee.size(); ++i) out[committee[i]] = opened[i];
  for (size_t c = 0; c < by_client.size(); ++c) {
    Shares theirs(by_client[c].size());
    for (size_t i = 0; i < by_client[c].size(); ++i) theirs[i] = values[by_client[c][i]];
    RETURN_IF_ERROR(clients->links->RevealTo(static_cast<int>(c), clients->round, theirs));
  }
  return out;
}

// bits[tau * cuts + j] opened to owners[tau], the same way with replicated
// shares: OpenBitsTo for the committee's owners, every member's own
// component to the clients.
template <typename Ring, typename Bits>
absl::StatusOr<std::vector<std::optional<bool>>> OpenBitsToOwners(Ring& ring, int parties,
                                                                  const Bits& bits, size_t cuts,
                                                                  absl::Span<const int> owners,
                                                                  const DrawClients* clients) {
  std::vector<size_t> committee;
  std::vector<std::vector<size_t>> by_client;
  RETURN_IF_ERROR(SplitOwners(parties, owners, clients, committee, by_client));
  auto elements_of = [&](const std::vector<size_t>& tokens) {
    std::vector<size_t> e;
    for (size_t tau : tokens) {
      for (size_t j = 0; j < cuts; ++j) e.push_back(tau * cuts + j);
    }
    return e;
  };
  const std::vector<size_t> mine = elements_of(committee);
  std::vector<int> receivers(mine.size());
  for (size_t i = 0; i < mine.size(); ++i) receivers[i] = owners[mine[i] / cuts];
  ASSIGN_OR_RETURN(auto opened,
                   ring.OpenBitsTo(clients == nullptr ? bits : PickBits(bits, mine), receivers));
  std::vector<std::optional<bool>> out(bits.count);
  for (size_t i = 0; i < mine.size(); ++i) out[mine[i]] = opened[i];
  for (size_t c = 0; c < by_client.size(); ++c) {
    const Bits theirs = PickBits(bits, elements_of(by_client[c]));
    RETURN_IF_ERROR(clients->links->RevealBitsTo(static_cast<int>(c), clients->round,
                                                 ring.PartForClient(theirs), theirs.count));
  }
  return out;
}

absl::StatusOr<std::vector<std::optional<int>>> DrawParallel(
    MpcEngine& engine, const SecureDrawPlan& plan, const TopicTree& tree, const Shares& weights,
    absl::Span<const int> owners, absl::Span<const MaskBatch> masks, const DrawClients* clients) {
  const size_t tokens = owners.size(), nodes = tree.nodes.size();
  const int num_topics = plan.num_topics;
  Shares left, total;
  NodeSums(weights, tokens, num_topics, tree, left, total);
  ASSIGN_OR_RETURN(Shares go_left, GoLeft(engine, plan, masks[0].low, left, total, masks[1]));

  // reach[tau * nodes + v]: [token tau's walk passes internal node v].
  Shares reach(tokens * nodes), leaf(tokens * num_topics);
  for (size_t tau = 0; tau < tokens; ++tau) reach[tau * nodes] = FieldElement::One();
  for (int d = 0; d < tree.depth; ++d) {
    const std::vector<int>& level = tree.by_depth[d];
    Shares via_left(tokens * level.size());
    if (d == 0) {
      // The root is reached with certainty: its left branch is its decision.
      for (size_t tau = 0; tau < tokens; ++tau) via_left[tau] = go_left[tau * nodes];
    } else {
      Shares lhs(tokens * level.size()), rhs(tokens * level.size());
      for (size_t tau = 0; tau < tokens; ++tau) {
        for (size_t j = 0; j < level.size(); ++j) {
          lhs[tau * level.size() + j] = reach[tau * nodes + level[j]];
          rhs[tau * level.size() + j] = go_left[tau * nodes + level[j]];
        }
      }
      ASSIGN_OR_RETURN(via_left, engine.Mul(lhs, rhs));
    }
    for (size_t tau = 0; tau < tokens; ++tau) {
      for (size_t j = 0; j < level.size(); ++j) {
        const TopicTree::Node& node = tree.nodes[level[j]];
        const FieldElement l = via_left[tau * level.size() + j];
        const FieldElement r = reach[tau * nodes + level[j]] - l;
        for (auto [child, value] : {std::pair<int, FieldElement>{node.left, l}, {node.right, r}}) {
          if (child >= 0) {
            reach[tau * nodes + child] = value;
          } else {
            leaf[tau * num_topics + (-child - 1)] = value;
          }
        }
      }
    }
  }
  Shares topic(tokens);
  for (size_t tau = 0; tau < tokens; ++tau) {
    FieldElement sum = FieldElement::Zero();
    for (int k = 1; k < num_topics; ++k) sum += FieldElement::FromUint64(k) * leaf[tau * num_topics + k];
    topic[tau] = sum;
  }
  ASSIGN_OR_RETURN(auto opened, OpenToOwners(engine, topic, owners, clients));
  return ToTopics(opened, num_topics);
}

// The inverse CDF with replicated sharing: U, S and the prefixes to the
// ring in one round, U S in one, the K - 1 bits [2^u P_k - U S - 1 < 0] =
// [2^u P_k <= U S] (|.| <= 2^l) opened to the owner, who counts them. Being
// monotone in k (P_k is), they tell the owner its topic and nothing else.
template <typename Ring>
absl::StatusOr<std::vector<std::optional<int>>> InverseCdfReplicated(
    Ring& ring, int parties, const SecureDrawPlan& plan, const Shares& uniform, const Shares& sums,
    const Shares& prefixes, absl::Span<const int> owners, const DrawClients* clients) {
  const size_t tokens = owners.size();
  const size_t cuts = static_cast<size_t>(plan.num_topics - 1);
  Shares all = uniform;
  all.Append(sums);
  all.Append(prefixes);
  ASSIGN_OR_RETURN(auto converted, ring.FromField(all, plan.conversion_bits));
  ASSIGN_OR_RETURN(auto scaled_sum,
                   ring.Mul(RingSlice(converted, 0, tokens), RingSlice(converted, tokens, tokens)));
  auto gap = RingSlice(converted, 2 * tokens, tokens * cuts);
  ForEachComponent(gap, scaled_sum, [&](std::vector<uint128>& g, const std::vector<uint128>& us) {
    for (size_t tau = 0; tau < tokens; ++tau) {
      for (size_t c = 0; c < cuts; ++c) {
        const size_t e = tau * cuts + c;
        g[e] = (g[e] << plan.uniform_bits) - us[tau];
      }
    }
  });
  ring.AddConstant(gap, ~uint128{0});  // - 1
  ASSIGN_OR_RETURN(auto passed, ring.LessThanZero(gap, plan.comparison_bits + 1));
  ASSIGN_OR_RETURN(auto opened, OpenBitsToOwners(ring, parties, passed, cuts, owners, clients));
  const int me = ring.party_id();
  std::vector<std::optional<int>> out(tokens);
  for (size_t tau = 0; tau < tokens; ++tau) {
    if (owners[tau] != me) continue;
    int topic = 0;
    for (size_t c = 0; c < cuts; ++c) topic += *opened[tau * cuts + c] ? 1 : 0;
    out[tau] = topic;
  }
  return out;
}

// topic = #{k in 1..K-1 : 2^u P_k <= U S}, P_k = w_0 + ... + w_{k-1}.
absl::StatusOr<std::vector<std::optional<int>>> DrawInverseCdf(
    MpcEngine& engine, const SecureDrawPlan& plan, const Shares& weights,
    absl::Span<const int> owners, absl::Span<const MaskBatch> masks, const DrawClients* clients) {
  const size_t tokens = owners.size();
  const int K = plan.num_topics, cuts = K - 1;
  Shares sums(tokens), prefixes(tokens * cuts);
  for (size_t tau = 0; tau < tokens; ++tau) {
    FieldElement prefix = FieldElement::Zero();
    for (int k = 0; k < K; ++k) {
      if (k > 0) prefixes[tau * cuts + (k - 1)] = prefix;
      prefix += weights[tau * K + k];
    }
    sums[tau] = prefix;
  }
  if (plan.replicated) {
    return WithRing(engine, [&](auto& ring) {
      return InverseCdfReplicated(ring, engine.num_parties(), plan, masks[0].low, sums, prefixes,
                                  owners, clients);
    });
  }
  ASSIGN_OR_RETURN(Shares scaled_sum, engine.Mul(masks[0].low, sums));
  Shares lhs(tokens * cuts);
  for (size_t tau = 0; tau < tokens; ++tau) {
    for (int c = 0; c < cuts; ++c) lhs[tau * cuts + c] = scaled_sum[tau];
  }
  const Shares rhs = prefixes * FieldElement::PowerOfTwo(plan.uniform_bits);
  ASSIGN_OR_RETURN(Shares below, plan.full_range
                                     ? LessThanFullRange(engine, lhs, rhs, masks[1])
                                     : LessThan(engine, lhs, rhs, plan.comparison_bits, masks[1]));
  Shares topic(tokens);
  for (size_t tau = 0; tau < tokens; ++tau) {
    FieldElement passed = FieldElement::FromUint64(static_cast<uint64_t>(cuts));
    for (int c = 0; c < cuts; ++c) passed -= below[tau * cuts + c];
    topic[tau] = passed;
  }
  ASSIGN_OR_RETURN(auto opened, OpenToOwners(engine, topic, owners, clients));
  return ToTopics(opened, K);
}

// Longer than a screen: one level of the tree walk per round, batched over
// every token; split, the rounds would be spread over several places.
absl::StatusOr<std::vector<std::optional<int>>> DrawBinarySearch(
    MpcEngine& engine, const SecureDrawPlan& plan, const TopicTree& tree,
    const Shares& weights, absl::Span<const int> owners, absl::Span<const MaskBatch> masks) {
  const size_t tokens = owners.size(), nodes = tree.nodes.size();
  const int me = engine.party_id();
  Shares left, total;
  NodeSums(weights, tokens, plan.num_topics, tree, left, total);

  // The owner's walk: current internal node, or -(topic + 1) at a leaf.
  std::vector<int> position(tokens, 0);
  for (int d = 0; d < tree.depth; ++d) {
    const std::vector<int>& level = tree.by_depth[d];
    const size_t width = level.size();
    Shares node_left(tokens), node_total(tokens);
    if (width == 1) {
      for (size_t tau = 0; tau < tokens; ++tau) {
        node_left[tau] = left[tau * nodes + level[0]];
        node_total[tau] = total[tau * nodes + level[0]];
      }
    } else {
      // The owner's one-hot indicator of its node among this level's nodes.
      std::vector<int> dealers(tokens * width);
      FieldVector mine;
      for (size_t tau = 0; tau < tokens; ++tau) {
        for (size_t j = 0; j < width; ++j) {
          dealers[tau * width + j] = owners[tau];
          if (owners[tau] == me) {
            mine.push_back(position[tau] == level[j] ? FieldElement::One() : FieldElement::Zero());
          }
        }
      }
      ASSIGN_OR_RETURN(Shares indicator, engine.Input(dealers, mine));
      Shares both = indicator;
      both.Append(indicator);
      Shares sums(2 * tokens * width);
      for (size_t tau = 0; tau < tokens; ++tau) {
        for (size_t j = 0; j < width; ++j) {
          sums[tau * width + j] = left[tau * nodes + level[j]];
          sums[(tokens + tau) * width + j] = total[tau * nodes + level[j]];
        }
      }
      ASSIGN_OR_RETURN(Shares selected, engine.InnerProducts(both, sums, width));
      node_left = selected.Slice(0, tokens);
      node_total = selected.Slice(tokens, tokens);
    }
    const Shares uniform = masks[0].low.Slice(d * tokens, tokens);
    std::vector<std::optional<bool>> decisions(tokens);
    if (plan.replicated) {
      ASSIGN_OR_RETURN(decisions, WithRing(engine, [&](auto& ring) {
                         return GoLeftReplicated(ring, plan, uniform, node_left, node_total,
                                                 owners);
                       }));
    } else {
      ASSIGN_OR_RETURN(Shares go_left, GoLeft(engine, plan, uniform, node_left, node_total,
                                              masks[1].Slice(d * tokens, tokens)));
      ASSIGN_OR_RETURN(auto opened, engine.OpenTo(go_left, owners));
      for (size_t tau = 0; tau < tokens; ++tau) {
        if (opened[tau].has_value()) decisions[tau] = !opened[tau]->IsZero();
      }
    }
    for (size_t tau = 0; tau < tokens; ++tau) {
      if (!decisions[tau].has_value() || position[tau] < 0) continue;
      const TopicTree::Node& node = tree.nodes[position[tau]];
      position[tau] = *decisions[tau] ? node.left : node.right;
    }
  }
  std::vector<std::optional<int>> out(tokens);
  for (size_t tau = 0; tau < tokens; ++tau) {
    if (owners[tau] != me) continue;
    if (position[tau] >= 0) {
      return absl::InternalError(absl::StrCat(
          "secure draw: token ", tau, "'s walk ended at internal node ", position[tau]));
    }
    out[tau] = -position[tau] - 1;
  }
  return out;
}

}  // namespace

absl::StatusOr<DrawMethod> DrawMethodFromName(std::string_view name) {
  if (name == "binary") return DrawMethod::kBinarySearch;
  if (name == "tree") return DrawMethod::kParallelTree;
  if (name == "cdf") return DrawMethod::kInverseCdf;
  return absl::InvalidArgumentError(absl::StrCat("secure draw method '", std::string(name),
                                                 "' is not one of binary, tree, cdf"));
}

// Longer than a screen: the method, comparison kind, widths and rounds of a
// draw are chosen together (each depends on the ones before).
absl::StatusOr<SecureDrawPlan> PlanSecureDraw(const MpcConfig& config,
                                              const SecureDrawOptions& options) {
  const int num_topics = options.num_topics;
  if (num_topics < 1 || num_topics > kMaxTopics) {
    return absl::InvalidArgumentError(absl::StrCat(
        "secure draw: number of topics K = ", num_topics, " is outside [1, ", kMaxTopics, "]"));
  }
  if (options.weight_bits < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "secure draw: weight_bits = ", options.weight_bits, " must be >= 1"));
  }
  SecureDrawPlan plan;
  plan.num_topics = num_topics;
  plan.method = options.method;
  plan.tree_depth = CeilLog2(num_topics);
  if (num_topics == 1) return plan;  // nothing to draw, no communication
  // Tree walks: D decisions, each off by < 2^-u. Inverse CDF: each of the
  // K probabilities off by < 2^-u, total variation < K 2^-u / 2.
  plan.uniform_bits = options.method == DrawMethod::kInverseCdf
                          ? config.sigma() + std::max(0, CeilLog2(num_topics) - 1)
                          : config.sigma() + CeilLog2(plan.tree_depth);
  plan.comparison_bits = plan.uniform_bits + options.weight_bits;
  const bool fits_statistical = plan.comparison_bits <= config.max_comparison_bits();
  const bool fits_full = plan.comparison_bits <= kFullRangeMaxBits;
  const int conversion_bits = std::max(plan.uniform_bits, options.weight_bits);
  const int max_conversion_bits = CnfRing::MaxConversionBits(config.num_parties(), config.sigma());
  const bool fits_replicated = config.replicated() && options.method != DrawMethod::kParallelTree &&
                               plan.comparison_bits + 1 <= kReplicatedMaxBits &&
                               conversion_bits <= max_conversion_bits;
  switch (options.comparison) {
    case DrawComparison::kAuto:
      plan.replicated = fits_replicated;
      plan.full_range = !fits_replicated && !fits_statistical;
      break;
    case DrawComparison::kReplicated:
      if (!fits_replicated) {
        return absl::InvalidArgumentError(absl::StrCat(
            "secure draw: replicated comparisons need an odd number of parties n = 2t + 1, "
            "pseudo-random sharing, the binary-search or inverse-CDF draw, comparisons of at "
            "most ",
            kReplicatedMaxBits - 1, " bits (", plan.comparison_bits,
            " here) and weights of at most ", max_conversion_bits, " bits"));
      }
      plan.replicated = true;
      break;
    case DrawComparison::kStatistical:
      plan.full_range = false;
      break;
    case DrawComparison::kFullRange:
      plan.full_range = true;
      break;
  }
  if (plan.replicated) plan.conversion_bits = conversion_bits;
  if (!plan.replicated &&
      ((!plan.full_range && !fits_statistical) || (plan.full_range && !fits_full))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "secure draw: weight_bits = ", options.weight_bits, " plus ", plan.uniform_bits,
        " uniform bits needs ", plan.comparison_bits, "-bit comparisons; the limit is ",
        config.max_comparison_bits(), " (statistical) or ", kFullRangeMaxBits,
        " (full range)"));
  }
  const TopicTree tree(num_topics);
  const int compare = ComparisonOnlineRounds(plan, config.num_parties());
  if (options.method == DrawMethod::kInverseCdf) {
    plan.comparisons_per_token = num_topics - 1;
    plan.rounds = config.mask_rounds() + 1 + compare + 1;
  } else if (options.method == DrawMethod::kParallelTree) {
    plan.comparisons_per_token = num_topics - 1;
    plan.rounds = config.mask_rounds() + 1 + compare + (plan.tree_depth - 1) + 1;
  } else {
    plan.comparisons_per_token = plan.tree_depth;
    plan.rounds = config.mask_rounds();
    for (const std::vector<int>& level : tree.by_depth) {
      plan.rounds += (level.size() > 1 ? 2 : 0) + 1 + compare + 1;
    }
  }
  return plan;
}

namespace {

absl::Status CheckDrawInputs(const MpcEngine& engine, const Shares& weights,
                             absl::Span<const int> owners, const SecureDrawOptions& options,
                             const DrawClients* clients = nullptr) {
  const size_t tokens = owners.size();
  if (weights.size() != tokens * options.num_topics) {
    return absl::InvalidArgumentError(absl::StrCat(
        "secure draw: ", weights.size(), " weight shares for ", tokens, " tokens and K = ",
        options.num_topics, "; expected ", tokens * options.num_topics));
  }
  if (clients == nullptr) {
    for (size_t tau = 0; tau < tokens; ++tau) {
      if (owners[tau] < 0 || owners[tau] >= engine.num_parties()) {
        return absl::InvalidArgumentError(
            absl::StrCat("secure draw: owner of token ", tau, " is party ", owners[tau],
                         ", not a party id (0..", engine.num_parties() - 1, ")"));
      }
    }
    return absl::OkStatus();
  }
  if (clients->links == nullptr || clients->links->is_client() ||
      clients->links->committee_size() != engine.num_parties()) {
    return absl::InvalidArgumentError(
        "secure draw: the clients' links must be this member's, for this committee");
  }
  if (options.method == DrawMethod::kBinarySearch) {
    return absl::InvalidArgumentError(
        "secure draw: the binary search has every token's owner deal at each level; tokens of "
        "data holders are drawn with the inverse CDF or the parallel tree");
  }
  std::vector<size_t> committee;
  std::vector<std::vector<size_t>> by_client;
  return SplitOwners(engine.num_parties(), owners, clients, committee, by_client);
}

}  // namespace

std::vector<MaskSpec> SecureDrawMaskSpecs(const MpcConfig& config, const SecureDrawPlan& plan,
                                          size_t tokens) {
  if (plan.num_topics <= 1) return {};
  size_t uniforms = 0, comparisons = 0;
  switch (plan.method) {
    case DrawMethod::kInverseCdf:
      uniforms = tokens;
      comparisons = tokens * (plan.num_topics - 1);
      break;
    case DrawMethod::kParallelTree:
      uniforms = comparisons = tokens * (plan.num_topics - 1);  // one per internal node
      break;
    case DrawMethod::kBinarySearch:
      uniforms = comparisons = tokens * plan.tree_depth;
      break;
  }
  if (plan.replicated) return {MaskSpec{uniforms, plan.uniform_bits, 0, false}};
  return {MaskSpec{uniforms, plan.uniform_bits, 0, false},
          ComparisonMasks(config, plan, comparisons)};
}

absl::StatusOr<std::vector<std::optional<int>>> SecureDraw(MpcEngine& engine,
                                                           const Shares& weights,
                                                           absl::Span<const int> owners,
                                                           const SecureDrawOptions& options) {
  ASSIGN_OR_RETURN(SecureDrawPlan plan, PlanSecureDraw(engine.config(), options));
  RETURN_IF_ERROR(CheckDrawInputs(engine, weights, owners, options));
  ASSIGN_OR_RETURN(std::vector<MaskBatch> masks,
                   engine.GenerateMasks(SecureDrawMaskSpecs(engine.config(), plan, owners.size())));
  return SecureDraw(engine, weights, owners, options, masks);
}

namespace {

absl::StatusOr<std::vector<std::optional<int>>> DrawWithMasks(MpcEngine& engine,
                                                              const Shares& weights,
                                                              absl::Span<const int> owners,
                                                              const SecureDrawOptions& options,
                                                              absl::Span<const MaskBatch> masks,
                                                              const DrawClients* clients) {
  ASSIGN_OR_RETURN(SecureDrawPlan plan, PlanSecureDraw(engine.config(), options));
  const size_t tokens = owners.size();
  RETURN_IF_ERROR(CheckDrawInputs(engine, weights, owners, options, clients));
  const std::vector<MaskSpec> want = SecureDrawMaskSpecs(engine.config(), plan, tokens);
  if (masks.size() != want.size()) {
    return absl::InvalidArgumentError(absl::StrCat("secure draw: ", masks.size(),
                                                   " mask batches, expected ", want.size()));
  }
  for (size_t i = 0; i < want.size(); ++i) {
    RETURN_IF_ERROR(CheckMasks(masks[i], want[i], "secure draw"));
  }
  if (options.num_topics == 1) {
    // Every token's topic is 0; a client knows it without a message.
    std::vector<std::optional<int>> out(tokens);
    for (size_t tau = 0; tau < tokens; ++tau) {
      if (owners[tau] == engine.party_id()) out[tau] = 0;
    }
    return out;
  }
  if (options.method == DrawMethod::kInverseCdf) {
    return DrawInverseCdf(engine, plan, weights, owners, masks, clients);
  }
  const TopicTree tree(options.num_topics);
  if (options.method == DrawMethod::kParallelTree) {
    return DrawParallel(engine, plan, tree, weights, owners, masks, clients);
  }
  return DrawBinarySearch(engine, plan, tree, weights, owners, masks);
}

}  // namespace

absl::StatusOr<std::vector<std::optional<int>>> SecureDraw(MpcEngine& engine, const Shares& weights,
                                                           absl::Span<const int> owners,
                                                           const SecureDrawOptions& options,
                                                           absl::Span<const MaskBatch> masks) {
  return DrawWithMasks(engine, weights, owners, options, masks, nullptr);
}

absl::StatusOr<std::vector<std::optional<int>>> SecureDraw(MpcEngine& engine, const Shares& weights,
                                                           absl::Span<const int> owners,
                                                           const SecureDrawOptions& options,
                                                           absl::Span<const MaskBatch> masks,
                                                           const DrawClients& clients) {
  return DrawWithMasks(engine, weights, owners, options, masks, &clients);
}

absl::StatusOr<std::vector<int>> ReceiveDrawnTopics(crypto::CommitteeLinks& links,
                                                    const MpcConfig& committee,
                                                    const SecureDrawOptions& options,
                                                    uint64_t round, size_t tokens) {
  ASSIGN_OR_RETURN(SecureDrawPlan plan, PlanSecureDraw(committee, options));
  if (options.method == DrawMethod::kBinarySearch) {
    return absl::InvalidArgumentError(
        "secure draw: a data holder's tokens are drawn with the inverse CDF or the parallel tree");
  }
  std::vector<int> topics(tokens, 0);
  if (options.num_topics == 1) return topics;
  const int K = options.num_topics;
  if (plan.replicated) {
    const size_t cuts = static_cast<size_t>(K - 1);
    ASSIGN_OR_RETURN(std::vector<bool> bits, links.ReceiveRevealedBits(round, tokens * cuts));
    for (size_t tau = 0; tau < tokens; ++tau) {
      for (size_t c = 0; c < cuts; ++c) topics[tau] += bits[tau * cuts + c] ? 1 : 0;
    }
    return topics;
  }
  ASSIGN_OR_RETURN(FieldVector values, links.ReceiveRevealed(round, tokens));
  for (size_t tau = 0; tau < tokens; ++tau) {
    if (values[tau].value() >= static_cast<uint128>(K)) {
      return absl::InvalidArgumentError(absl::StrCat("secure draw: token ", tau, " revealed topic ",
                                                     values[tau].ToString(),
                                                     ", not below K = ", K));
    }
    topics[tau] = static_cast<int>(values[tau].value());
  }
  return topics;
}

}  // namespace pplda::protocol

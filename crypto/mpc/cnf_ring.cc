#include "crypto/mpc/cnf_ring.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/mpc/bit_slices.h"
#include "crypto/mpc/pseudo_random_sharing.h"
#include "crypto/mpc/shamir.h"

namespace pplda::crypto {

// Every rule of who computes, sends or receives what, derived from the key
// sets alone, so that all parties agree on it.
struct CnfRing::Layout {
  int n = 0, t = 0, me = 0;
  std::vector<std::vector<int>> sets;  // KeySets(n, t)
  std::vector<int> held;               // this party's sets, KeySets order
  std::vector<int> part_of_set;        // -1: not held
  // The cross terms (part of a, part of b) this party computes.
  std::vector<std::pair<int, int>> products;
  std::vector<int> target_of;                    // each party's target set
  std::vector<int> target_peers;                 // the other members of this party's
  std::vector<int> reshare_from;                 // parties whose target set holds this one
  std::vector<bool> charged;                     // by part: this party subtracts its fresh value
  std::vector<int> zero_role;                    // by part: position of this party in the set
  std::vector<std::vector<int>> open_parts_for;  // by receiver: parts this party sends
  std::vector<int> open_senders;                 // parties that send this one its missing parts
  std::vector<int> client_parts;                 // parts this party sends a client
  std::vector<FieldVector> lagrange;             // by part: coefficients at 0 over the set's points

  static Layout For(int n, int t, int me);
  bool Holds(int set, int party) const {
    return std::binary_search(sets[set].begin(), sets[set].end(), party);
  }
  int num_sets() const { return static_cast<int>(sets.size()); }
};

namespace {

int CeilLog2(int x) {
  int r = 0;
  while ((1 << r) < x) ++r;
  return r;
}

int CarrySaveLayers(int addends) {
  int layers = 0;
  while (addends > 2) addends = 2 * (addends / 3) + addends % 3, ++layers;
  return layers;
}

int Binomial(int n, int k) {
  long long r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return static_cast<int>(r);
}

// The key set a party charges its fresh values to and the member that
// sends a set's component to a client: the same rotation over its members.
int ChargedMember(const std::vector<int>& set, int index) {
  return set[static_cast<size_t>(index) % set.size()];
}

// Of the members of `set`, the first after `receiver` in cyclic order.
int SenderTo(const std::vector<int>& set, int receiver, int n) {
  int best = set[0];
  for (int a : set) {
    if ((a - receiver + n) % n < (best - receiver + n) % n) best = a;
  }
  return best;
}

}  // namespace

CnfRing::Layout CnfRing::Layout::For(int n, int t, int me) {
  Layout l;
  l.n = n, l.t = t, l.me = me;
  l.sets = PseudoRandomSharing::KeySets(n, t);
  const int S = l.num_sets();
  l.part_of_set.assign(S, -1);
  for (int s = 0; s < S; ++s) {
    if (!l.Holds(s, me)) continue;
    l.part_of_set[s] = static_cast<int>(l.held.size());
    l.held.push_back(s);
  }
  for (int a = 0; a < S; ++a) {
    for (int b = 0; b < S; ++b) {
      std::vector<int> both;
      std::set_intersection(l.sets[a].begin(), l.sets[a].end(), l.sets[b].begin(), l.sets[b].end(),
                            std::back_inserter(both));
      if (both[static_cast<size_t>(a + b) % both.size()] == me) {
        l.products.push_back({l.part_of_set[a], l.part_of_set[b]});
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    std::vector<int> window;
    for (int k = 0; k <= t; ++k) window.push_back((i + k) % n);
    std::sort(window.begin(), window.end());
    l.target_of.push_back(
        static_cast<int>(std::find(l.sets.begin(), l.sets.end(), window) - l.sets.begin()));
  }
  for (int j : l.sets[l.target_of[me]]) {
    if (j != me) l.target_peers.push_back(j);
  }
  for (int j = 0; j < n; ++j) {
    if (j != me && l.Holds(l.target_of[j], me)) l.reshare_from.push_back(j);
  }
  l.open_parts_for.assign(n, {});
  std::vector<bool> sends_me(n, false);
  for (int s = 0; s < S; ++s) {
    const std::vector<int>& set = l.sets[s];
    const int h = l.part_of_set[s];
    if (h >= 0) {
      l.charged.push_back(ChargedMember(set, s) == me);
      l.zero_role.push_back(static_cast<int>(std::find(set.begin(), set.end(), me) - set.begin()));
      if (ChargedMember(set, s) == me) l.client_parts.push_back(h);
      std::vector<FieldElement> points;
      for (int a : set) points.push_back(ShamirScheme::PointOf(a));
      l.lagrange.push_back(LagrangeCoefficients(points, FieldElement::Zero()));
    }
    for (int r = 0; r < n; ++r) {
      if (l.Holds(s, r)) continue;
      const int sender = SenderTo(set, r, n);
      if (sender == me) l.open_parts_for[r].push_back(h);
      if (r == me) sends_me[sender] = true;
    }
  }
  for (int j = 0; j < n; ++j) {
    if (sends_me[j]) l.open_senders.push_back(j);
  }
  return l;
}

namespace {

// The ring's two element types: Z_2^128 values and 64-bit boolean words.
template <typename T>
struct Algebra;
template <>
struct Algebra<uint128> {
  static uint128 Mul(uint128 a, uint128 b) { return a * b; }
  static uint128 Add(uint128 a, uint128 b) { return a + b; }
  static uint128 Sub(uint128 a, uint128 b) { return a - b; }
};
template <>
struct Algebra<uint64_t> {
  static uint64_t Mul(uint64_t a, uint64_t b) { return a & b; }
  static uint64_t Add(uint64_t a, uint64_t b) { return a ^ b; }
  static uint64_t Sub(uint64_t a, uint64_t b) { return a ^ b; }
};

template <typename T>
std::vector<T> RandomValues(SecureRng& rng, size_t count) {
  std::vector<T> out(count);
  rng.Fill(absl::MakeSpan(reinterpret_cast<uint8_t*>(out.data()), count * sizeof(T)));
  return out;
}

// Little-endian, whatever the machine's order.
template <typename T>
std::vector<uint8_t> ToBytes(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t b = 0; b < sizeof(T); ++b) {
      out[i * sizeof(T) + b] = static_cast<uint8_t>(values[i] >> (8 * b));
    }
  }
  return out;
}

template <typename T>
std::vector<T> FromBytes(const std::vector<uint8_t>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T), 0);
  for (size_t i = 0; i < out.size(); ++i) {
    for (size_t b = sizeof(T); b-- > 0;) out[i] = (out[i] << 8) | bytes[i * sizeof(T) + b];
  }
  return out;
}

using Words = std::vector<uint64_t>;

void XorInto(Words& a, const Words& b) {
  for (size_t w = 0; w < a.size(); ++w) a[w] ^= b[w];
}

}  // namespace

absl::StatusOr<CnfRing> CnfRing::Create(MpcEngine& engine) {
  const MpcConfig& config = engine.config();
  if (!config.replicated()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "replicated sharing needs an odd number of parties n = 2t + 1 and pseudo-random "
        "sharing; the MPC config has ",
        config.num_parties(), " parties, threshold ", config.threshold(),
        config.pseudo_random_sharing() ? "" : " and dealt randomness"));
  }
  ASSIGN_OR_RETURN(PseudoRandomSharing * keys, engine.SharedRandomness());
  auto layout = std::make_shared<const Layout>(
      Layout::For(config.num_parties(), config.threshold(), engine.party_id()));
  return CnfRing(engine, *keys, std::move(layout));
}

int CnfRing::SignRounds(int num_parties, int m) {
  const int layers = CarrySaveLayers(Binomial(num_parties, (num_parties - 1) / 2));
  return layers + (m >= 3 ? 1 + CeilLog2(m - 2) : 0);
}

int CnfRing::MaxConversionBits(int num_parties, int sigma) {
  // c = x + r < 2^bits + S 2^(bits + sigma) <= (S + 1) 2^(bits + sigma)
  // must stay below the field's p = 2^127 - 1.
  const int sets = Binomial(num_parties, (num_parties - 1) / 2);
  return FieldElement::kBits - CeilLog2(sets + 1) - sigma;
}

absl::StatusOr<std::vector<std::vector<uint8_t>>> CnfRing::Reshare(const std::vector<uint8_t>& mine,
                                                                   size_t expected_bytes,
                                                                   const char* what) {
  std::vector<std::vector<uint8_t>> payloads(layout_->n);
  for (int j : layout_->target_peers) payloads[j] = mine;
  ASSIGN_OR_RETURN(auto received, engine_->Exchange(layout_->target_peers, std::move(payloads),
                                                    layout_->reshare_from));
  for (int j : layout_->reshare_from) {
    if (received[j].size() != expected_bytes) {
      return absl::InvalidArgumentError(
          absl::StrCat("replicated ", what, ": party ", j, " sent ", received[j].size(),
                       " bytes in round ", engine_->rounds(), ", expected ", expected_bytes));
    }
  }
  return received;
}

namespace {

// Products of CNF shares, element-wise, in T's algebra: this party's cross
// terms plus its part of a pseudo-random zero sharing, minus the fresh
// components it is charged with, to its target set (`reshare`); each held
// component is its fresh value plus the sums whose target it is.
template <typename T, typename ReshareFn>
absl::StatusOr<std::vector<std::vector<T>>> MultiplyParts(const CnfRing::Layout& l,
                                                          PseudoRandomSharing& keys,
                                                          const std::vector<std::vector<T>>& a,
                                                          const std::vector<std::vector<T>>& b,
                                                          ReshareFn reshare) {
  using A = Algebra<T>;
  const size_t n = a.empty() ? 0 : a[0].size();
  std::vector<T> sum(n, 0);
  for (auto [ha, hb] : l.products) {
    for (size_t e = 0; e < n; ++e) sum[e] = A::Add(sum[e], A::Mul(a[ha][e], b[hb][e]));
  }
  std::vector<std::vector<T>> fresh(l.held.size());
  for (size_t h = 0; h < l.held.size(); ++h) {
    SecureRng& stream = keys.SetStream(l.held[h]);
    fresh[h] = RandomValues<T>(stream, n);
    const std::vector<T> zero = RandomValues<T>(stream, static_cast<size_t>(l.t) * n);
    const int role = l.zero_role[h];
    for (int k = 1; k <= l.t; ++k) {
      if (role != 0 && role != k) continue;
      const T* v = zero.data() + static_cast<size_t>(k - 1) * n;
      for (size_t e = 0; e < n; ++e)
        sum[e] = role == 0 ? A::Add(sum[e], v[e]) : A::Sub(sum[e], v[e]);
    }
    if (l.charged[h]) {
      for (size_t e = 0; e < n; ++e) sum[e] = A::Sub(sum[e], fresh[h][e]);
    }
  }
  ASSIGN_OR_RETURN(auto received, reshare(ToBytes(sum), n * sizeof(T)));
  for (size_t h = 0; h < l.held.size(); ++h) {
    const int set = l.held[h];
    if (l.target_of[l.me] == set) {
      for (size_t e = 0; e < n; ++e) fresh[h][e] = A::Add(fresh[h][e], sum[e]);
    }
    for (int j : l.reshare_from) {
      if (l.target_of[j] != set) continue;
      const std::vector<T> theirs = FromBytes<T>(received[j]);
      for (size_t e = 0; e < n; ++e) fresh[h][e] = A::Add(fresh[h][e], theirs[e]);
    }
  }
  return fresh;
}

}  // namespace

absl::StatusOr<CnfShares> CnfRing::Mul(const CnfShares& a, const CnfShares& b) {
  const size_t n = a.size();
  const size_t parts = layout_->held.size();
  bool shaped = a.parts.size() == parts && b.parts.size() == parts;
  for (size_t h = 0; shaped && h < parts; ++h) {
    shaped = a.parts[h].size() == n && b.parts[h].size() == n;
  }
  if (!shaped) {
    return absl::InvalidArgumentError(absl::StrCat("replicated Mul: operands of ", a.size(),
                                                   " and ", b.size(), " elements, or not ", parts,
                                                   " parts each"));
  }
  auto reshare = [&](const std::vector<uint8_t>& mine, size_t bytes) {
    return Reshare(mine, bytes, "Mul");
  };
  ASSIGN_OR_RETURN(std::vector<std::vector<uint128>> out,
                   MultiplyParts<uint128>(*layout_, *keys_, a.parts, b.parts, reshare));
  return CnfShares{std::move(out)};
}

absl::StatusOr<CnfRing::BitMatrix> CnfRing::And(const BitMatrix& a, const BitMatrix& b) {
  auto reshare = [&](const std::vector<uint8_t>& mine, size_t bytes) {
    return Reshare(mine, bytes, "And");
  };
  ASSIGN_OR_RETURN(std::vector<Words> out,
                   MultiplyParts<uint64_t>(*layout_, *keys_, a.parts, b.parts, reshare));
  return BitMatrix{a.planes, a.words, std::move(out)};
}

// Longer than a screen: the mask, the opening among each element's set and
// the reconstruction share their per-element indexing.
absl::StatusOr<CnfShares> CnfRing::FromField(const Shares& x, int bits) {
  const Layout& l = *layout_;
  const int sigma = engine_->config().sigma();
  if (bits < 1 || bits > MaxConversionBits(l.n, sigma)) {
    return absl::InvalidArgumentError(
        absl::StrCat("replicated FromField: ", bits, " bits is outside [1, ",
                     MaxConversionBits(l.n, sigma), "] for ", l.n, " parties and sigma = ", sigma));
  }
  const size_t count = x.size();
  const int S = l.num_sets();
  std::vector<std::vector<uint128>> masks;
  const FieldVector r = keys_->BoundedWithSummands(count, bits + sigma, &masks);
  // Element e is opened to the members of set e mod S.
  std::vector<std::vector<uint8_t>> payloads(l.n);
  std::vector<size_t> expected(l.n, 0);
  for (size_t e = 0; e < count; ++e) {
    const int set = static_cast<int>(e % S);
    if (l.part_of_set[set] < 0) continue;
    const FieldElement c = x[e] + r[e];
    for (int j : l.sets[set]) {
      if (j == l.me) continue;
      AppendEncoded({&c, 1}, payloads[j]);
      ++expected[j];
    }
  }
  std::vector<int> peers;
  for (int j = 0; j < l.n; ++j) {
    if (expected[j] > 0) peers.push_back(j);
  }
  ASSIGN_OR_RETURN(auto received, engine_->Exchange(peers, std::move(payloads), peers));
  const std::string round = absl::StrCat(" in round ", engine_->rounds());
  std::vector<FieldVector> from(l.n);
  for (int j : peers) {
    ASSIGN_OR_RETURN(from[j], DecodeFieldVector(received[j], expected[j],
                                                absl::StrCat("replicated FromField message from "
                                                             "party ",
                                                             j, round)));
  }
  const uint128 bound = (uint128{1} << bits) + (uint128(S) << (bits + sigma));
  CnfShares out;
  out.parts.assign(l.held.size(), std::vector<uint128>(count));
  std::vector<size_t> at(l.n, 0);
  for (size_t e = 0; e < count; ++e) {
    const int set = static_cast<int>(e % S);
    const int h_open = l.part_of_set[set];
    for (size_t h = 0; h < l.held.size(); ++h) out.parts[h][e] = -masks[l.held[h]][e];
    if (h_open < 0) continue;
    FieldElement c = FieldElement::Zero();
    for (size_t k = 0; k < l.sets[set].size(); ++k) {
      const int j = l.sets[set][k];
      const FieldElement share = j == l.me ? x[e] + r[e] : from[j][at[j]++];
      c += l.lagrange[h_open][k] * share;
    }
    if (c.value() >= bound) {
      return absl::InvalidArgumentError(absl::StrCat("replicated FromField: element ", e,
                                                     " opened among parties of set ", set, round,
                                                     " is out of range (inconsistent shares)"));
    }
    out.parts[h_open][e] += c.value();
  }
  return out;
}

namespace {

// Planes [first, first + count) of every part.
std::vector<Words> PlaneSlice(const std::vector<Words>& parts, size_t words, int first, int count) {
  std::vector<Words> out;
  for (const Words& p : parts) {
    out.emplace_back(p.begin() + static_cast<ptrdiff_t>(first * words),
                     p.begin() + static_cast<ptrdiff_t>((first + count) * words));
  }
  return out;
}

void AppendParts(std::vector<Words>& to, const std::vector<Words>& from) {
  if (to.empty()) to.assign(from.size(), {});
  for (size_t h = 0; h < from.size(); ++h)
    to[h].insert(to[h].end(), from[h].begin(), from[h].end());
}

std::vector<Words> XorParts(std::vector<Words> a, const std::vector<Words>& b) {
  for (size_t h = 0; h < a.size(); ++h) XorInto(a[h], b[h]);
  return a;
}

}  // namespace

// Each layer: every three addends (a, b, c) become s = a ^ b ^ c and the
// carries maj(a, b, c) = ((a ^ c) & (b ^ c)) ^ c moved up one position
// (the top one dropped: the sum is mod 2^m), all groups' ANDs in one round.
absl::StatusOr<std::pair<CnfRing::BitMatrix, CnfRing::BitMatrix>> CnfRing::ReduceToTwo(
    std::vector<BitMatrix> addends) {
  const int planes = addends[0].planes;
  const size_t W = addends[0].words, plane_words = static_cast<size_t>(planes) * W;
  while (addends.size() > 2) {
    const size_t groups = addends.size() / 3;
    std::vector<Words> lhs, rhs;
    for (size_t g = 0; g < groups; ++g) {
      const BitMatrix &a = addends[3 * g], &b = addends[3 * g + 1], &c = addends[3 * g + 2];
      AppendParts(lhs, XorParts(a.parts, c.parts));
      AppendParts(rhs, XorParts(b.parts, c.parts));
    }
    ASSIGN_OR_RETURN(BitMatrix majority,
                     And(BitMatrix{static_cast<int>(groups) * planes, W, std::move(lhs)},
                         BitMatrix{static_cast<int>(groups) * planes, W, std::move(rhs)}));
    std::vector<BitMatrix> next;
    for (size_t g = 0; g < groups; ++g) {
      const BitMatrix &a = addends[3 * g], &b = addends[3 * g + 1], &c = addends[3 * g + 2];
      BitMatrix sum{planes, W, XorParts(XorParts(a.parts, b.parts), c.parts)};
      BitMatrix carry{planes, W, std::vector<Words>(c.parts.size(), Words(plane_words, 0))};
      for (size_t h = 0; h < c.parts.size(); ++h) {
        const uint64_t* maj = majority.parts[h].data() + g * plane_words;
        for (size_t w = 0; w + W < plane_words; ++w) carry.parts[h][w + W] = maj[w] ^ c.parts[h][w];
      }
      next.push_back(std::move(sum));
      next.push_back(std::move(carry));
    }
    for (size_t i = 3 * groups; i < addends.size(); ++i) next.push_back(std::move(addends[i]));
    addends = std::move(next);
  }
  return std::make_pair(std::move(addends[0]), std::move(addends[1]));
}

// The carry out of the top of x + y over `items` positions: generate bits
// g = x & y (one AND layer) and p = x ^ y, then a tree of (G, P) pairs,
// (G_hi, P_hi) o (G_lo, P_lo) = (G_hi ^ P_hi G_lo, P_hi P_lo), one AND
// layer per level; the lowest group's P is never needed.
absl::StatusOr<CnfRing::BitMatrix> CnfRing::CarryOut(const BitMatrix& x, const BitMatrix& y) {
  const size_t W = x.words;
  ASSIGN_OR_RETURN(BitMatrix generate, And(x, y));
  const std::vector<Words> propagate = XorParts(x.parts, y.parts);
  struct Group {
    std::vector<Words> g, p;
  };
  std::vector<Group> level;
  for (int k = 0; k < x.planes; ++k) {
    level.push_back({PlaneSlice(generate.parts, W, k, 1), PlaneSlice(propagate, W, k, 1)});
  }
  while (level.size() > 1) {
    const size_t pairs = level.size() / 2;
    std::vector<Words> lhs, rhs;
    for (size_t j = 0; j < pairs; ++j) {
      AppendParts(lhs, level[2 * j + 1].p);
      AppendParts(rhs, level[2 * j].g);
      if (j > 0) AppendParts(lhs, level[2 * j + 1].p), AppendParts(rhs, level[2 * j].p);
    }
    const int planes = static_cast<int>(lhs[0].size() / W);
    ASSIGN_OR_RETURN(BitMatrix products, And(BitMatrix{planes, W, std::move(lhs)},
                                             BitMatrix{planes, W, std::move(rhs)}));
    std::vector<Group> up;
    int at = 0;
    for (size_t j = 0; j < pairs; ++j) {
      Group merged{XorParts(level[2 * j + 1].g, PlaneSlice(products.parts, W, at++, 1)), {}};
      if (j > 0) merged.p = PlaneSlice(products.parts, W, at++, 1);
      up.push_back(std::move(merged));
    }
    if (level.size() % 2 == 1) up.push_back(std::move(level.back()));
    level = std::move(up);
  }
  return BitMatrix{1, W, std::move(level[0].g)};
}

// The S components as boolean addends (addend A is component A, zero in
// the others), reduced to x = s + c with c's position 0 zero; the top bit
// of x mod 2^m is s_{m-1} ^ c_{m-1} ^ (the carry into position m - 1,
// from positions 1..m-2).
absl::StatusOr<CnfBits> CnfRing::LessThanZero(const CnfShares& x, int m) {
  const Layout& l = *layout_;
  if (m < 2 || m > 128) {
    return absl::InvalidArgumentError(
        absl::StrCat("replicated LessThanZero: width ", m, " is outside [2, 128]"));
  }
  const size_t n = x.size(), W = WordsFor(n), parts = l.held.size();
  bool shaped = x.parts.size() == parts;
  for (size_t h = 0; shaped && h < parts; ++h) shaped = x.parts[h].size() == n;
  if (!shaped) return absl::InvalidArgumentError("replicated LessThanZero: malformed shares");
  if (n == 0) return CnfBits{0, std::vector<Words>(parts)};
  const size_t plane_words = static_cast<size_t>(m) * W;
  std::vector<BitMatrix> addends;
  for (int s = 0; s < l.num_sets(); ++s) {
    BitMatrix addend{m, W, std::vector<Words>(parts, Words(plane_words, 0))};
    if (l.part_of_set[s] >= 0) {
      addend.parts[l.part_of_set[s]] = TransposeToPlanes(x.parts[l.part_of_set[s]], m, W);
    }
    addends.push_back(std::move(addend));
  }
  ASSIGN_OR_RETURN(auto two, ReduceToTwo(std::move(addends)));
  const auto& [sum, carry] = two;
  std::vector<Words> top =
      XorParts(PlaneSlice(sum.parts, W, m - 1, 1), PlaneSlice(carry.parts, W, m - 1, 1));
  if (m - 2 > 0) {
    ASSIGN_OR_RETURN(BitMatrix into_top,
                     CarryOut(BitMatrix{m - 2, W, PlaneSlice(sum.parts, W, 1, m - 2)},
                              BitMatrix{m - 2, W, PlaneSlice(carry.parts, W, 1, m - 2)}));
    top = XorParts(std::move(top), into_top.parts);
  }
  return CnfBits{n, std::move(top)};
}

absl::StatusOr<std::vector<std::optional<bool>>> CnfRing::OpenBitsTo(
    const CnfBits& bits, absl::Span<const int> receivers) {
  const Layout& l = *layout_;
  const size_t n = bits.count;
  bool shaped = receivers.size() == n && bits.parts.size() == l.held.size();
  for (size_t h = 0; shaped && h < l.held.size(); ++h) shaped = bits.parts[h].size() == WordsFor(n);
  if (!shaped) {
    return absl::InvalidArgumentError(
        absl::StrCat("replicated OpenBitsTo: ", receivers.size(), " receivers for ", n, " bits"));
  }
  std::vector<size_t> for_party(l.n, 0);
  for (size_t e = 0; e < n; ++e) {
    if (receivers[e] < 0 || receivers[e] >= l.n) {
      return absl::InvalidArgumentError(absl::StrCat("replicated OpenBitsTo: receiver of bit ", e,
                                                     " is ", receivers[e], ", not 0..", l.n - 1));
    }
    ++for_party[receivers[e]];
  }
  auto bit_of = [&](const std::vector<int>& parts, size_t e) {
    uint64_t b = 0;
    for (int h : parts) b ^= (bits.parts[h][e / 64] >> (e % 64)) & 1;
    return b;
  };
  std::vector<std::vector<uint8_t>> payloads(l.n);
  std::vector<int> send_to;
  for (int r = 0; r < l.n; ++r) {
    if (l.open_parts_for[r].empty() || for_party[r] == 0) continue;
    send_to.push_back(r);
    payloads[r].assign((for_party[r] + 7) / 8, 0);
    for (size_t e = 0, j = 0; e < n; ++e) {
      if (receivers[e] != r) continue;
      if (bit_of(l.open_parts_for[r], e)) payloads[r][j / 8] |= static_cast<uint8_t>(1u << (j % 8));
      ++j;
    }
  }
  const std::vector<int> from = for_party[l.me] > 0 ? l.open_senders : std::vector<int>{};
  ASSIGN_OR_RETURN(auto received, engine_->Exchange(send_to, std::move(payloads), from));
  for (int j : from) {
    if (received[j].size() != (for_party[l.me] + 7) / 8) {
      return absl::InvalidArgumentError(absl::StrCat(
          "replicated OpenBitsTo: party ", j, " sent ", received[j].size(), " bytes in round ",
          engine_->rounds(), ", expected ", (for_party[l.me] + 7) / 8));
    }
  }
  std::vector<int> all(l.held.size());
  for (size_t h = 0; h < all.size(); ++h) all[h] = static_cast<int>(h);
  std::vector<std::optional<bool>> out(n);
  for (size_t e = 0, j = 0; e < n; ++e) {
    if (receivers[e] != l.me) continue;
    uint64_t b = bit_of(all, e);
    for (int sender : from) b ^= (received[sender][j / 8] >> (j % 8)) & 1;
    out[e] = b != 0;
    ++j;
  }
  return out;
}

std::vector<uint64_t> CnfRing::PartForClient(const CnfBits& bits) const {
  Words out(WordsFor(bits.count), 0);
  for (int h : layout_->client_parts) XorInto(out, bits.parts[h]);
  return out;
}

int CnfRing::num_parts() const { return static_cast<int>(layout_->held.size()); }

void CnfRing::AddConstant(CnfShares& x, uint128 c) const {
  const int h = layout_->part_of_set[0];
  if (h < 0) return;
  for (uint128& v : x.parts[h]) v += c;
}

}  // namespace pplda::crypto

#include "crypto/mpc/replicated_ring.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/mpc/bit_slices.h"
#include "crypto/mpc/pseudo_random_sharing.h"
#include "crypto/mpc/shamir.h"

namespace pplda::crypto {
namespace {

constexpr int kParties = 3;

// Key set (PseudoRandomSharing::KeySets(3, 1): {0,1}, {0,2}, {1,2}) of
// component j's pair {j - 1, j}.
constexpr int kSetOfComponent[kParties] = {1, 0, 2};

void AppendUint128(uint128 v, std::vector<uint8_t>& out) {
  for (int b = 0; b < 16; ++b) out.push_back(static_cast<uint8_t>(v >> (8 * b)));
}

uint128 ReadUint128(const uint8_t* p) {
  uint128 v = 0;
  for (int b = 15; b >= 0; --b) v = (v << 8) | p[b];
  return v;
}

std::vector<uint128> RandomRing(SecureRng& rng, size_t count) {
  std::vector<uint128> out(count);
  rng.Fill(absl::MakeSpan(reinterpret_cast<uint8_t*>(out.data()), count * sizeof(uint128)));
  return out;
}

std::vector<uint64_t> RandomWords(SecureRng& rng, size_t count) {
  std::vector<uint64_t> out(count);
  rng.Fill(absl::MakeSpan(reinterpret_cast<uint8_t*>(out.data()), count * sizeof(uint64_t)));
  return out;
}

std::vector<uint8_t> WordBytes(const std::vector<uint64_t>& words) {
  std::vector<uint8_t> out(words.size() * sizeof(uint64_t));
  for (size_t w = 0; w < words.size(); ++w) {
    for (int b = 0; b < 8; ++b) out[w * 8 + b] = static_cast<uint8_t>(words[w] >> (8 * b));
  }
  return out;
}

std::vector<uint64_t> BytesToWords(const std::vector<uint8_t>& bytes) {
  std::vector<uint64_t> out(bytes.size() / sizeof(uint64_t), 0);
  for (size_t w = 0; w < out.size(); ++w) {
    for (int b = 7; b >= 0; --b) out[w] = (out[w] << 8) | bytes[w * 8 + b];
  }
  return out;
}

}  // namespace

absl::StatusOr<ReplicatedRing> ReplicatedRing::Create(MpcEngine& engine) {
  const MpcConfig& config = engine.config();
  if (!config.replicated_three_party()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "replicated sharing needs 3 parties, threshold 1 and pseudo-random sharing; the MPC "
        "config has ", config.num_parties(), " parties, threshold ", config.threshold(),
        config.pseudo_random_sharing() ? "" : " and dealt randomness"));
  }
  ASSIGN_OR_RETURN(PseudoRandomSharing * keys, engine.SharedRandomness());
  return ReplicatedRing(engine, *keys);
}

SecureRng& ReplicatedRing::ComponentStream(int component) {
  return keys_->SetStream(kSetOfComponent[component]);
}

absl::StatusOr<std::vector<uint8_t>> ReplicatedRing::PassToPrevious(std::vector<uint8_t> mine,
                                                                     size_t expected_bytes,
                                                                     const char* what) {
  std::vector<std::vector<uint8_t>> payloads(kParties);
  payloads[Prev()] = std::move(mine);
  const int from = Succ();
  ASSIGN_OR_RETURN(auto received, engine_->Exchange({Prev()}, std::move(payloads), {from}));
  if (received[from].size() != expected_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "replicated ", what, ": party ", from, " sent ", received[from].size(),
        " bytes in round ", engine_->rounds(), ", expected ", expected_bytes));
  }
  return std::move(received[from]);
}

absl::StatusOr<RingShares> ReplicatedRing::FromField(const Shares& x, int bits) {
  const int sigma = engine_->config().sigma();
  if (bits < 1 || bits + sigma > 125) {
    return absl::InvalidArgumentError(absl::StrCat(
        "replicated FromField: ", bits, " bits plus sigma = ", sigma, " exceeds 125"));
  }
  const size_t n = x.size();
  std::vector<std::vector<uint128>> masks;
  const FieldVector r = keys_->BoundedWithSummands(n, bits + sigma, &masks);
  // Element e is opened to component e mod 3's pair: this party's partner
  // is the previous party for component party_, the next for party_ + 1.
  std::vector<std::vector<uint8_t>> payloads(kParties);
  for (size_t e = 0; e < n; ++e) {
    const int component = static_cast<int>(e % kParties);
    const FieldElement c = x[e] + r[e];
    if (component == party_) AppendEncoded({&c, 1}, payloads[Prev()]);
    if (component == Succ()) AppendEncoded({&c, 1}, payloads[Succ()]);
  }
  std::vector<size_t> expected(kParties, 0);
  for (size_t e = 0; e < n; ++e) ++expected[e % kParties];
  ASSIGN_OR_RETURN(auto received,
                   engine_->Exchange({Prev(), Succ()}, std::move(payloads), {Prev(), Succ()}));
  const std::string round = absl::StrCat(" in round ", engine_->rounds());
  ASSIGN_OR_RETURN(FieldVector from_prev,
                   DecodeFieldVector(received[Prev()], expected[party_],
                                     absl::StrCat("replicated FromField message from party ",
                                                  Prev(), round)));
  ASSIGN_OR_RETURN(FieldVector from_succ,
                   DecodeFieldVector(received[Succ()], expected[Succ()],
                                     absl::StrCat("replicated FromField message from party ",
                                                  Succ(), round)));
  const FieldElement me = ShamirScheme::PointOf(party_);
  const FieldVector with_prev = LagrangeCoefficients(
      std::vector<FieldElement>{me, ShamirScheme::PointOf(Prev())}, FieldElement::Zero());
  const FieldVector with_succ = LagrangeCoefficients(
      std::vector<FieldElement>{me, ShamirScheme::PointOf(Succ())}, FieldElement::Zero());
  const std::vector<uint128>& mask_own = masks[kSetOfComponent[party_]];
  const std::vector<uint128>& mask_next = masks[kSetOfComponent[Succ()]];
  const uint128 bound = uint128{1} << (bits + sigma + 2);
  RingShares out;
  out.own.resize(n);
  out.next.resize(n);
  size_t at_prev = 0, at_succ = 0;
  for (size_t e = 0; e < n; ++e) {
    const int component = static_cast<int>(e % kParties);
    uint128 opened_own = 0, opened_next = 0;
    if (component == party_ || component == Succ()) {
      const bool prev = component == party_;
      const FieldVector& lambda = prev ? with_prev : with_succ;
      const FieldElement theirs = prev ? from_prev[at_prev++] : from_succ[at_succ++];
      const FieldElement c = lambda[0] * (x[e] + r[e]) + lambda[1] * theirs;
      if (c.value() >= bound) {
        return absl::InvalidArgumentError(absl::StrCat(
            "replicated FromField: element ", e, " opened with party ", prev ? Prev() : Succ(),
            round, " is not below 2^", bits + sigma + 2, " (inconsistent shares)"));
      }
      (prev ? opened_own : opened_next) = c.value();
    }
    out.own[e] = opened_own - mask_own[e];
    out.next[e] = opened_next - mask_next[e];
  }
  return out;
}

absl::StatusOr<RingShares> ReplicatedRing::Mul(const RingShares& a, const RingShares& b) {
  const size_t n = a.size();
  if (b.size() != n || a.next.size() != n || b.next.size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("replicated Mul: operands of ", a.size(), " and ", b.size(), " elements"));
  }
  const std::vector<uint128> zero_own = RandomRing(ComponentStream(party_), n);
  const std::vector<uint128> zero_next = RandomRing(ComponentStream(Succ()), n);
  RingShares out;
  out.own.resize(n);
  std::vector<uint8_t> payload;
  payload.reserve(n * 16);
  for (size_t e = 0; e < n; ++e) {
    out.own[e] = a.own[e] * b.own[e] + a.own[e] * b.next[e] + a.next[e] * b.own[e] +
                 zero_own[e] - zero_next[e];
    AppendUint128(out.own[e], payload);
  }
  ASSIGN_OR_RETURN(std::vector<uint8_t> theirs, PassToPrevious(std::move(payload), n * 16, "Mul"));
  out.next.resize(n);
  for (size_t e = 0; e < n; ++e) out.next[e] = ReadUint128(theirs.data() + 16 * e);
  return out;
}

absl::StatusOr<ReplicatedRing::BitMatrix> ReplicatedRing::And(const BitMatrix& a,
                                                              const BitMatrix& b) {
  const size_t n = a.own.size();
  const std::vector<uint64_t> zero_own = RandomWords(ComponentStream(party_), n);
  const std::vector<uint64_t> zero_next = RandomWords(ComponentStream(Succ()), n);
  BitMatrix out{a.planes, a.words, std::vector<uint64_t>(n), {}};
  for (size_t w = 0; w < n; ++w) {
    out.own[w] = (a.own[w] & b.own[w]) ^ (a.own[w] & b.next[w]) ^ (a.next[w] & b.own[w]) ^
                 zero_own[w] ^ zero_next[w];
  }
  ASSIGN_OR_RETURN(std::vector<uint8_t> theirs,
                   PassToPrevious(WordBytes(out.own), n * sizeof(uint64_t), "And"));
  out.next = BytesToWords(theirs);
  return out;
}

namespace {

using Words = std::vector<uint64_t>;

// Planes [first, first + count) of a plane-major word vector.
Words Planes(const Words& m, size_t words, int first, int count) {
  return Words(m.begin() + static_cast<ptrdiff_t>(first * words),
               m.begin() + static_cast<ptrdiff_t>((first + count) * words));
}

Words Xor(Words a, const Words& b) {
  for (size_t w = 0; w < a.size(); ++w) a[w] ^= b[w];
  return a;
}

void Append(Words& to, const Words& from) { to.insert(to.end(), from.begin(), from.end()); }

}  // namespace

// With the components x_0, x_1, x_2 as three boolean addends (addend j is
// component j, zero in the others), their XOR s is `value` itself and the
// carries are maj(x_0, x_1, x_2) = ((x_0 ^ x_2) & (x_1 ^ x_2)) ^ x_2, so
// that x = s + 2 carry: one AND layer over the `planes` low positions.
absl::StatusOr<ReplicatedRing::BitMatrix> ReplicatedRing::CarrySave(const BitMatrix& value,
                                                                   int planes) {
  const size_t W = value.words;
  const Words zero(static_cast<size_t>(planes) * W, 0);
  // Addend j as this party's (own, next) pair: it holds components party_
  // and party_ + 1.
  auto own = [&](int j) { return j == party_ ? Planes(value.own, W, 0, planes) : zero; };
  auto next = [&](int j) { return j == Succ() ? Planes(value.next, W, 0, planes) : zero; };
  ASSIGN_OR_RETURN(BitMatrix majority,
                   And(BitMatrix{planes, W, Xor(own(0), own(2)), Xor(next(0), next(2))},
                       BitMatrix{planes, W, Xor(own(1), own(2)), Xor(next(1), next(2))}));
  return BitMatrix{planes, W, Xor(majority.own, own(2)), Xor(majority.next, next(2))};
}

// The carry out of the top of x + y over `items` positions: generate bits
// g = x & y (one AND layer) and p = x ^ y, then a tree of (G, P) pairs,
// (G_hi, P_hi) o (G_lo, P_lo) = (G_hi ^ P_hi G_lo, P_hi P_lo), one AND
// layer per level; the lowest group's P is never needed.
absl::StatusOr<ReplicatedRing::BitMatrix> ReplicatedRing::CarryOut(const BitMatrix& x,
                                                                  const BitMatrix& y) {
  const size_t W = x.words;
  const int items = x.planes;
  ASSIGN_OR_RETURN(BitMatrix generate, And(x, y));
  const Words p_own = Xor(x.own, y.own), p_next = Xor(x.next, y.next);
  std::vector<GroupCarry> level;
  for (int k = 0; k < items; ++k) {
    level.push_back({Planes(generate.own, W, k, 1), Planes(generate.next, W, k, 1),
                     Planes(p_own, W, k, 1), Planes(p_next, W, k, 1)});
  }
  while (level.size() > 1) {
    ASSIGN_OR_RETURN(level, CombineGroups(level, W));
  }
  return BitMatrix{1, W, std::move(level[0].g_own), std::move(level[0].g_next)};
}

// One level of the carry tree: adjacent groups combined, an odd last one
// passed up.
absl::StatusOr<std::vector<ReplicatedRing::GroupCarry>> ReplicatedRing::CombineGroups(
    std::vector<GroupCarry>& level, size_t W) {
  const size_t pairs = level.size() / 2;
  Words lhs_own, lhs_next, rhs_own, rhs_next;
  for (size_t j = 0; j < pairs; ++j) {
    const GroupCarry& lo = level[2 * j];
    const GroupCarry& hi = level[2 * j + 1];
    Append(lhs_own, hi.p_own), Append(lhs_next, hi.p_next);
    Append(rhs_own, lo.g_own), Append(rhs_next, lo.g_next);
    if (j > 0) {
      Append(lhs_own, hi.p_own), Append(lhs_next, hi.p_next);
      Append(rhs_own, lo.p_own), Append(rhs_next, lo.p_next);
    }
  }
  const int planes = static_cast<int>(lhs_own.size() / W);
  ASSIGN_OR_RETURN(BitMatrix products,
                   And(BitMatrix{planes, W, std::move(lhs_own), std::move(lhs_next)},
                       BitMatrix{planes, W, std::move(rhs_own), std::move(rhs_next)}));
  std::vector<GroupCarry> up;
  int at = 0;
  for (size_t j = 0; j < pairs; ++j) {
    const GroupCarry& hi = level[2 * j + 1];
    GroupCarry merged{Xor(hi.g_own, Planes(products.own, W, at, 1)),
                      Xor(hi.g_next, Planes(products.next, W, at, 1)), {}, {}};
    ++at;
    if (j > 0) {
      merged.p_own = Planes(products.own, W, at, 1);
      merged.p_next = Planes(products.next, W, at, 1);
      ++at;
    }
    up.push_back(std::move(merged));
  }
  if (level.size() % 2 == 1) up.push_back(std::move(level.back()));
  return up;
}

// x mod 2^m = s + 2 carry (mod 2^m); its top bit is s_{m-1} ^ carry_{m-2}
// ^ (the carry into position m - 1), which comes from positions 1..m-2 of
// s + 2 carry (position 0 adds a zero and carries nothing).
absl::StatusOr<ReplicatedRing::BitMatrix> ReplicatedRing::TopBitOfSum(const BitMatrix& value,
                                                                      int m) {
  const size_t W = value.words;
  ASSIGN_OR_RETURN(BitMatrix carry, CarrySave(value, m - 1));
  Words top_own = Xor(Planes(value.own, W, m - 1, 1), Planes(carry.own, W, m - 2, 1));
  Words top_next = Xor(Planes(value.next, W, m - 1, 1), Planes(carry.next, W, m - 2, 1));
  const int items = m - 2;
  if (items <= 0) return BitMatrix{1, W, std::move(top_own), std::move(top_next)};
  const BitMatrix x{items, W, Planes(value.own, W, 1, items), Planes(value.next, W, 1, items)};
  const BitMatrix y{items, W, Planes(carry.own, W, 0, items), Planes(carry.next, W, 0, items)};
  ASSIGN_OR_RETURN(BitMatrix into_top, CarryOut(x, y));
  return BitMatrix{1, W, Xor(std::move(top_own), into_top.own),
                   Xor(std::move(top_next), into_top.next)};
}

absl::StatusOr<BitShares> ReplicatedRing::LessThanZero(const RingShares& x, int m) {
  if (m < 2 || m > 128) {
    return absl::InvalidArgumentError(
        absl::StrCat("replicated LessThanZero: width ", m, " is outside [2, 128]"));
  }
  if (x.next.size() != x.size()) {
    return absl::InvalidArgumentError("replicated LessThanZero: malformed shares");
  }
  const size_t n = x.size(), W = WordsFor(n);
  if (n == 0) return BitShares{};
  BitMatrix value{m, W, TransposeToPlanes(x.own, m, W), TransposeToPlanes(x.next, m, W)};
  ASSIGN_OR_RETURN(BitMatrix top, TopBitOfSum(value, m));
  return BitShares{n, std::move(top.own), std::move(top.next)};
}

absl::StatusOr<std::vector<std::optional<bool>>> ReplicatedRing::OpenBitsTo(
    const BitShares& bits, absl::Span<const int> receivers) {
  const size_t n = bits.count;
  if (receivers.size() != n || bits.own.size() != WordsFor(n) ||
      bits.next.size() != WordsFor(n)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "replicated OpenBitsTo: ", receivers.size(), " receivers for ", n, " bits"));
  }
  size_t for_prev = 0, for_me = 0;
  for (size_t e = 0; e < n; ++e) {
    if (receivers[e] < 0 || receivers[e] >= kParties) {
      return absl::InvalidArgumentError(absl::StrCat(
          "replicated OpenBitsTo: receiver of bit ", e, " is ", receivers[e], ", not 0..2"));
    }
    for_prev += receivers[e] == Prev();
    for_me += receivers[e] == party_;
  }
  auto bit_of = [](const std::vector<uint64_t>& words, size_t e) {
    return (words[e / 64] >> (e % 64)) & 1;
  };
  // The previous party misses component party_ + 1: this party's `next`.
  std::vector<uint8_t> payload((for_prev + 7) / 8, 0);
  for (size_t e = 0, j = 0; e < n; ++e) {
    if (receivers[e] != Prev()) continue;
    if (bit_of(bits.next, e)) payload[j / 8] |= static_cast<uint8_t>(1u << (j % 8));
    ++j;
  }
  ASSIGN_OR_RETURN(std::vector<uint8_t> theirs,
                   PassToPrevious(std::move(payload), (for_me + 7) / 8, "OpenBitsTo"));
  std::vector<std::optional<bool>> out(n);
  for (size_t e = 0, j = 0; e < n; ++e) {
    if (receivers[e] != party_) continue;
    const uint64_t missing = (theirs[j / 8] >> (j % 8)) & 1;
    out[e] = (bit_of(bits.own, e) ^ bit_of(bits.next, e) ^ missing) != 0;
    ++j;
  }
  return out;
}

void ReplicatedRing::AddConstant(RingShares& x, uint128 c) const {
  if (party_ == 0) {
    for (uint128& v : x.own) v += c;
  } else if (party_ == 2) {
    for (uint128& v : x.next) v += c;
  }
}

}  // namespace pplda::crypto

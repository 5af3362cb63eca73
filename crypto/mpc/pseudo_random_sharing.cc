#include "crypto/mpc/pseudo_random_sharing.h"

#include <algorithm>
#include <cassert>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pplda::crypto {
namespace {

void NextSet(std::vector<int>& set, int n, bool& done) {
  const int size = static_cast<int>(set.size());
  int i = size - 1;
  while (i >= 0 && set[i] == n - size + i) --i;
  if (i < 0) {
    done = true;
    return;
  }
  ++set[i];
  for (int j = i + 1; j < size; ++j) set[j] = set[j - 1] + 1;
}

// f_A(x) = prod_{j not in A} (x - x_j) / (0 - x_j), evaluated at x.
FieldElement VanishingOutside(const std::vector<int>& set, int num_parties, FieldElement x) {
  FieldElement num = FieldElement::One(), den = FieldElement::One();
  for (int j = 0; j < num_parties; ++j) {
    if (std::find(set.begin(), set.end(), j) != set.end()) continue;
    const FieldElement xj = ShamirScheme::PointOf(j);
    num *= x - xj;
    den *= -xj;
  }
  return num * den.Inverse();
}

}  // namespace

std::vector<std::vector<int>> PseudoRandomSharing::KeySets(int num_parties, int threshold) {
  std::vector<std::vector<int>> out;
  std::vector<int> set(num_parties - threshold);
  for (size_t i = 0; i < set.size(); ++i) set[i] = static_cast<int>(i);
  for (bool done = false; !done; NextSet(set, num_parties, done)) out.push_back(set);
  return out;
}

absl::StatusOr<std::unique_ptr<PseudoRandomSharing>> PseudoRandomSharing::Create(
    const ShamirScheme& shamir, int party, absl::Span<const PrssKey> keys,
    absl::Span<const PrssKey> outgoing, absl::Span<const PrssKey> incoming) {
  const std::vector<std::vector<int>> sets = KeySets(shamir.num_parties(), shamir.threshold());
  if (keys.size() != sets.size()) {
    return absl::InvalidArgumentError(absl::StrCat("pseudo-random sharing: ", keys.size(),
                                                   " keys for ", sets.size(), " key sets"));
  }
  if (party < 0 || party >= shamir.num_parties()) {
    return absl::InvalidArgumentError(
        absl::StrCat("pseudo-random sharing: party ", party, " is not a party id"));
  }
  const int n = shamir.num_parties();
  if (outgoing.size() != incoming.size() ||
      (!outgoing.empty() && static_cast<int>(outgoing.size()) != n)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "pseudo-random sharing: ", outgoing.size(), " outgoing and ", incoming.size(),
        " incoming pairwise keys for ", n, " parties"));
  }
  const FieldElement point = ShamirScheme::PointOf(party);
  std::unique_ptr<PseudoRandomSharing> out(new PseudoRandomSharing(shamir.threshold(), point));
  out->num_sets_ = static_cast<int>(sets.size());
  for (size_t s = 0; s < sets.size(); ++s) {
    if (std::find(sets[s].begin(), sets[s].end(), party) == sets[s].end()) continue;
    out->streams_.push_back(KeyStream{std::make_unique<ExpandedRng>(keys[s]),
                                      VanishingOutside(sets[s], shamir.num_parties(), point),
                                      static_cast<int>(s)});
  }
  if (!outgoing.empty()) {
    out->outgoing_.resize(n);
    out->incoming_.resize(n);
    for (int j = 0; j < n; ++j) {
      if (j == party) continue;
      out->outgoing_[j] = std::make_unique<ExpandedRng>(outgoing[j]);
      out->incoming_[j] = std::make_unique<ExpandedRng>(incoming[j]);
    }
  }
  return out;
}

template <typename Draw>
FieldVector PseudoRandomSharing::Combine(size_t count, Draw draw) {
  FieldVector out(count, FieldElement::Zero());
  for (KeyStream& key : streams_) {
    const FieldVector values = draw(*key.stream);
    AddScaledInPlace(absl::MakeSpan(out), key.weight, values);
  }
  return out;
}

FieldVector PseudoRandomSharing::Random(size_t count) {
  return Combine(count, [count](SecureRng& s) { return RandomFieldVector(s, count); });
}

FieldVector PseudoRandomSharing::Bounded(size_t count, int bits) {
  return Combine(count,
                 [count, bits](SecureRng& s) { return RandomBoundedVector(s, count, bits); });
}

FieldVector PseudoRandomSharing::BoundedWithSummands(
    size_t count, int bits, std::vector<std::vector<uint128>>* summands) {
  summands->assign(num_sets_, {});
  return Combine(count, [&](SecureRng& s) {
    FieldVector values = RandomBoundedVector(s, count, bits);
    std::vector<uint128>& raw = (*summands)[SetOf(s)];
    raw.reserve(count);
    for (const FieldElement& v : values) raw.push_back(v.value());
    return values;
  });
}

int PseudoRandomSharing::SetOf(const SecureRng& stream) const {
  for (const KeyStream& key : streams_) {
    if (key.stream.get() == &stream) return key.set;
  }
  assert(false && "stream of no key set");
  return 0;
}

SecureRng& PseudoRandomSharing::SetStream(int set) {
  for (KeyStream& key : streams_) {
    if (key.set == set) return *key.stream;
  }
  assert(false && "SetStream: this party is not a member of the set");
  return *streams_.front().stream;
}

FieldVector PseudoRandomSharing::Zero(size_t count) {
  // sum_{l=1..t} v_l x^l by Horner: ((v_t x + v_{t-1}) x + ... + v_1) x.
  const int t = threshold_;
  const FieldElement x = point_;
  return Combine(count, [count, t, x](SecureRng& s) {
    const FieldVector v = RandomFieldVector(s, count * t);
    FieldVector out(count);
    for (size_t e = 0; e < count; ++e) {
      FieldElement acc = FieldElement::Zero();
      for (int l = t; l >= 1; --l) acc = (acc + v[e * t + (l - 1)]) * x;
      out[e] = acc;
    }
    return out;
  });
}

}  // namespace pplda::crypto

#include "crypto/mpc/shamir.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pplda::crypto {

FieldVector LagrangeCoefficients(absl::Span<const FieldElement> xs, FieldElement at) {
  FieldVector out(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    FieldElement num = FieldElement::One();
    FieldElement den = FieldElement::One();
    for (size_t j = 0; j < xs.size(); ++j) {
      if (j == i) continue;
      num *= at - xs[j];
      den *= xs[i] - xs[j];
    }
    out[i] = num * den.Inverse();
  }
  return out;
}

absl::StatusOr<ShamirScheme> ShamirScheme::Create(int num_parties, int threshold) {
  if (num_parties < 3 || num_parties > kMaxParties) {
    return absl::InvalidArgumentError(absl::StrCat(
        "number of parties is ", num_parties, "; Shamir sharing with an honest "
        "majority needs 3 <= n <= ", kMaxParties));
  }
  if (threshold < 1 || 2 * threshold >= num_parties) {
    return absl::InvalidArgumentError(absl::StrCat(
        "threshold t = ", threshold, " with n = ", num_parties,
        " parties; need 1 <= t and 2t < n (t < n/2) so that products of "
        "shares can be reconstructed"));
  }
  return ShamirScheme(num_parties, threshold);
}

std::vector<FieldVector> ShamirScheme::Share(absl::Span<const FieldElement> secrets,
                                             int degree, SecureRng& rng) const {
  std::vector<FieldVector> shares(num_parties_, FieldVector(secrets.size()));
  std::vector<FieldElement*> outputs(num_parties_);
  for (int j = 0; j < num_parties_; ++j) outputs[j] = shares[j].data();
  ShareInto(secrets, degree, rng, outputs);
  return shares;
}

void ShamirScheme::ShareInto(absl::Span<const FieldElement> secrets, int degree,
                             SecureRng& rng, absl::Span<FieldElement* const> outputs) const {
  const size_t count = secrets.size();
  if (degree == 0) {
    for (int party = 0; party < num_parties_; ++party) {
      std::copy(secrets.begin(), secrets.end(), outputs[party]);
    }
    return;
  }
  const FieldVector coefficients = RandomFieldVector(rng, count * degree);
  if (degree == 1) {
    // f(j + 1) = f(j) + a: one addition per share.
    for (size_t i = 0; i < count; ++i) {
      const FieldElement a = coefficients[i];
      FieldElement value = secrets[i];
      for (int party = 0; party < num_parties_; ++party) {
        value += a;
        outputs[party][i] = value;
      }
    }
    return;
  }
  for (int party = 0; party < num_parties_; ++party) {
    const FieldElement x = PointOf(party);
    FieldElement* out = outputs[party];
    for (size_t i = 0; i < count; ++i) {
      // Horner: f(x) = s + x (a_1 + x (a_2 + ... x a_d)).
      FieldElement acc = FieldElement::Zero();
      const FieldElement* a = coefficients.data() + i * degree;
      for (int k = degree - 1; k >= 0; --k) acc = (acc + a[k]) * x;
      out[i] = acc + secrets[i];
    }
  }
}

FieldVector ShamirScheme::ZeroCoefficients(int degree) const {
  FieldVector xs(degree + 1);
  for (int j = 0; j <= degree; ++j) xs[j] = PointOf(j);
  return LagrangeCoefficients(xs, FieldElement::Zero());
}

absl::StatusOr<FieldVector> ShamirScheme::Reconstruct(
    absl::Span<const FieldVector> shares, int degree) const {
  if (static_cast<int>(shares.size()) != num_parties_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "reconstruction got share vectors for ", shares.size(), " parties, expected ",
        num_parties_));
  }
  std::vector<int> present;
  size_t count = 0;
  for (int j = 0; j < num_parties_; ++j) {
    if (shares[j].empty()) continue;
    if (!present.empty() && shares[j].size() != count) {
      return absl::InvalidArgumentError(absl::StrCat(
          "party ", j, " gave ", shares[j].size(), " shares, party ", present[0],
          " gave ", count, "; share vectors must have equal lengths"));
    }
    count = shares[j].size();
    present.push_back(j);
  }
  if (static_cast<int>(present.size()) < degree + 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "reconstruction of a degree-", degree, " sharing needs ", degree + 1,
        " parties' shares, got ", present.size()));
  }
  FieldVector base_points(degree + 1);
  for (int i = 0; i <= degree; ++i) base_points[i] = PointOf(present[i]);
  const FieldVector at_zero = LagrangeCoefficients(base_points, FieldElement::Zero());
  FieldVector secrets(count, FieldElement::Zero());
  for (int i = 0; i <= degree; ++i) {
    AddScaledInPlace(absl::MakeSpan(secrets), at_zero[i], shares[present[i]]);
  }
  // Every further share must lie on the interpolated polynomial.
  for (size_t extra = degree + 1; extra < present.size(); ++extra) {
    const int party = present[extra];
    const FieldVector at_party = LagrangeCoefficients(base_points, PointOf(party));
    for (size_t e = 0; e < count; ++e) {
      FieldElement predicted = FieldElement::Zero();
      for (int i = 0; i <= degree; ++i) predicted += at_party[i] * shares[present[i]][e];
      if (predicted != shares[party][e]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "inconsistent shares: party ", party, "'s share of element ", e,
            " does not lie on the degree-", degree, " polynomial through parties ",
            present[0], "..", present[degree], " (malformed or tampered share)"));
      }
    }
  }
  return secrets;
}

}  // namespace pplda::crypto

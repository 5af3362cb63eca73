// ShamirScheme: Shamir secret sharing over GF(2^127 - 1) (Shamir 1979) for
// n parties, the parameters of the MPC engine.
//
// Party j (0-based) holds f(j + 1) of a polynomial f with f(0) = secret.
// A sharing "of degree d" uses a uniformly random f of degree <= d; any d+1
// shares determine the secret and any d reveal nothing about it. The engine
// keeps values at degree t (the threshold); products of two shares have
// degree 2t and are reconstructable because t < n/2, i.e. 2t + 1 <= n.
//
// Reconstruct() interpolates from the first d+1 shares and, when more
// shares are given, checks that every other share lies on the same degree-d
// polynomial; a share that does not is reported as InvalidArgument naming
// the party and element ("malformed or inconsistent shares").
//
// Ranges: 3 <= n <= kMaxParties, 1 <= t, 2t < n. Create() returns
// InvalidArgument otherwise. Immutable after Create; thread-safe.
#ifndef PPLDA_CRYPTO_MPC_SHAMIR_H_
#define PPLDA_CRYPTO_MPC_SHAMIR_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/arith/field.h"
#include "crypto/arith/field_vector.h"
#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

class ShamirScheme {
 public:
  static constexpr int kMaxParties = 64;

  static absl::StatusOr<ShamirScheme> Create(int num_parties, int threshold);

  int num_parties() const { return num_parties_; }
  int threshold() const { return threshold_; }
  // The evaluation point of party j: j + 1.
  static FieldElement PointOf(int party) { return FieldElement::FromUint64(party + 1); }

  // Shares every secret with its own fresh random polynomial of degree
  // `degree` (0 <= degree < n). Returns shares[party][i].
  std::vector<FieldVector> Share(absl::Span<const FieldElement> secrets, int degree,
                                 SecureRng& rng) const;
  // As Share, writing party j's shares to outputs[j][0 .. secrets.size()).
  void ShareInto(absl::Span<const FieldElement> secrets, int degree, SecureRng& rng,
                 absl::Span<FieldElement* const> outputs) const;

  // Reconstructs the secrets from `shares`, indexed by party; shares[j] may
  // be empty for a party whose share is absent. Uses the first degree+1
  // parties present and checks every further one against that polynomial.
  // Errors: InvalidArgument if fewer than degree+1 parties are present, if
  // share vectors differ in length, or if a share is inconsistent.
  absl::StatusOr<FieldVector> Reconstruct(absl::Span<const FieldVector> shares,
                                          int degree) const;

  // Lagrange coefficients lambda_j with f(0) = sum_j lambda_j f(j + 1) for
  // the parties 0..degree (degree < n).
  FieldVector ZeroCoefficients(int degree) const;

 private:
  ShamirScheme(int num_parties, int threshold)
      : num_parties_(num_parties), threshold_(threshold) {}

  int num_parties_;
  int threshold_;
};

// Lagrange coefficients for the points `xs` (distinct) evaluated at `at`:
// f(at) = sum_i c_i f(xs[i]) for every f of degree < xs.size().
FieldVector LagrangeCoefficients(absl::Span<const FieldElement> xs, FieldElement at);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_SHAMIR_H_

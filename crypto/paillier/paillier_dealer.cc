#include "crypto/paillier/paillier_dealer.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"
#include "crypto/arith/safe_prime.h"

namespace pplda::crypto {
namespace {

absl::Status CheckPrime(const mpz_class& p, const char* name, size_t bits) {
  if (BitLength(p) != bits) {
    return absl::InvalidArgumentError(absl::StrCat("dealer: prime ", name, " has ",
                                                   BitLength(p), " bits, expected ", bits));
  }
  if (!IsSafePrime(p)) {
    return absl::InvalidArgumentError(absl::StrCat("dealer: ", name, " is not a safe prime"));
  }
  return absl::OkStatus();
}

// Secret shares s_1..s_n of d (mod nm) for the chosen scheme.
std::vector<SecretInt> ShareExponent(const mpz_class& d, const mpz_class& nm,
                                     const DealerOptions& options, SecureRng& rng) {
  const int n = options.num_parties;
  std::vector<SecretInt> shares;
  shares.reserve(static_cast<size_t>(n));
  if (options.scheme == SharingScheme::kAdditive) {
    SecretInt rest(d);
    for (int i = 1; i < n; ++i) {
      shares.emplace_back(rng.UniformBelow(nm));
      rest.mutable_value() -= shares.back().value();
    }
    mpz_mod(rest.mutable_value().get_mpz_t(), rest.value().get_mpz_t(), nm.get_mpz_t());
    shares.push_back(std::move(rest));
    return shares;
  }
  std::vector<SecretInt> coeffs;  // a_1 .. a_{t-1}
  for (int j = 1; j < options.threshold; ++j) coeffs.emplace_back(rng.UniformBelow(nm));
  for (int i = 1; i <= n; ++i) {
    SecretInt acc;  // Horner: f(i) = d + i (a_1 + i (a_2 + ...))
    for (auto it = coeffs.rbegin(); it != coeffs.rend(); ++it) {
      acc.mutable_value() = (acc.value() + it->value()) * i % nm;
    }
    acc.mutable_value() = (acc.value() + d) % nm;
    shares.push_back(std::move(acc));
  }
  return shares;
}

}  // namespace

absl::StatusOr<DealtKey> DealThresholdKeyFromPrimes(const mpz_class& p, const mpz_class& q,
                                                    const DealerOptions& options,
                                                    SecureRng& rng) {
  RETURN_IF_ERROR(ValidateModulusBits(options.modulus_bits));
  RETURN_IF_ERROR(
      ValidateSharingShape(options.scheme, options.num_parties, options.threshold));
  const size_t half = options.modulus_bits / 2;
  RETURN_IF_ERROR(CheckPrime(p, "p", half));
  RETURN_IF_ERROR(CheckPrime(q, "q", half));
  if (p == q) return absl::InvalidArgumentError("dealer: p and q must be distinct");
  ASSIGN_OR_RETURN(PaillierPublicKey paillier, PaillierPublicKey::Create(p * q));
  if (paillier.modulus_bits() != options.modulus_bits) {
    return absl::InvalidArgumentError(absl::StrCat(
        "dealer: p q has ", paillier.modulus_bits(), " bits, expected ", options.modulus_bits,
        " (the two top bits of each prime must be set)"));
  }
  const mpz_class& n = paillier.n();
  const mpz_class& n2 = paillier.n_squared();
  SecretInt m(mpz_class((p - 1) / 2 * ((q - 1) / 2)));
  SecretInt d;
  mpz_invert(d.mutable_value().get_mpz_t(), m.value().get_mpz_t(), n.get_mpz_t());
  d.mutable_value() *= m.value();
  SecretInt nm(mpz_class(n * m.value()));
  std::vector<SecretInt> shares = ShareExponent(d.value(), nm.value(), options, rng);

  const mpz_class r = rng.UniformUnit(n2);
  const mpz_class v = r * r % n2;
  const mpz_class delta = options.scheme == SharingScheme::kShamir
                              ? Factorial(static_cast<unsigned>(options.num_parties))
                              : mpz_class(1);
  std::vector<mpz_class> vks;
  for (const SecretInt& s : shares) {
    SecretInt x(mpz_class(delta * s.value()));
    mpz_class vk;
    mpz_powm(vk.get_mpz_t(), v.get_mpz_t(), x.value().get_mpz_t(), n2.get_mpz_t());
    vks.push_back(std::move(vk));
  }
  ASSIGN_OR_RETURN(ThresholdPublicKeyPtr key,
                   ThresholdPublicKey::Create(std::move(paillier), options.scheme,
                                              options.num_parties, options.threshold, v,
                                              std::move(vks), KeyOrigin::kTrustedDealer));
  DealtKey out;
  out.public_key = key;
  for (size_t i = 0; i < shares.size(); ++i) {
    ASSIGN_OR_RETURN(PaillierKeyShare share,
                     PaillierKeyShare::Create(key, static_cast<int>(i) + 1,
                                              std::move(shares[i])));
    out.shares.push_back(std::move(share));
  }
  return out;
}

absl::StatusOr<DealtKey> DealThresholdKey(const DealerOptions& options, SecureRng& rng) {
  RETURN_IF_ERROR(ValidateModulusBits(options.modulus_bits));
  RETURN_IF_ERROR(
      ValidateSharingShape(options.scheme, options.num_parties, options.threshold));
  const size_t half = options.modulus_bits / 2;
  SecretInt p, q;
  ASSIGN_OR_RETURN(p.mutable_value(), GenerateSafePrime(half, rng));
  do {
    ASSIGN_OR_RETURN(q.mutable_value(), GenerateSafePrime(half, rng));
  } while (q.value() == p.value());
  return DealThresholdKeyFromPrimes(p.value(), q.value(), options, rng);
}

}  // namespace pplda::crypto

#include "crypto/keygen/distributed_threshold_key.h"

#include <sodium.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"
#include "crypto/keygen/big_field_mpc.h"
#include "crypto/keygen/big_field_shamir.h"

namespace pplda::crypto {
namespace {

// The public verification base: the square of a hash of N, mod N^2.
mpz_class VerificationBase(const mpz_class& n) {
  const mpz_class n2 = n * n;
  const mpz_class r =
      HashToInteger("pplda distributed key verification base/" + ToMinimalBytes(n),
                    ByteLength(n2) + 16) % n2;
  return r * r % n2;
}

// base^e mod m for a possibly negative e (base a unit mod m).
mpz_class PowSigned(const mpz_class& base, const mpz_class& e, const mpz_class& m) {
  mpz_class out;
  mpz_powm(out.get_mpz_t(), base.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());
  return out;
}

// Delta L_i(x) for the Lagrange basis through points 1..count (an integer
// because Delta = n! clears every denominator).
mpz_class DeltaLagrange(const mpz_class& delta, int i, int count, int x) {
  mpz_class num = delta, den = 1;
  for (int m = 1; m <= count; ++m) {
    if (m == i) continue;
    num *= x - m;
    den *= i - m;
  }
  return num / den;  // exact
}

class KeyDeriver {
 public:
  KeyDeriver(const SharedModulus& modulus, int sigma, MpcEngine& engine, BigFieldShamir scheme)
      : modulus_(modulus),
        n_(modulus.n),
        sigma_(sigma),
        engine_(engine),
        scheme_(std::move(scheme)),
        mpc_(scheme_, engine),
        me_(engine.party_id()),
        parties_(engine.num_parties()),
        t_(engine.threshold()) {}

  absl::StatusOr<DistributedKey> Run() {
    SecretInt phi(me_ == 0 ? mpz_class(n_ + 1 - modulus_.p_share.value() -
                                       modulus_.q_share.value())
                           : mpz_class(-(modulus_.p_share.value() + modulus_.q_share.value())));
    ASSIGN_OR_RETURN(mpz_class theta, Gamma(phi));
    ASSIGN_OR_RETURN(SecretInt d, ExponentShare(phi, theta));
    ASSIGN_OR_RETURN(SecretInt share, Reshare(d));
    return Publish(std::move(share));
  }

 private:
  // Step 1: theta = (phi beta mod N)^-1 mod N; keeps beta_i.
  absl::StatusOr<mpz_class> Gamma(const SecretInt& phi) {
    SecureRng& rng = engine_.rng();
    beta_ = SecretInt(rng.UniformBelow(n_));
    mpz_class hide = rng.RandomBits(BitLength(n_) + sigma_ + 4);
    ASSIGN_OR_RETURN(auto by_dealer, mpc_.Deal({phi.value(), beta_.value(), hide}, {t_, t_, t_}));
    Wipe(hide);
    phi_shares_ = BigFieldMpc::SumOverDealers(by_dealer, 0, scheme_);
    const mpz_class beta = BigFieldMpc::SumOverDealers(by_dealer, 1, scheme_);
    const mpz_class r = BigFieldMpc::SumOverDealers(by_dealer, 2, scheme_);
    ASSIGN_OR_RETURN(std::vector<mpz_class> product, mpc_.Mul({phi_shares_}, {beta}));
    ASSIGN_OR_RETURN(std::vector<mpz_class> opened,
                     mpc_.Open({scheme_.Reduce(product[0] + n_ * r)}, t_));
    const mpz_class gamma = opened[0] % n_;
    mpz_class theta;
    if (mpz_invert(theta.get_mpz_t(), gamma.get_mpz_t(), n_.get_mpz_t()) == 0) {
      return absl::InternalError("distributed key: gamma is not a unit mod N (probability "
                                 "about 2^-bits(N)/2); run the generation again");
    }
    return theta;
  }

  // Step 2: additive integer shares of d = phi sum_i (beta_i theta mod N).
  absl::StatusOr<SecretInt> ExponentShare(const SecretInt& phi, const mpz_class& theta) {
    (void)phi;
    SecureRng& rng = engine_.rng();
    SecretInt reduced(mpz_class(beta_.value() * theta % n_));
    const int d_bits = static_cast<int>(BitLength(mpz_class(parties_ * n_ * n_)));
    SecretInt mask(rng.RandomBits(d_bits + sigma_));
    ASSIGN_OR_RETURN(auto by_dealer, mpc_.Deal({reduced.value(), mask.value()}, {t_, t_}));
    const mpz_class beta_prime = BigFieldMpc::SumOverDealers(by_dealer, 0, scheme_);
    const mpz_class masks = BigFieldMpc::SumOverDealers(by_dealer, 1, scheme_);
    ASSIGN_OR_RETURN(std::vector<mpz_class> d, mpc_.Mul({phi_shares_}, {beta_prime}));
    ASSIGN_OR_RETURN(std::vector<mpz_class> opened, mpc_.Open({scheme_.Reduce(d[0] + masks)}, t_));
    return SecretInt(me_ == 0 ? mpz_class(opened[0] - mask.value()) : mpz_class(-mask.value()));
  }

  // Step 3: party j's integer Shamir share s_j = sum_i f_i(j).
  absl::StatusOr<SecretInt> Reshare(const SecretInt& d_share) {
    SecureRng& rng = engine_.rng();
    const int degree = t_;  // threshold T = t + 1 partials combine
    const int coefficient_bits =
        static_cast<int>(BitLength(mpz_class(parties_ * n_ * n_))) + sigma_;
    std::vector<SecretInt> coefficients;
    for (int k = 1; k <= degree; ++k) coefficients.emplace_back(rng.RandomBits(coefficient_bits));
    // Offset making every value sent non-negative: |d_i| < 2^(coefficient_bits + 2).
    const mpz_class offset = mpz_class(1) << (coefficient_bits + 4);
    mpz_class largest_power = 1;
    for (int k = 1; k <= degree; ++k) largest_power *= parties_;
    const size_t bytes = ByteLength(mpz_class(
        2 * offset + (mpz_class(1) << coefficient_bits) * degree * largest_power));
    std::vector<std::vector<uint8_t>> payloads(parties_);
    SecretInt mine;
    for (int j = 0; j < parties_; ++j) {
      mpz_class value = d_share.value(), power = 1;
      for (int k = 1; k <= degree; ++k) {
        power *= j + 1;
        value += coefficients[k - 1].value() * power;
      }
      if (j == me_) {
        mine = SecretInt(std::move(value));
        continue;
      }
      ASSIGN_OR_RETURN(std::string b, ToFixedBytes(mpz_class(value + offset), bytes));
      payloads[j].assign(b.begin(), b.end());
      WipeString(b);
      Wipe(value);
    }
    ASSIGN_OR_RETURN(auto received, engine_.ExchangeWithAll(std::move(payloads)));
    mpz_class s = mine.value();
    for (int i = 0; i < parties_; ++i) {
      if (i == me_) continue;
      if (received[i].size() != bytes) {
        return absl::InvalidArgumentError(absl::StrCat("distributed key: party ", i, " sent ",
                                                       received[i].size(),
                                                       " bytes of key share, expected ", bytes));
      }
      s += FromBytes(std::string_view(reinterpret_cast<const char*>(received[i].data()), bytes)) -
           offset;
    }
    if (s < 0) return absl::InternalError("distributed key: negative key share");
    return SecretInt(std::move(s));
  }

  // Step 4: verification keys, checked for consistency, and the key.
  absl::StatusOr<DistributedKey> Publish(SecretInt share) {
    const mpz_class n2 = n_ * n_;
    const mpz_class v = VerificationBase(n_);
    const mpz_class delta = Factorial(static_cast<unsigned>(parties_));
    const mpz_class my_key = PowSigned(v, delta * share.value(), n2);
    const size_t bytes = ByteLength(n2);
    ASSIGN_OR_RETURN(std::string mine, ToFixedBytes(my_key, bytes));
    std::vector<std::vector<uint8_t>> payloads(parties_,
                                               std::vector<uint8_t>(mine.begin(), mine.end()));
    ASSIGN_OR_RETURN(auto received, engine_.ExchangeWithAll(std::move(payloads)));
    std::vector<mpz_class> keys(parties_);
    for (int i = 0; i < parties_; ++i) {
      if (i == me_) {
        keys[i] = my_key;
        continue;
      }
      if (received[i].size() != bytes) {
        return absl::InvalidArgumentError(absl::StrCat(
            "distributed key: party ", i, " sent ", received[i].size(),
            " bytes of verification key, expected ", bytes));
      }
      keys[i] = FromBytes(std::string_view(reinterpret_cast<const char*>(received[i].data()), bytes));
    }
    const int threshold = t_ + 1;
    for (int j = threshold + 1; j <= parties_; ++j) {
      mpz_class expected = 1;
      for (int i = 1; i <= threshold; ++i) {
        expected = expected * PowSigned(keys[i - 1], DeltaLagrange(delta, i, threshold, j), n2) % n2;
      }
      if (PowSigned(keys[j - 1], delta, n2) != expected) {
        return absl::InvalidArgumentError(absl::StrCat(
            "distributed key: verification key of party ", j,
            " is inconsistent with parties 1..", threshold, "' (wrong or corrupted shares)"));
      }
    }
    ASSIGN_OR_RETURN(PaillierPublicKey paillier, PaillierPublicKey::Create(n_));
    ASSIGN_OR_RETURN(ThresholdPublicKeyPtr key,
                     ThresholdPublicKey::Create(std::move(paillier), SharingScheme::kShamir,
                                                parties_, threshold, v, std::move(keys),
                                                KeyOrigin::kDistributed));
    ASSIGN_OR_RETURN(PaillierKeyShare key_share,
                     PaillierKeyShare::Create(key, me_ + 1, std::move(share)));
    return DistributedKey{key, std::move(key_share), modulus_.stats};
  }

  const SharedModulus& modulus_;
  const mpz_class n_;
  const int sigma_;
  MpcEngine& engine_;
  const BigFieldShamir scheme_;
  BigFieldMpc mpc_;
  const int me_, parties_, t_;
  SecretInt beta_;
  mpz_class phi_shares_;  // Shamir share of phi over the field
};

}  // namespace

absl::StatusOr<DistributedKey> DeriveThresholdKey(const SharedModulus& modulus, int sigma,
                                                  MpcEngine& engine) {
  if (sigma < 20 || sigma > 128) {
    return absl::InvalidArgumentError("distributed key: sigma must be in 20..128");
  }
  const int field_bits = 2 * static_cast<int>(BitLength(modulus.n)) + 3 * sigma + 64;
  ASSIGN_OR_RETURN(BigFieldShamir scheme,
                   BigFieldShamir::Create(engine.num_parties(), engine.threshold(),
                                          BigFieldShamir::PublicPrime(field_bits)));
  KeyDeriver deriver(modulus, sigma, engine, std::move(scheme));
  return deriver.Run();
}

absl::StatusOr<DistributedKey> GenerateDistributedThresholdKey(
    const SharedModulusOptions& options, MpcEngine& engine) {
  ASSIGN_OR_RETURN(SharedModulus modulus, GenerateSharedModulus(options, engine));
  return DeriveThresholdKey(modulus, options.sigma, engine);
}

}  // namespace pplda::crypto

// BigFieldMpc: BGW arithmetic (Ben-Or, Goldwasser, Wigderson 1988) on Shamir
// sharings over a large prime field (big_field_shamir.h), for semi-honest
// parties with an honest majority (2t < n). Every operation is one round of
// the MpcEngine's transport (MpcEngine::ExchangeWithAll), so it interleaves
// with the engine's own rounds; every party calls the same operations in the
// same order on the same public sizes.
//   Deal   1 round: every party deals Shamir sharings of its values (the
//          same public count and degrees at every dealer).
//   Mul    1 round: local products (degree 2t), parties 0..2t reshare them
//          at degree t, Lagrange recombination (degree t out).
//   Open   1 round: every party sends its shares to every other; the value
//          is interpolated from parties 0..degree and, when more shares
//          than degree + 1 arrive, every other share must lie on the same
//          polynomial (InvalidArgument otherwise: inconsistent shares).
// Wire: each element as ByteLength(P) big-endian bytes; a message of the
// wrong length is InvalidArgument naming the sender.
// Thread-safety: one per party thread, like the engine.
#ifndef PPLDA_CRYPTO_KEYGEN_BIG_FIELD_MPC_H_
#define PPLDA_CRYPTO_KEYGEN_BIG_FIELD_MPC_H_

#include <gmpxx.h>

#include <vector>

#include "absl/status/statusor.h"
#include "crypto/keygen/big_field_shamir.h"
#include "crypto/mpc/mpc_engine.h"

namespace pplda::crypto {

class BigFieldMpc {
 public:
  // Both must outlive this object; scheme.num_parties() must equal the
  // engine's party count.
  BigFieldMpc(const BigFieldShamir& scheme, MpcEngine& engine);

  const BigFieldShamir& scheme() const { return scheme_; }
  int party_id() const { return engine_.party_id(); }
  int num_parties() const { return scheme_.num_parties(); }

  // Deals this party's values[k] at degrees[k]; returns [dealer][k], this
  // party's shares of every dealer's values. degrees is public and the same
  // at every party.
  absl::StatusOr<std::vector<std::vector<mpz_class>>> Deal(const std::vector<mpz_class>& values,
                                                           const std::vector<int>& degrees);
  // Shares of a[k] * b[k] at degree t, from shares at degree t.
  absl::StatusOr<std::vector<mpz_class>> Mul(const std::vector<mpz_class>& a,
                                             const std::vector<mpz_class>& b);
  // sum_d by_dealer[d][index], reduced: this party's share of the sum of
  // every dealer's value at `index` (the result of Deal).
  static mpz_class SumOverDealers(const std::vector<std::vector<mpz_class>>& by_dealer,
                                  size_t index, const BigFieldShamir& scheme);
  // Opens sharings of the given degree to every party.
  absl::StatusOr<std::vector<mpz_class>> Open(const std::vector<mpz_class>& shares, int degree);

 private:
  std::vector<uint8_t> Encode(const std::vector<mpz_class>& values) const;
  absl::StatusOr<std::vector<mpz_class>> Decode(const std::vector<uint8_t>& bytes, size_t count,
                                                int sender, const char* what) const;

  const BigFieldShamir& scheme_;
  MpcEngine& engine_;
  const size_t element_bytes_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_KEYGEN_BIG_FIELD_MPC_H_

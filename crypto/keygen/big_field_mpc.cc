#include "crypto/keygen/big_field_mpc.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"

namespace pplda::crypto {

BigFieldMpc::BigFieldMpc(const BigFieldShamir& scheme, MpcEngine& engine)
    : scheme_(scheme), engine_(engine), element_bytes_(ByteLength(scheme.prime())) {}

std::vector<uint8_t> BigFieldMpc::Encode(const std::vector<mpz_class>& values) const {
  std::vector<uint8_t> out(values.size() * element_bytes_, 0);
  for (size_t k = 0; k < values.size(); ++k) {
    // Big-endian, right-aligned in its slot; values are reduced below P.
    // (mpz_export with a null buffer would allocate one that is never
    // freed: the size comes from mpz_sizeinbase, exact in base 2.)
    const mpz_srcptr v = values[k].get_mpz_t();
    const size_t bytes = mpz_sgn(v) == 0 ? 0 : (mpz_sizeinbase(v, 2) + 7) / 8;
    size_t written = 0;
    mpz_export(out.data() + (k + 1) * element_bytes_ - bytes, &written, 1, 1, 1, 0, v);
  }
  return out;
}

absl::StatusOr<std::vector<mpz_class>> BigFieldMpc::Decode(const std::vector<uint8_t>& bytes,
                                                           size_t count, int sender,
                                                           const char* what) const {
  if (bytes.size() != count * element_bytes_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "big-field MPC: party ", sender, " sent ", bytes.size(), " bytes for ", what, ", expected ",
        count, " elements of ", element_bytes_, " bytes"));
  }
  std::vector<mpz_class> out(count);
  for (size_t k = 0; k < count; ++k) {
    mpz_import(out[k].get_mpz_t(), element_bytes_, 1, 1, 1, 0, bytes.data() + k * element_bytes_);
    if (out[k] >= scheme_.prime()) {
      return absl::InvalidArgumentError(absl::StrCat("big-field MPC: party ", sender, " sent ",
                                                     what, " element ", k, " outside the field"));
    }
  }
  return out;
}

absl::StatusOr<std::vector<std::vector<mpz_class>>> BigFieldMpc::Deal(
    const std::vector<mpz_class>& values, const std::vector<int>& degrees) {
  const int n = num_parties(), me = party_id();
  if (values.size() != degrees.size()) {
    return absl::InvalidArgumentError("big-field MPC: one degree per dealt value");
  }
  std::vector<std::vector<mpz_class>> to(n, std::vector<mpz_class>(values.size()));
  for (size_t k = 0; k < values.size(); ++k) {
    std::vector<mpz_class> shares = scheme_.Share(values[k], degrees[k], engine_.rng());
    for (int j = 0; j < n; ++j) to[j][k] = std::move(shares[j]);
  }
  std::vector<std::vector<uint8_t>> payloads(n);
  for (int j = 0; j < n; ++j) {
    if (j != me) payloads[j] = Encode(to[j]);
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> received,
                   engine_.ExchangeWithAll(std::move(payloads)));
  std::vector<std::vector<mpz_class>> by_dealer(n);
  for (int d = 0; d < n; ++d) {
    if (d == me) {
      by_dealer[d] = std::move(to[me]);
    } else {
      ASSIGN_OR_RETURN(by_dealer[d], Decode(received[d], values.size(), d, "dealt shares"));
    }
  }
  return by_dealer;
}

absl::StatusOr<std::vector<mpz_class>> BigFieldMpc::Mul(const std::vector<mpz_class>& a,
                                                        const std::vector<mpz_class>& b) {
  const int n = num_parties(), me = party_id(), t = scheme_.threshold();
  if (a.size() != b.size()) return absl::InvalidArgumentError("big-field MPC: Mul of unequal sizes");
  const int resharers = 2 * t + 1;  // parties 0..2t hold the degree-2t products that matter
  std::vector<std::vector<mpz_class>> to(n, std::vector<mpz_class>(a.size()));
  if (me < resharers) {
    for (size_t k = 0; k < a.size(); ++k) {
      std::vector<mpz_class> shares = scheme_.Share(a[k] * b[k], t, engine_.rng());
      for (int j = 0; j < n; ++j) to[j][k] = std::move(shares[j]);
    }
  }
  std::vector<std::vector<uint8_t>> payloads(n);
  for (int j = 0; j < n; ++j) {
    if (j != me && me < resharers) payloads[j] = Encode(to[j]);
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> received,
                   engine_.ExchangeWithAll(std::move(payloads)));
  const std::vector<mpz_class>& lambda = scheme_.LagrangeAtZero(2 * t);
  std::vector<mpz_class> out(a.size(), 0);
  for (int d = 0; d < resharers; ++d) {
    std::vector<mpz_class> from;
    if (d == me) {
      from = std::move(to[me]);
    } else {
      ASSIGN_OR_RETURN(from, Decode(received[d], a.size(), d, "reshared products"));
    }
    for (size_t k = 0; k < a.size(); ++k) out[k] += lambda[d] * from[k];
  }
  for (mpz_class& v : out) v = scheme_.Reduce(v);
  return out;
}

mpz_class BigFieldMpc::SumOverDealers(const std::vector<std::vector<mpz_class>>& by_dealer,
                                      size_t index, const BigFieldShamir& scheme) {
  mpz_class sum = 0;
  for (const auto& dealt : by_dealer) sum += dealt[index];
  return scheme.Reduce(sum);
}

absl::StatusOr<std::vector<mpz_class>> BigFieldMpc::Open(const std::vector<mpz_class>& shares,
                                                         int degree) {
  const int n = num_parties(), me = party_id();
  if (degree < 0 || degree >= n) {
    return absl::InvalidArgumentError(absl::StrCat("big-field MPC: cannot open degree ", degree));
  }
  std::vector<std::vector<uint8_t>> payloads(n);
  const std::vector<uint8_t> mine = Encode(shares);
  for (int j = 0; j < n; ++j) {
    if (j != me) payloads[j] = mine;
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> received,
                   engine_.ExchangeWithAll(std::move(payloads)));
  std::vector<std::vector<mpz_class>> by_party(n);
  for (int d = 0; d < n; ++d) {
    if (d == me) {
      by_party[d] = shares;
    } else {
      ASSIGN_OR_RETURN(by_party[d], Decode(received[d], shares.size(), d, "opened shares"));
    }
  }
  std::vector<mpz_class> out(shares.size());
  std::vector<mpz_class> column(n);
  for (size_t k = 0; k < shares.size(); ++k) {
    for (int d = 0; d < n; ++d) column[d] = by_party[d][k];
    if (!scheme_.Consistent(column, degree)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "big-field MPC: inconsistent shares of opened element ", k, " (degree ", degree, ")"));
    }
    out[k] = scheme_.Reconstruct(column, degree);
  }
  return out;
}

}  // namespace pplda::crypto

#include "crypto/paillier/paillier_evaluator.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/parallel_batch.h"

namespace pplda::crypto {
namespace {

absl::Status CheckSameLength(size_t a, size_t b, std::string_view what) {
  if (a != b) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(what), ": operands have ", a,
                                                   " and ", b, " elements"));
  }
  return absl::OkStatus();
}

std::vector<Ciphertext> ToCiphertexts(std::vector<mpz_class>& values) {
  std::vector<Ciphertext> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i].value = std::move(values[i]);
  return out;
}

// Applies fn(i) to [0, n) over the pool; fn cannot fail.
template <typename Fn>
void ForEach(ThreadPool* pool, size_t n, Fn fn) {
  (void)RunBatch(pool, n, [&](size_t i, int) {
    fn(i);
    return absl::OkStatus();
  });
}

}  // namespace

PaillierEvaluator::PaillierEvaluator(PaillierPublicKey key)
    : key_(std::move(key)), modexp_(std::make_shared<const ModExpContext>(key_.n_squared())) {}

mpz_class PaillierEvaluator::Inverse(const mpz_class& c) const {
  mpz_class out;
  // c in Z*_{N^2} (validated on receipt), so the inverse exists.
  mpz_invert(out.get_mpz_t(), c.get_mpz_t(), key_.n_squared().get_mpz_t());
  return out;
}

Ciphertext PaillierEvaluator::Add(const Ciphertext& a, const Ciphertext& b) const {
  return Ciphertext{a.value * b.value % key_.n_squared()};
}

Ciphertext PaillierEvaluator::Sub(const Ciphertext& a, const Ciphertext& b) const {
  return Ciphertext{a.value * Inverse(b.value) % key_.n_squared()};
}

Ciphertext PaillierEvaluator::Negate(const Ciphertext& a) const {
  return Ciphertext{Inverse(a.value)};
}

Ciphertext PaillierEvaluator::AddPlain(const Ciphertext& a, const mpz_class& p) const {
  mpz_class reduced;
  mpz_mod(reduced.get_mpz_t(), p.get_mpz_t(), key_.n().get_mpz_t());
  mpz_class g = reduced * key_.n() + 1;  // (1 + N)^p = 1 + p N mod N^2
  return Ciphertext{a.value * g % key_.n_squared()};
}

bool PaillierEvaluator::ScalarExponent(const mpz_class& k, mpz_class& e) const {
  mpz_mod(e.get_mpz_t(), k.get_mpz_t(), key_.n().get_mpz_t());  // e in [0, N)
  if (e <= key_.n() / 2) return false;
  e = key_.n() - e;  // closer to N: use (c^-1)^(N - e)
  return true;
}

void PaillierEvaluator::ScalarPower(const Ciphertext& a, const mpz_class& k, mpz_class& base,
                                    mpz_class& e) const {
  base = ScalarExponent(k, e) ? Inverse(a.value) : a.value;
}

Ciphertext PaillierEvaluator::MulScalar(const Ciphertext& a, const mpz_class& k) const {
  mpz_class base, e;
  ScalarPower(a, k, base, e);
  Ciphertext out;
  mpz_powm(out.value.get_mpz_t(), base.get_mpz_t(), e.get_mpz_t(),
           key_.n_squared().get_mpz_t());
  return out;
}

Ciphertext PaillierEvaluator::Sum(absl::Span<const Ciphertext> cs) const {
  Ciphertext acc{mpz_class(1)};
  for (const Ciphertext& c : cs) {
    acc.value *= c.value;
    acc.value %= key_.n_squared();
  }
  return acc;
}

absl::StatusOr<std::vector<Ciphertext>> PaillierEvaluator::AddBatch(
    absl::Span<const Ciphertext> a, absl::Span<const Ciphertext> b, ThreadPool* pool) const {
  RETURN_IF_ERROR(CheckSameLength(a.size(), b.size(), "AddBatch"));
  std::vector<Ciphertext> out(a.size());
  ForEach(pool, a.size(), [&](size_t i) { out[i] = Add(a[i], b[i]); });
  return out;
}

absl::StatusOr<std::vector<Ciphertext>> PaillierEvaluator::SubBatch(
    absl::Span<const Ciphertext> a, absl::Span<const Ciphertext> b, ThreadPool* pool) const {
  RETURN_IF_ERROR(CheckSameLength(a.size(), b.size(), "SubBatch"));
  std::vector<Ciphertext> out(a.size());
  ForEach(pool, a.size(), [&](size_t i) { out[i] = Sub(a[i], b[i]); });
  return out;
}

std::vector<Ciphertext> PaillierEvaluator::NegateBatch(absl::Span<const Ciphertext> a,
                                                       ThreadPool* pool) const {
  std::vector<Ciphertext> out(a.size());
  ForEach(pool, a.size(), [&](size_t i) { out[i] = Negate(a[i]); });
  return out;
}

absl::StatusOr<std::vector<Ciphertext>> PaillierEvaluator::AddPlainBatch(
    absl::Span<const Ciphertext> a, absl::Span<const mpz_class> p, ThreadPool* pool) const {
  RETURN_IF_ERROR(CheckSameLength(a.size(), p.size(), "AddPlainBatch"));
  std::vector<Ciphertext> out(a.size());
  ForEach(pool, a.size(), [&](size_t i) { out[i] = AddPlain(a[i], p[i]); });
  return out;
}

absl::StatusOr<std::vector<Ciphertext>> PaillierEvaluator::MulScalarBatch(
    absl::Span<const Ciphertext> a, absl::Span<const mpz_class> k, ThreadPool* pool) const {
  RETURN_IF_ERROR(CheckSameLength(a.size(), k.size(), "MulScalarBatch"));
  std::vector<mpz_class> bases(a.size()), exps(a.size()), powers(a.size());
  ForEach(pool, a.size(), [&](size_t i) { ScalarPower(a[i], k[i], bases[i], exps[i]); });
  // Exponents are in [0, N/2] and the lengths match: this cannot fail.
  RETURN_IF_ERROR(BatchModExp(*modexp_, bases, exps, absl::MakeSpan(powers), pool, false));
  return ToCiphertexts(powers);
}

std::vector<Ciphertext> PaillierEvaluator::MulScalarBatch(absl::Span<const Ciphertext> a,
                                                          const mpz_class& k,
                                                          ThreadPool* pool) const {
  mpz_class e;
  const bool inverted = ScalarExponent(k, e);
  std::vector<mpz_class> bases(a.size()), powers(a.size());
  ForEach(pool, a.size(),
          [&](size_t i) { bases[i] = inverted ? Inverse(a[i].value) : a[i].value; });
  // e is in [0, N/2] and the lengths match: BatchModExp cannot fail here
  // (only a test forcing the IFMA path on a CPU without it could).
  (void)BatchModExp(*modexp_, bases, e, absl::MakeSpan(powers), pool, false);
  return ToCiphertexts(powers);
}

absl::StatusOr<std::vector<Ciphertext>> PaillierEvaluator::SumBatch(
    absl::Span<const std::vector<Ciphertext>> vectors, ThreadPool* pool) const {
  if (vectors.empty()) return std::vector<Ciphertext>{};
  const size_t len = vectors[0].size();
  for (size_t v = 1; v < vectors.size(); ++v) {
    RETURN_IF_ERROR(CheckSameLength(len, vectors[v].size(),
                                    absl::StrCat("SumBatch vectors 0 and ", v)));
  }
  std::vector<Ciphertext> out(len);
  ForEach(pool, len, [&](size_t j) {
    mpz_class acc = vectors[0][j].value;
    for (size_t v = 1; v < vectors.size(); ++v) {
      acc *= vectors[v][j].value;
      acc %= key_.n_squared();
    }
    out[j].value = std::move(acc);
  });
  return out;
}

}  // namespace pplda::crypto

#include "crypto/paillier_evaluator.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/parallel_batch.h"

namespace pplda::crypto {
namespace {

absl::Status CheckSameLength(size_t a, size_t b, std::string_view what) {
  if (a != b) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(what), ": operands have ", a,
                                                   " and ", b, " elements"));
  }
  return absl::OkStatus();
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

Ciphertext PaillierEvaluator::MulScalar(const Ciphertext& a, const mpz_class& k) const {
  mpz_class e;
  mpz_mod(e.get_mpz_t(), k.get_mpz_t(), key_.n().get_mpz_t());  // e in [0, N)
  mpz_class base = a.value;
  if (e > key_.n() / 2) {  // closer to N: use (c^-1)^(N - e)
    e = key_.n() - e;
    base = Inverse(a.value);
  }
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
  std::vector<Ciphertext> out(a.size());
  ForEach(pool, a.size(), [&](size_t i) { out[i] = MulScalar(a[i], k[i]); });
  return out;
}

std::vector<Ciphertext> PaillierEvaluator::MulScalarBatch(absl::Span<const Ciphertext> a,
                                                          const mpz_class& k,
                                                          ThreadPool* pool) const {
  std::vector<Ciphertext> out(a.size());
  ForEach(pool, a.size(), [&](size_t i) { out[i] = MulScalar(a[i], k); });
  return out;
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

#include "crypto/paillier/paillier_combiner.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/parallel_batch.h"
#include "crypto/paillier/decryption_proof.h"

namespace pplda::crypto {
namespace {

// Lagrange coefficient at 0 for party i over `set`, times delta.
mpz_class LagrangeTimesDelta(const mpz_class& delta, const std::vector<int>& set, int i) {
  mpz_class num = delta;
  mpz_class den = 1;
  for (int j : set) {
    if (j == i) continue;
    num *= j;
    den *= (j - i);
  }
  mpz_class out;
  mpz_divexact(out.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
  return out;
}

// prod base_k^exp_k mod m over the given input indices.
mpz_class ProductOfPowers(const std::vector<const mpz_class*>& values,
                          const std::vector<size_t>& inputs,
                          const std::vector<mpz_class>& exps, const mpz_class& m) {
  mpz_class acc = 1, term;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const mpz_class& base = *values[inputs[k]];
    if (exps[k] == 1) {
      acc *= base;
    } else {
      mpz_powm(term.get_mpz_t(), base.get_mpz_t(), exps[k].get_mpz_t(), m.get_mpz_t());
      acc *= term;
    }
    acc %= m;
  }
  return acc;
}

}  // namespace

PaillierCombiner::PaillierCombiner(ThresholdPublicKeyPtr key)
    : key_(std::move(key)), modexp_(key_->n_squared()) {
  const mpz_class factor = key_->scheme() == SharingScheme::kShamir
                               ? mpz_class(4 * key_->delta() * key_->delta())
                               : mpz_class(2);
  // gcd(factor, N) = 1: N has no prime factor below 2^16 (PaillierPublicKey).
  mpz_invert(decode_factor_.get_mpz_t(), factor.get_mpz_t(), key_->n().get_mpz_t());
}

absl::StatusOr<PaillierCombiner::Plan> PaillierCombiner::MakePlan(
    const std::vector<int>& parties) const {
  std::set<int> seen;
  for (int p : parties) {
    RETURN_IF_ERROR(key_->ValidateParty(p, "partial decryption"));
    if (!seen.insert(p).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("partial decryption: party ", p, " is given twice"));
    }
  }
  const int needed = key_->threshold();
  if (static_cast<int>(parties.size()) < needed) {
    return absl::FailedPreconditionError(absl::StrCat(
        "combining needs partial decryptions from ", needed, " of ", key_->num_parties(),
        " parties (", std::string(SharingSchemeName(key_->scheme())), "), got ", parties.size()));
  }
  std::vector<size_t> order(parties.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return parties[a] < parties[b]; });
  order.resize(static_cast<size_t>(needed));
  std::vector<int> set;
  for (size_t k : order) set.push_back(parties[k]);

  Plan plan;
  for (size_t k = 0; k < order.size(); ++k) {
    mpz_class exp = key_->scheme() == SharingScheme::kShamir
                        ? mpz_class(2 * LagrangeTimesDelta(key_->delta(), set, set[k]))
                        : mpz_class(1);
    if (exp > 0) {
      plan.positive.push_back(order[k]);
      plan.positive_exp.push_back(std::move(exp));
    } else {
      plan.negative.push_back(order[k]);
      plan.negative_exp.push_back(-exp);
    }
  }
  return plan;
}

absl::StatusOr<mpz_class> PaillierCombiner::CombineOne(
    const Plan& plan, const std::vector<const mpz_class*>& values, size_t index) const {
  const mpz_class& n = key_->n();
  const mpz_class& n2 = key_->n_squared();
  for (const mpz_class* v : values) {
    if (*v <= 0 || *v >= n2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "combining ciphertext ", index, ": a partial decryption is outside (0, N^2)"));
    }
  }
  mpz_class u = ProductOfPowers(values, plan.positive, plan.positive_exp, n2);
  if (!plan.negative.empty()) {
    mpz_class denominator = ProductOfPowers(values, plan.negative, plan.negative_exp, n2);
    if (mpz_invert(denominator.get_mpz_t(), denominator.get_mpz_t(), n2.get_mpz_t()) == 0) {
      u = 0;  // not a unit: reported below
    } else {
      u = u * denominator % n2;
    }
  }
  mpz_class rem;
  mpz_tdiv_r(rem.get_mpz_t(), u.get_mpz_t(), n.get_mpz_t());
  if (rem != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "combining ciphertext ", index,
        ": inconsistent partial decryptions (a share of another key, a corrupted value, "
        "or a partial decryption of another ciphertext)"));
  }
  mpz_class m = (u - 1) / n;
  m = m * decode_factor_ % n;
  return m;
}

absl::StatusOr<mpz_class> PaillierCombiner::Combine(
    absl::Span<const PartialDecryption> partials) const {
  std::vector<int> parties;
  std::vector<const mpz_class*> values;
  for (const PartialDecryption& p : partials) {
    parties.push_back(p.party);
    values.push_back(&p.value);
  }
  ASSIGN_OR_RETURN(Plan plan, MakePlan(parties));
  return CombineOne(plan, values, 0);
}

absl::StatusOr<std::vector<mpz_class>> PaillierCombiner::CombineBatch(
    absl::Span<const PartialDecryptionBatch> batches, ThreadPool* pool) const {
  std::vector<int> parties;
  for (const PartialDecryptionBatch& b : batches) parties.push_back(b.party);
  ASSIGN_OR_RETURN(Plan plan, MakePlan(parties));
  const size_t count = batches.empty() ? 0 : batches[0].values.size();
  for (const PartialDecryptionBatch& b : batches) {
    if (b.values.size() != count) {
      return absl::InvalidArgumentError(absl::StrCat(
          "partial decryption batch of party ", b.party, " has ", b.values.size(),
          " values, the batch of party ", batches[0].party, " has ", count));
    }
  }
  std::vector<mpz_class> out(count);
  RETURN_IF_ERROR(RunBatch(pool, count, [&](size_t j, int) -> absl::Status {
    std::vector<const mpz_class*> values;
    values.reserve(batches.size());
    for (const PartialDecryptionBatch& b : batches) values.push_back(&b.values[j]);
    ASSIGN_OR_RETURN(out[j], CombineOne(plan, values, j));
    return absl::OkStatus();
  }));
  return out;
}

absl::Status PaillierCombiner::VerifyBatch(absl::Span<const Ciphertext> ciphertexts,
                                           const PartialDecryptionBatch& batch,
                                           ThreadPool* pool) const {
  RETURN_IF_ERROR(key_->ValidateParty(batch.party, "partial decryption batch"));
  if (batch.values.size() != ciphertexts.size() || batch.proofs.size() != ciphertexts.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "partial decryption batch of party ", batch.party, ": ", batch.values.size(),
        " values and ", batch.proofs.size(), " proofs for ", ciphertexts.size(),
        " ciphertexts"));
  }
  const PaillierPublicKey& pk = key_->paillier();
  // Ciphertext j and partial decryption j at 2j and 2j + 1: the error is the
  // first bad one in that order.
  RETURN_IF_ERROR(pk.ValidateCiphertexts(
      2 * ciphertexts.size(),
      [&](size_t k) -> const mpz_class& {
        return k % 2 == 0 ? ciphertexts[k / 2].value : batch.values[k / 2];
      },
      [&](size_t k) {
        return k % 2 == 0 ? absl::StrCat("ciphertext ", k / 2)
                          : absl::StrCat("partial decryption ", k / 2, " of party ", batch.party);
      },
      pool));
  return VerifyDecryptionBatch(*key_, modexp_, batch.party, ciphertexts, batch.values,
                               batch.proofs, pool);
}

}  // namespace pplda::crypto

#include "protocol/encrypted_counts.h"

#include <sodium.h>

#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/paillier/paillier_serialization.h"

namespace pplda::protocol {
namespace {

void HashCiphertexts(crypto_generichash_state* state, const std::vector<crypto::Ciphertext>& cts,
                     size_t width) {
  std::vector<uint8_t> buffer(width);
  for (const crypto::Ciphertext& c : cts) {
    std::fill(buffer.begin(), buffer.end(), 0);
    size_t written = 0;
    const size_t bytes = (mpz_sizeinbase(c.value.get_mpz_t(), 2) + 7) / 8;
    // Validated ciphertexts are below N^2, so they fit `width` bytes.
    mpz_export(buffer.data() + (width - bytes), &written, 1, 1, 1, 0, c.value.get_mpz_t());
    crypto_generichash_update(state, buffer.data(), buffer.size());
  }
}

// Every ciphertext of `cts` in Z*_{N^2}, an error naming the first that
// is not ("<who>, <field> ciphertext <i>").
absl::Status ValidateAll(const crypto::PaillierPublicKey& pk,
                         const std::vector<crypto::Ciphertext>& cts, const std::string& who,
                         const std::string& field) {
  return pk.ValidateCiphertexts(
      cts.size(), [&](size_t i) -> const mpz_class& { return cts[i].value; },
      [&](size_t i) { return absl::StrCat(who, ", ", field, " ciphertext ", i); });
}

}  // namespace

CountsDigest UpdateDigest(const CountUpdate& update, size_t width) {
  crypto_generichash_state state;
  CountsDigest out;
  crypto_generichash_init(&state, nullptr, 0, out.size());
  const uint64_t header[4] = {static_cast<uint64_t>(update.party),
                              static_cast<uint64_t>(update.iteration), update.matrix.size(),
                              update.totals.size()};
  crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(header), sizeof(header));
  HashCiphertexts(&state, update.matrix, width);
  HashCiphertexts(&state, update.totals, width);
  if (!update.noise_matrix.empty() || !update.noise_totals.empty()) {
    // DP noise (absent in runs without DP, whose digests are unchanged).
    const uint64_t noise_header[2] = {update.noise_matrix.size(), update.noise_totals.size()};
    crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(noise_header),
                              sizeof(noise_header));
    HashCiphertexts(&state, update.noise_matrix, width);
    HashCiphertexts(&state, update.noise_totals, width);
  }
  crypto_generichash_final(&state, out.data(), out.size());
  return out;
}

CountsDigest CiphertextsDigest(std::string_view label, const std::vector<crypto::Ciphertext>& cts,
                               size_t width) {
  crypto_generichash_state state;
  CountsDigest out;
  crypto_generichash_init(&state, nullptr, 0, out.size());
  const uint64_t header[2] = {label.size(), cts.size()};
  crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(header), sizeof(header));
  crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(label.data()), label.size());
  HashCiphertexts(&state, cts, width);
  crypto_generichash_final(&state, out.data(), out.size());
  return out;
}

std::string DigestHex(const CountsDigest& digest) {
  std::string hex(2 * digest.size() + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
  hex.pop_back();
  return hex;
}

EncryptedCounts::EncryptedCounts(std::string run_id, const SecureLdaPlan& plan,
                                 crypto::ThresholdPublicKeyPtr key, ThreadPool* pool)
    : run_id_(std::move(run_id)),
      plan_(plan),
      key_(std::move(key)),
      evaluator_(key_->paillier()),
      pool_(pool) {}

absl::Status EncryptedCounts::CheckUpdate(const CountUpdate& update, int party,
                                          int iteration) const {
  const bool holder = party >= plan_.num_parties();
  const std::string who =
      holder ? absl::StrCat("update from data holder ", party - plan_.num_parties())
             : absl::StrCat("update from party ", party);
  if (update.run_id != run_id_) {
    return absl::FailedPreconditionError(absl::StrCat(who, " belongs to run '", update.run_id,
                                                      "', not '", run_id_, "'"));
  }
  if (update.iteration != iteration) {
    return absl::FailedPreconditionError(absl::StrCat(who, " is for iteration ",
                                                      update.iteration, ", expected ", iteration));
  }
  if (update.party != party) {
    return absl::InvalidArgumentError(absl::StrCat(who, " is signed as party ", update.party,
                                                   " (missing or repeated party)"));
  }
  const crypto::PaillierPublicKey& pk = key_->paillier();
  // DP: every compute party, data-less or not, sends noise exactly when the
  // next iteration starts with a release; a data holder never does.
  if (plan_.NoisyIteration(iteration + 1) && !holder) {
    if (update.noise_matrix.size() != plan_.MatrixCiphertexts() ||
        update.noise_totals.size() != plan_.TotalsCiphertexts()) {
      return absl::InvalidArgumentError(absl::StrCat(
          who, ": ", update.noise_matrix.size(), " noise matrix and ",
          update.noise_totals.size(), " noise totals ciphertexts, expected ",
          plan_.MatrixCiphertexts(), " and ", plan_.TotalsCiphertexts(), " (iteration ",
          iteration + 1, " starts with a DP release)"));
    }
    RETURN_IF_ERROR(ValidateAll(pk, update.noise_matrix, who, "noise matrix"));
    RETURN_IF_ERROR(ValidateAll(pk, update.noise_totals, who, "noise totals"));
  } else if (!update.noise_matrix.empty() || !update.noise_totals.empty()) {
    return absl::InvalidArgumentError(
        holder ? absl::StrCat(who, " carries DP noise, which only compute parties add")
               : absl::StrCat(who, " carries DP noise, but iteration ", iteration + 1,
                              " does not start with a release"));
  }
  // With data holders, from iteration 1 on: a holder's deltas reach the
  // committee as shares (party/holder_delta_shares.h), so its update is
  // empty, and every member's is full (it carries its share of theirs).
  const bool shared_deltas = plan_.num_holders() > 0 && iteration > 0;
  const bool empty = update.matrix.empty() && update.totals.empty();
  if (holder && shared_deltas) {
    if (empty) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        who, " carries ciphertexts; a data holder's deltas go to the committee as shares"));
  }
  const bool may_be_empty = plan_.tokens_of(party) == 0 && !shared_deltas;
  if (may_be_empty && empty) return absl::OkStatus();
  if (update.matrix.size() != plan_.MatrixCiphertexts() ||
      update.totals.size() != plan_.TotalsCiphertexts()) {
    return absl::InvalidArgumentError(absl::StrCat(
        who, ": ", update.matrix.size(), " matrix and ", update.totals.size(),
        " totals ciphertexts, expected ", plan_.MatrixCiphertexts(), " and ",
        plan_.TotalsCiphertexts()));
  }
  RETURN_IF_ERROR(ValidateAll(pk, update.matrix, who, "matrix"));
  RETURN_IF_ERROR(ValidateAll(pk, update.totals, who, "totals"));
  return absl::OkStatus();
}

absl::Status EncryptedCounts::Restore(int folded, const CountsDigest& digest,
                                      std::vector<crypto::Ciphertext> matrix,
                                      std::vector<crypto::Ciphertext> totals,
                                      std::vector<crypto::Ciphertext> noisy_matrix,
                                      std::vector<crypto::Ciphertext> noisy_totals,
                                      int release_iteration) {
  if (folded_ != -1) {
    return absl::FailedPreconditionError("restoring counts that were already folded");
  }
  if (folded < 0) return absl::InvalidArgumentError(absl::StrCat("folded: ", folded));
  const crypto::PaillierPublicKey& pk = key_->paillier();
  auto check = [&](const std::vector<crypto::Ciphertext>& cts, size_t expected,
                   const char* field) -> absl::Status {
    if (cts.size() != expected) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": ", cts.size(), " ciphertexts, the plan has ", expected));
    }
    return pk.ValidateCiphertexts(
        cts.size(), [&](size_t i) -> const mpz_class& { return cts[i].value; },
        [&](size_t) { return std::string(field); });
  };
  RETURN_IF_ERROR(check(matrix, plan_.MatrixCiphertexts(), "matrix"));
  RETURN_IF_ERROR(check(totals, plan_.TotalsCiphertexts(), "totals"));
  // DP: the latest release is the one made at the last noisy iteration up
  // to folded + 1; none without DP.
  int expected_release = 0;
  for (int i = 1; plan_.dp() && i <= folded + 1; ++i) {
    if (plan_.NoisyIteration(i)) expected_release = i;
  }
  if (release_iteration != expected_release) {
    return absl::InvalidArgumentError(absl::StrCat("release_iteration: ", release_iteration,
                                                   ", the plan's latest release after ", folded,
                                                   " iterations is ", expected_release));
  }
  const bool released = expected_release > 0;
  RETURN_IF_ERROR(check(noisy_matrix, released ? plan_.MatrixCiphertexts() : 0, "noisy_matrix"));
  RETURN_IF_ERROR(check(noisy_totals, released ? plan_.TotalsCiphertexts() : 0, "noisy_totals"));
  matrix_ = std::move(matrix);
  totals_ = std::move(totals);
  noisy_matrix_ = std::move(noisy_matrix);
  noisy_totals_ = std::move(noisy_totals);
  release_iteration_ = release_iteration;
  folded_ = folded;
  digest_ = digest;
  return absl::OkStatus();
}

absl::Status EncryptedCounts::Fold(const std::vector<CountUpdate>& updates, int iteration) {
  if (iteration != folded_ + 1) {
    return absl::FailedPreconditionError(absl::StrCat("updates for iteration ", iteration,
                                                      " but iteration ", folded_ + 1,
                                                      " is expected"));
  }
  if (static_cast<int>(updates.size()) != plan_.num_owners()) {
    return absl::InvalidArgumentError(absl::StrCat(updates.size(), " updates for ",
                                                   plan_.num_parties(), " parties and ",
                                                   plan_.num_holders(), " data holders"));
  }
  for (int o = 0; o < plan_.num_owners(); ++o) {
    RETURN_IF_ERROR(CheckUpdate(updates[o], o, iteration));
  }
  std::vector<crypto::Ciphertext> matrix = matrix_;
  std::vector<crypto::Ciphertext> totals = totals_;
  for (const CountUpdate& u : updates) {
    if (u.matrix.empty()) continue;
    if (matrix.empty()) {
      matrix = u.matrix;
      totals = u.totals;
      continue;
    }
    ASSIGN_OR_RETURN(matrix, evaluator_.AddBatch(matrix, u.matrix, pool_));
    ASSIGN_OR_RETURN(totals, evaluator_.AddBatch(totals, u.totals, pool_));
  }
  if (matrix.empty()) return absl::FailedPreconditionError("no party sent initial counts");
  if (plan_.NoisyIteration(iteration + 1)) {
    // The release: a fresh noisy copy of the new counts; matrix_ stays exact.
    std::vector<crypto::Ciphertext> noisy_matrix = matrix;
    std::vector<crypto::Ciphertext> noisy_totals = totals;
    for (const CountUpdate& u : updates) {
      if (u.noise_matrix.empty()) continue;  // a data holder's
      ASSIGN_OR_RETURN(noisy_matrix, evaluator_.AddBatch(noisy_matrix, u.noise_matrix, pool_));
      ASSIGN_OR_RETURN(noisy_totals, evaluator_.AddBatch(noisy_totals, u.noise_totals, pool_));
    }
    noisy_matrix_ = std::move(noisy_matrix);
    noisy_totals_ = std::move(noisy_totals);
    release_iteration_ = iteration + 1;
  }
  matrix_ = std::move(matrix);
  totals_ = std::move(totals);
  folded_ = iteration;
  ChainDigest(updates, iteration);
  return absl::OkStatus();
}

void EncryptedCounts::ChainDigest(const std::vector<CountUpdate>& updates, int iteration) {
  crypto_generichash_state state;
  crypto_generichash_init(&state, nullptr, 0, digest_.size());
  crypto_generichash_update(&state, digest_.data(), digest_.size());
  const uint64_t header[2] = {run_id_.size(), static_cast<uint64_t>(iteration)};
  crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(header), sizeof(header));
  crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(run_id_.data()),
                            run_id_.size());
  const size_t width = key_->paillier().ciphertext_bytes();
  for (const CountUpdate& u : updates) {
    const CountsDigest d = UpdateDigest(u, width);
    crypto_generichash_update(&state, d.data(), d.size());
  }
  crypto_generichash_final(&state, digest_.data(), digest_.size());
}

absl::StatusOr<GlobalCounts> EncryptedCounts::Counts() const {
  if (folded_ < 0) return absl::FailedPreconditionError("the initial counts were not folded yet");
  GlobalCounts counts;
  counts.run_id = run_id_;
  counts.iteration = folded_ + 1;
  counts.matrix = matrix_;
  counts.totals = totals_;
  return counts;
}

std::vector<crypto::Ciphertext> EncryptedCounts::AllCiphertexts() const {
  std::vector<crypto::Ciphertext> all = plan_.dp() ? noisy_matrix_ : matrix_;
  const std::vector<crypto::Ciphertext>& totals = plan_.dp() ? noisy_totals_ : totals_;
  all.insert(all.end(), totals.begin(), totals.end());
  return all;
}

absl::Status EncryptedCounts::RestoreFromState(int folded, const std::string& digest,
                                               const pplda::v1::CiphertextBatch& matrix,
                                               const pplda::v1::CiphertextBatch& totals,
                                               const pplda::v1::CiphertextBatch& noisy_matrix,
                                               const pplda::v1::CiphertextBatch& noisy_totals,
                                               int release_iteration) {
  auto batch = [&](const pplda::v1::CiphertextBatch& proto, size_t count,
                   const char* field) -> absl::StatusOr<std::vector<crypto::Ciphertext>> {
    absl::StatusOr<std::vector<crypto::Ciphertext>> cts =
        crypto::CiphertextBatchFromProto(*key_, proto, count);
    if (!cts.ok()) {
      return absl::Status(cts.status().code(),
                          absl::StrCat(field, ": ", std::string(cts.status().message())));
    }
    return cts;
  };
  const bool released = release_iteration > 0;
  ASSIGN_OR_RETURN(std::vector<crypto::Ciphertext> matrix_cts,
                   batch(matrix, plan_.MatrixCiphertexts(), "matrix"));
  ASSIGN_OR_RETURN(std::vector<crypto::Ciphertext> totals_cts,
                   batch(totals, plan_.TotalsCiphertexts(), "totals"));
  ASSIGN_OR_RETURN(std::vector<crypto::Ciphertext> noisy_matrix_cts,
                   batch(noisy_matrix, released ? plan_.MatrixCiphertexts() : 0, "noisy_matrix"));
  ASSIGN_OR_RETURN(std::vector<crypto::Ciphertext> noisy_totals_cts,
                   batch(noisy_totals, released ? plan_.TotalsCiphertexts() : 0, "noisy_totals"));
  CountsDigest chain{};
  if (digest.size() != chain.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("counts_digest: ", digest.size(), " bytes, expected 32"));
  }
  std::copy(digest.begin(), digest.end(), chain.begin());
  return Restore(folded, chain, std::move(matrix_cts), std::move(totals_cts),
                 std::move(noisy_matrix_cts), std::move(noisy_totals_cts), release_iteration);
}

}  // namespace pplda::protocol

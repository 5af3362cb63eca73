#include "coordinator/lda_coordinator.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/paillier_combiner.h"

namespace pplda::coordinator {

using crypto::Ciphertext;

absl::StatusOr<std::unique_ptr<LdaCoordinator>> LdaCoordinator::Create(
    std::string run_id, const party::SecureLdaPlan& plan, crypto::ThresholdPublicKeyPtr key,
    ThreadPool* pool) {
  if (key == nullptr) return absl::InvalidArgumentError("coordinator: no public key given");
  if (key->num_parties() != plan.num_parties()) {
    return absl::InvalidArgumentError(absl::StrCat("coordinator: the key has ",
                                                   key->num_parties(), " parties, the plan ",
                                                   plan.num_parties()));
  }
  return std::unique_ptr<LdaCoordinator>(
      new LdaCoordinator(std::move(run_id), plan, std::move(key), pool));
}

absl::Status LdaCoordinator::CheckUpdate(const party::CountUpdate& update, int party,
                                         int iteration) const {
  const std::string who = absl::StrCat("update from party ", party);
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
  const bool may_be_empty = plan_.tokens_of(party) == 0;
  if (may_be_empty && update.matrix.empty() && update.totals.empty()) return absl::OkStatus();
  if (update.matrix.size() != plan_.MatrixCiphertexts() ||
      update.totals.size() != plan_.TotalsCiphertexts()) {
    return absl::InvalidArgumentError(absl::StrCat(
        who, ": ", update.matrix.size(), " matrix and ", update.totals.size(),
        " totals ciphertexts, expected ", plan_.MatrixCiphertexts(), " and ",
        plan_.TotalsCiphertexts()));
  }
  const crypto::PaillierPublicKey& pk = key_->paillier();
  for (size_t i = 0; i < update.matrix.size(); ++i) {
    RETURN_IF_ERROR(pk.ValidateCiphertext(update.matrix[i].value,
                                          absl::StrCat(who, ", matrix ciphertext ", i)));
  }
  for (size_t i = 0; i < update.totals.size(); ++i) {
    RETURN_IF_ERROR(pk.ValidateCiphertext(update.totals[i].value,
                                          absl::StrCat(who, ", totals ciphertext ", i)));
  }
  return absl::OkStatus();
}

absl::Status LdaCoordinator::Fold(const std::vector<party::CountUpdate>& updates, int iteration) {
  if (iteration != folded_ + 1) {
    return absl::FailedPreconditionError(absl::StrCat("coordinator: updates for iteration ",
                                                      iteration, " but iteration ", folded_ + 1,
                                                      " is expected"));
  }
  if (static_cast<int>(updates.size()) != plan_.num_parties()) {
    return absl::InvalidArgumentError(absl::StrCat("coordinator: ", updates.size(),
                                                   " updates for ", plan_.num_parties(),
                                                   " parties"));
  }
  for (int p = 0; p < plan_.num_parties(); ++p) RETURN_IF_ERROR(CheckUpdate(updates[p], p, iteration));
  for (const party::CountUpdate& u : updates) {
    if (u.matrix.empty()) continue;
    if (matrix_.empty()) {
      matrix_ = u.matrix;
      totals_ = u.totals;
      continue;
    }
    ASSIGN_OR_RETURN(matrix_, evaluator_.AddBatch(matrix_, u.matrix, pool_));
    ASSIGN_OR_RETURN(totals_, evaluator_.AddBatch(totals_, u.totals, pool_));
  }
  if (matrix_.empty()) {
    return absl::FailedPreconditionError("coordinator: no party sent initial counts");
  }
  folded_ = iteration;
  return absl::OkStatus();
}

absl::StatusOr<party::GlobalCounts> LdaCoordinator::Counts() const {
  if (folded_ < 0) {
    return absl::FailedPreconditionError("coordinator: the initial counts were not folded yet");
  }
  party::GlobalCounts counts;
  counts.run_id = run_id_;
  counts.iteration = folded_ + 1;
  counts.matrix = matrix_;
  counts.totals = totals_;
  return counts;
}

absl::StatusOr<std::vector<int64_t>> LdaCoordinator::DecodeCounts(
    const std::vector<party::DecryptionShare>& shares) const {
  std::vector<crypto::PartialDecryptionBatch> batches;
  for (const party::DecryptionShare& s : shares) {
    if (s.run_id != run_id_ || s.iteration != folded_ + 1) {
      return absl::FailedPreconditionError(absl::StrCat(
          "decryption share from party ", s.party, " is for run '", s.run_id, "' iteration ",
          s.iteration, ", expected '", run_id_, "' iteration ", folded_ + 1));
    }
    batches.push_back(s.partials);
  }
  crypto::PaillierCombiner combiner(key_);
  ASSIGN_OR_RETURN(std::vector<mpz_class> plain, combiner.CombineBatch(batches, pool_));
  const size_t s = plan_.layout().slots();
  std::vector<mpz_class> matrix_plain(plain.begin(), plain.begin() + plan_.MatrixCiphertexts());
  std::vector<mpz_class> totals_plain(plain.begin() + plan_.MatrixCiphertexts(), plain.end());
  ASSIGN_OR_RETURN(std::vector<int64_t> slots,
                   plan_.layout().UnpackInt64(matrix_plain, plan_.MatrixCiphertexts() * s));
  ASSIGN_OR_RETURN(std::vector<int64_t> totals,
                   plan_.layout().UnpackInt64(totals_plain, plan_.num_topics()));
  const int K = plan_.num_topics();
  const int32_t V = plan_.num_terms();
  std::vector<int64_t> counts(static_cast<size_t>(K) * V);
  std::vector<int64_t> row_sums(K, 0);
  for (int32_t t = 0; t < V; ++t) {
    for (int k = 0; k < K; ++k) {
      const int h = k / plan_.chunk_width();
      const int64_t v =
          slots[(static_cast<size_t>(t) * plan_.chunks() + h) * s + (k - h * plan_.chunk_width())];
      if (v < 0) {
        return absl::InternalError(absl::StrCat("published count n_", k, "(", t, ") = ", v,
                                                " is negative"));
      }
      counts[static_cast<size_t>(k) * V + t] = v;
      row_sums[k] += v;
    }
  }
  for (int k = 0; k < K; ++k) {
    if (row_sums[k] != totals[k]) {
      return absl::InternalError(absl::StrCat("published topic ", k, " sums to ", row_sums[k],
                                              " but its encrypted total is ", totals[k]));
    }
  }
  return counts;
}

absl::StatusOr<lda::LdaModel> LdaCoordinator::Publish(
    const std::vector<party::DecryptionShare>& shares, const lda::Vocabulary& vocabulary) const {
  if (vocabulary.size() != plan_.num_terms()) {
    return absl::InvalidArgumentError(absl::StrCat("publication: vocabulary of ",
                                                   vocabulary.size(), " terms, the run has ",
                                                   plan_.num_terms()));
  }
  lda::LdaModel model;
  ASSIGN_OR_RETURN(model.topic_term_counts, DecodeCounts(shares));
  model.vocabulary = vocabulary;
  model.num_topics = plan_.num_topics();
  model.alpha = plan_.effective_alpha();
  model.beta = plan_.effective_beta();
  return model;
}

}  // namespace pplda::coordinator

#include "coordinator/lda_coordinator.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/paillier/paillier_combiner.h"
#include "crypto/paillier/paillier_serialization.h"

namespace pplda::coordinator {

using crypto::Ciphertext;

absl::StatusOr<std::unique_ptr<LdaCoordinator>> LdaCoordinator::Create(
    std::string run_id, const protocol::SecureLdaPlan& plan, crypto::ThresholdPublicKeyPtr key,
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

absl::Status LdaCoordinator::Restore(const pplda::v1::CoordinatorRunState& state) {
  return counts_.RestoreFromState(state.header().iteration(), state.counts_digest(), state.matrix(),
                                  state.totals(), state.noisy_matrix(), state.noisy_totals(),
                                  state.release_iteration());
}

absl::Status LdaCoordinator::Fold(const std::vector<protocol::CountUpdate>& updates,
                                  int iteration) {
  absl::Status folded = counts_.Fold(updates, iteration);
  if (!folded.ok()) {
    return absl::Status(folded.code(), absl::StrCat("coordinator: ", folded.message()));
  }
  return absl::OkStatus();
}

// Longer than a screen: every check of the parties' shares (the agreed
// fold, one batch per decryptor, proofs) comes before anything is combined,
// in one place.
absl::StatusOr<std::vector<int64_t>> LdaCoordinator::DecodeCounts(
    const std::vector<protocol::DecryptionShare>& shares) const {
  const int expected = counts_.folded() + 1;
  if (static_cast<int>(shares.size()) < key_->threshold()) {
    return absl::InvalidArgumentError(absl::StrCat("publication needs ", key_->threshold(),
                                                   " decryption shares, got ", shares.size()));
  }
  crypto::PaillierCombiner combiner(key_);
  const std::vector<crypto::Ciphertext> ciphertexts = counts_.AllCiphertexts();
  std::vector<crypto::PartialDecryptionBatch> batches;
  for (const protocol::DecryptionShare& s : shares) {
    if (s.run_id != run_id_ || s.iteration != expected) {
      return absl::FailedPreconditionError(absl::StrCat(
          "decryption share from party ", s.party, " is for run '", s.run_id, "' iteration ",
          s.iteration, ", expected '", run_id_, "' iteration ", expected));
    }
    absl::Status verified = combiner.VerifyBatch(ciphertexts, s.partials, pool_);
    if (!verified.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("decryption share from party ", s.party,
                                                     ": ", verified.message()));
    }
    batches.push_back(s.partials);
  }
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
      if (v < 0 && !plan_.dp()) {
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
  // DP: the release is N = C + noise, negative cells included; the model
  // holds max(N, 0), the plaintext twin's post-processing.
  if (plan_.dp()) {
    for (int64_t& v : counts) v = std::max<int64_t>(v, 0);
  }
  return counts;
}

absl::StatusOr<lda::LdaModel> LdaCoordinator::Publish(
    const std::vector<protocol::DecryptionShare>& shares, const lda::Vocabulary& vocabulary) const {
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

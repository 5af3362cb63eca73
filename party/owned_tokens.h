// OwnedTokens: what a token owner (a compute party with documents, or a
// data holder outside the committee) keeps of its own documents in a secure
// run, and what it computes from them (docs/protocol.md, steps 1, 3 and 6):
// each token's term, topic and document, and the document-topic counts
// n_m(k), which never leave the owner; its selection ciphertexts from the
// agreed matrix, its MPC inputs, its count tables.
// Invariant: doc_topic[m K + k] = #{tokens of document m with topic k};
// every term in [0, V) and every topic in [0, K).
// Errors name the owner (`who`) and the document and token at fault.
// Thread-safety: one caller at a time; Select uses the given pool.
#ifndef PPLDA_PARTY_OWNED_TOKENS_H_
#define PPLDA_PARTY_OWNED_TOKENS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/thread_pool.h"
#include "crypto/arith/field_vector.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_evaluator.h"
#include "lda/vocabulary.h"
#include "protocol/messages.h"
#include "protocol/secure_lda_plan.h"

namespace pplda::party {

// A V x K term-major table of per-term values and K per-topic values.
struct CountTables {
  std::vector<int64_t> term_topic;
  std::vector<int64_t> totals;
};

class OwnedTokens {
 public:
  // `documents[m]` term ids, `topics[m][i]` token i's initial topic.
  static absl::StatusOr<OwnedTokens> Create(std::string who, const protocol::SecureLdaPlan& plan,
                                            std::vector<std::vector<lda::TermId>> documents,
                                            std::vector<std::vector<int>> topics);

  const std::string& who() const { return who_; }
  int64_t size() const { return static_cast<int64_t>(terms_.size()); }

  // The packed, re-randomised ciphertexts of c_ik = n_k(t_i) - [k = z_i]
  // for every token, from `matrix` (the agreed draw matrix): each token's
  // term row shifted into its slots (Horner), the -[k = z_i] correction
  // added.
  absl::StatusOr<std::vector<crypto::Ciphertext>> Select(
      const protocol::SecureLdaPlan& plan, const std::vector<crypto::Ciphertext>& matrix,
      const crypto::PaillierEvaluator& evaluator, const crypto::PaillierEncryptor& encryptor,
      ThreadPool* pool) const;
  // The owner's MPC inputs: d_ik = n_m(k) - [k = z_i] for every token i and
  // topic k (token-major), then e_ik = [k = z_i].
  crypto::FieldVector Inputs(int num_topics) const;
  // The counts of the current topics.
  CountTables Counts(const protocol::SecureLdaPlan& plan) const;
  // Takes the drawn topics (one per token); returns the count deltas.
  // InternalError naming the token for a topic outside [0, K), nothing
  // changed.
  absl::StatusOr<CountTables> Apply(const protocol::SecureLdaPlan& plan,
                                    absl::Span<const int> drawn);

  // Topics of the tokens, per document.
  std::vector<std::vector<int>> Assignments() const;
  // theta_m(k) = (n_m(k) + alpha) / (N_m + K alpha), one row per document.
  std::vector<std::vector<double>> DocumentTopicMixtures(int num_topics, double alpha) const;

 private:
  explicit OwnedTokens(std::string who) : who_(std::move(who)) {}

  std::string who_;
  // Flat token arrays (document-major): term, topic, document.
  std::vector<lda::TermId> terms_;
  std::vector<int> topics_;
  std::vector<int32_t> doc_of_;
  std::vector<int64_t> doc_lengths_;
  std::vector<int32_t> doc_topic_;  // D x K: n_m(k)
};

// The packed plaintexts of `tables` (plan.layout()): the matrix's
// plan.MatrixCiphertexts(), then the totals' plan.TotalsCiphertexts().
absl::StatusOr<std::vector<mpz_class>> PackCountTables(const protocol::SecureLdaPlan& plan,
                                                       const CountTables& tables);
// `packed` (as PackCountTables) encrypted as owner `owner`'s update of
// `iteration` (no DP noise).
absl::StatusOr<protocol::CountUpdate> EncryptPackedCounts(
    const protocol::SecureLdaPlan& plan, const crypto::PaillierEncryptor& encryptor,
    const std::vector<mpz_class>& packed, const std::string& run_id, int iteration, int owner,
    ThreadPool* pool);
// The packed encryption of `tables` as owner `owner`'s update of
// `iteration` (no DP noise).
absl::StatusOr<protocol::CountUpdate> EncryptCountTables(const protocol::SecureLdaPlan& plan,
                                                         const crypto::PaillierEncryptor& encryptor,
                                                         const CountTables& tables,
                                                         const std::string& run_id, int iteration,
                                                         int owner, ThreadPool* pool);

}  // namespace pplda::party

#endif  // PPLDA_PARTY_OWNED_TOKENS_H_

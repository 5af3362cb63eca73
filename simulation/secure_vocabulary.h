// RunSecureDpVocabulary: the secure DP vocabulary with every compute party
// in one process, driven by the coordinator's one schedule
// (coordinator/dp_vocabulary_driver.h) over in-process parties: each
// party's DpVocabularyParty (party/dp_vocabulary_party.h) contributes its
// encrypted candidate histogram plus noise shares, every party sums all
// contributions itself, the sums' digests must agree, the key's threshold
// of parties decrypt with proofs, and the verified noisy counts select the
// vocabulary (privacy/dp_candidate_union.h). Used by `pplda vocab --dp` and
// by `pplda simulate --dp-vocab-candidates`.
//
// Parties: the key's n compute parties; corpora[p] holds party p's
// documents (empty for a data-less helper). The noise withstands a
// coalition of t = (n - 1) / 2, the MPC threshold. Randomness: party p's
// kVocabularyEncryptor, kVocabularyNoise and kVocabularyProofs sources.
// KEY: dealt by the caller (dealer mode), as in local_consortium.h.
// The accountant has the budget (epsilon, delta) of the options and holds
// the truncation's and the release's cost, debited before any contribution
// is made.
// Errors: InvalidArgument for inconsistent inputs; protocol errors with the
// party that failed.
#ifndef PPLDA_SIMULATION_SECURE_VOCABULARY_H_
#define PPLDA_SIMULATION_SECURE_VOCABULARY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "crypto/paillier/paillier_dealer.h"
#include "lda/corpus.h"
#include "lda/document_reader.h"
#include "lda/tokenizer.h"
#include "lda/vocabulary.h"
#include "party/party_randomness.h"
#include "privacy/dp_candidate_union.h"
#include "privacy/dp_vocabulary.h"
#include "privacy/privacy_accountant.h"

namespace pplda::simulation {

// epsilon, delta and max_terms_per_document as DpVocabularyOptions.
struct SecureVocabularyOptions : privacy::DpVocabularyOptions {
  int64_t threshold = 0;  // 0 = the default rule
  std::string run_id = "local-dp-vocabulary";
  int threads = 0;  // 0 = all cores
  // RunSecureDpVocabularyOnDocuments: > 0 when the key's parties are a
  // committee without documents and every raw corpus a data holder's.
  int committee = 0;
};

struct SecureVocabularyResult {
  privacy::CandidateUnionPlan plan;
  std::vector<lda::TermId> selected;  // candidate ids, ascending
  lda::Vocabulary vocabulary;         // the selected candidates, in that order
  std::vector<int64_t> noisy_counts;  // the decrypted release (DP), one per candidate
  privacy::PrivacyAccountant accountant;
  // Traffic: each party sends its contribution to the coordinator, which
  // relays every contribution to every party, and its partial decryptions
  // with proofs; 3 rounds (contribute, compare digests, decrypt).
  uint64_t bytes_sent_per_party = 0;
  uint64_t coordinator_bytes = 0;
  int rounds = 3;
  double seconds = 0;
};

// `holder_corpora`: the documents of data holders outside the committee
// (owners n, n + 1, ...), which add no noise and decrypt nothing
// (party/dp_vocabulary_holder.h).
absl::StatusOr<SecureVocabularyResult> RunSecureDpVocabulary(
    const std::vector<lda::Corpus>& corpora, const lda::Vocabulary& candidates,
    const crypto::DealtKey& key, const party::ConsortiumRngFactory& rng_factory,
    const SecureVocabularyOptions& options, const std::vector<lda::Corpus>& holder_corpora = {});

// The same from the data holders' raw documents: each tokenized with
// `preprocess` and mapped onto the candidates (other terms dropped), a
// data-less helper appended with none when the key has more parties.
// FailedPrecondition when no candidate is selected (naming what to change).
absl::StatusOr<SecureVocabularyResult> RunSecureDpVocabularyOnDocuments(
    const std::vector<lda::RawCorpus>& raws, const lda::PreprocessOptions& preprocess,
    const lda::Vocabulary& candidates, const crypto::DealtKey& key,
    const party::ConsortiumRngFactory& rng_factory, const SecureVocabularyOptions& options);

}  // namespace pplda::simulation

#endif  // PPLDA_SIMULATION_SECURE_VOCABULARY_H_

#include "party/dp_vocabulary_party.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/paillier/paillier_combiner.h"
#include "crypto/paillier/paillier_evaluator.h"

namespace pplda::party {
namespace {

constexpr char kListLabel[] = "pplda/dp-vocabulary-contributions/v1";

// What the list digest binds besides the ciphertexts: the run, the public
// parameters and the candidate terms.
std::string DigestContext(const std::string& run_id, const privacy::CandidateUnionPlan& plan,
                          const lda::Vocabulary& candidates) {
  std::string out = absl::StrCat(kListLabel, "\n", run_id, "\n", plan.Describe().dump(), "\n");
  for (const std::string& t : candidates.terms()) absl::StrAppend(&out, t, "\n");
  return out;
}

}  // namespace

absl::StatusOr<std::unique_ptr<DpVocabularyParty>> DpVocabularyParty::Create(
    std::string run_id, int party, privacy::CandidateUnionPlan plan,
    const crypto::PaillierKeyShare& key_share, crypto::SecureRng& encryption_rng,
    ThreadPool* pool) {
  const crypto::ThresholdPublicKey& key = *key_share.public_key();
  if (plan.options.parties != key.num_parties()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the DP vocabulary's plan counts ", plan.options.parties,
                     " compute parties but the key has ", key.num_parties()));
  }
  if (party < 0 || party >= key.num_parties() || key_share.party() != party + 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("DP vocabulary: party ", party, " does not hold key share ", party + 1));
  }
  ASSIGN_OR_RETURN(crypto::PackingLayout layout,
                   protocol::VocabularyPackingLayout(plan, key.paillier()));
  ASSIGN_OR_RETURN(std::unique_ptr<crypto::PaillierEncryptor> encryptor,
                   crypto::PaillierEncryptor::Create(key.paillier(), encryption_rng));
  return std::unique_ptr<DpVocabularyParty>(
      new DpVocabularyParty(std::move(run_id), party, std::move(plan), key_share, std::move(layout),
                            std::move(encryptor), pool));
}

absl::StatusOr<protocol::VocabularyContribution> DpVocabularyParty::Contribute(
    const lda::Corpus& documents, const lda::Vocabulary& candidates, crypto::SecureRng& noise_rng) {
  if (sent_) {
    return absl::FailedPreconditionError(
        absl::StrCat("party ", party_, ": the DP vocabulary contribution was already made"));
  }
  if (candidates.size() != plan_.candidates) {
    return absl::InvalidArgumentError(absl::StrCat("DP vocabulary: ", candidates.size(),
                                                   " candidates, the plan has ", plan_.candidates));
  }
  if (documents.num_documents() >= (int64_t{1} << 31) - 1) {
    return absl::InvalidArgumentError("DP vocabulary: more than 2^31 - 2 documents");
  }
  std::vector<int64_t> values =
      privacy::CandidateHistogram(documents, candidates, plan_.options.max_terms_per_document);
  ASSIGN_OR_RETURN(std::vector<int64_t> noise, privacy::CandidateNoiseShares(plan_, noise_rng));
  for (size_t u = 0; u < values.size(); ++u) values[u] += noise[u];
  ASSIGN_OR_RETURN(std::vector<mpz_class> packed, layout_.Pack(values));
  protocol::VocabularyContribution out{run_id_, party_, {}};
  ASSIGN_OR_RETURN(out.counts, encryptor_->EncryptBatch(packed, pool_));
  sent_ = out.counts;
  context_ = DigestContext(run_id_, plan_, candidates);
  return out;
}

absl::StatusOr<protocol::CountsDigest> DpVocabularyParty::AcceptContributions(
    absl::Span<const protocol::VocabularyContribution> contributions,
    absl::Span<const protocol::CountsDigest> holder_digests) {
  if (!sent_) {
    return absl::FailedPreconditionError(
        absl::StrCat("party ", party_, ": DP vocabulary contributions before its own"));
  }
  if (digest_) {
    return absl::FailedPreconditionError(
        absl::StrCat("party ", party_, ": the DP vocabulary contributions were already summed"));
  }
  const crypto::ThresholdPublicKey& key = *key_share_.public_key();
  const int members = key.num_parties();
  const int holders = plan_.options.holders;
  const int n = members + holders;  // every owner contributes
  if (holder_digests.size() != static_cast<size_t>(holders)) {
    return absl::InvalidArgumentError(absl::StrCat("DP vocabulary: ", holder_digests.size(),
                                                   " data holders' digests for ", holders,
                                                   " data holders"));
  }
  const size_t length = layout_.NumPlaintexts(static_cast<size_t>(plan_.candidates));
  std::vector<const protocol::VocabularyContribution*> by_party(n, nullptr);
  for (const protocol::VocabularyContribution& c : contributions) {
    if (c.party < 0 || c.party >= n || by_party[c.party] != nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("DP vocabulary: a contribution from party ", c.party,
                       c.party >= 0 && c.party < n
                           ? " given twice"
                           : ", which is not a compute party or data holder of the run"));
    }
    if (c.run_id != run_id_ || c.counts.size() != length) {
      return absl::InvalidArgumentError(absl::StrCat(
          "DP vocabulary: the contribution of party ", c.party, " is for run '", c.run_id,
          "' with ", c.counts.size(), " ciphertexts; expected run '", run_id_, "' and ", length));
    }
    RETURN_IF_ERROR(key.paillier().ValidateCiphertexts(
        c.counts.size(), [&](size_t i) -> const mpz_class& { return c.counts[i].value; },
        [&](size_t) { return absl::StrCat("DP vocabulary contribution of party ", c.party); }));
    by_party[c.party] = &c;
  }
  for (int p = 0; p < n; ++p) {
    if (by_party[p] == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("DP vocabulary: no contribution from party ", p));
    }
  }
  if (by_party[party_]->counts != *sent_) {
    return absl::FailedPreconditionError(
        absl::StrCat("party ", party_,
                     ": the DP vocabulary contribution relayed as its own is not the one "
                     "it sent"));
  }
  for (int h = 0; h < holders; ++h) {
    const int owner = members + h;
    if (protocol::HolderContributionDigest(run_id_, owner, by_party[owner]->counts,
                                           key.paillier()) != holder_digests[h]) {
      return absl::FailedPreconditionError(absl::StrCat(
          "party ", party_, ": the DP vocabulary contribution relayed as data holder ", h,
          "'s is not the one it sent this party over its own link: refusing to sum it"));
    }
  }
  sum_ = protocol::SumContributions(key.paillier(), by_party);
  std::vector<crypto::Ciphertext> list;  // party order
  list.reserve(length * n);
  for (int p = 0; p < n; ++p) {
    list.insert(list.end(), by_party[p]->counts.begin(), by_party[p]->counts.end());
  }
  digest_ = protocol::CiphertextsDigest(context_, list, key.paillier().ciphertext_bytes());
  return *digest_;
}

absl::Status DpVocabularyParty::ConfirmDigests(absl::Span<const protocol::CountsDigest> digests) {
  if (!digest_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "party ", party_, ": DP vocabulary digests to confirm before the party's own"));
  }
  const int n = key_share_.public_key()->num_parties();
  if (digests.size() != static_cast<size_t>(n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("DP vocabulary: ", digests.size(), " digests for ", n, " parties"));
  }
  for (size_t p = 0; p < digests.size(); ++p) {
    if (digests[p] != *digest_) {
      return absl::FailedPreconditionError(absl::StrCat(
          "party ", party_, ": party ", p, " was handed other DP vocabulary contributions (digest ",
          protocol::DigestHex(digests[p]), ", this party's ", protocol::DigestHex(*digest_),
          "): refusing to decrypt"));
    }
  }
  confirmed_ = true;
  return absl::OkStatus();
}

absl::StatusOr<crypto::PartialDecryptionBatch> DpVocabularyParty::Decrypt(
    const protocol::CountsDigest& requested, crypto::SecureRng& proof_rng) const {
  if (!confirmed_) {
    return absl::FailedPreconditionError(
        absl::StrCat("party ", party_,
                     ": asked to decrypt the DP vocabulary before every party confirmed the same "
                     "contributions"));
  }
  if (requested != *digest_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "party ", party_,
        ": refusing to decrypt: the DP vocabulary contributions requested have "
        "digest ",
        protocol::DigestHex(requested), ", the party's own are ", protocol::DigestHex(*digest_)));
  }
  return key_share_.PartialDecryptBatchWithProofs(sum_, proof_rng, pool_);
}

}  // namespace pplda::party

#include "party/dp_vocabulary_holder.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace pplda::party {

absl::StatusOr<std::unique_ptr<DpVocabularyHolder>> DpVocabularyHolder::Create(
    std::string run_id, int owner, privacy::CandidateUnionPlan plan,
    const crypto::ThresholdPublicKeyPtr& key, crypto::SecureRng& encryption_rng, ThreadPool* pool) {
  const int members = plan.options.parties;
  if (key == nullptr || key->num_parties() != members) {
    return absl::InvalidArgumentError(absl::StrCat("the DP vocabulary's plan counts ", members,
                                                   " compute parties but the key has ",
                                                   key == nullptr ? 0 : key->num_parties()));
  }
  if (owner < members || owner >= members + plan.options.holders) {
    return absl::InvalidArgumentError(absl::StrCat("DP vocabulary: owner ", owner,
                                                   " is not one of the plan's ",
                                                   plan.options.holders, " data holders"));
  }
  ASSIGN_OR_RETURN(crypto::PackingLayout layout,
                   protocol::VocabularyPackingLayout(plan, key->paillier()));
  ASSIGN_OR_RETURN(std::unique_ptr<crypto::PaillierEncryptor> encryptor,
                   crypto::PaillierEncryptor::Create(key->paillier(), encryption_rng));
  return std::unique_ptr<DpVocabularyHolder>(
      new DpVocabularyHolder(std::move(run_id), owner, std::move(plan), key, std::move(layout),
                             std::move(encryptor), pool));
}

absl::StatusOr<protocol::VocabularyContribution> DpVocabularyHolder::Contribute(
    const lda::Corpus& documents, const lda::Vocabulary& candidates) {
  if (contributed_) {
    return absl::FailedPreconditionError(
        absl::StrCat("data holder ", owner_ - plan_.options.parties,
                     ": the DP vocabulary contribution was already made"));
  }
  if (candidates.size() != plan_.candidates) {
    return absl::InvalidArgumentError(absl::StrCat("DP vocabulary: ", candidates.size(),
                                                   " candidates, the plan has ", plan_.candidates));
  }
  if (documents.num_documents() >= (int64_t{1} << 31) - 1) {
    return absl::InvalidArgumentError("DP vocabulary: more than 2^31 - 2 documents");
  }
  const std::vector<int64_t> histogram =
      privacy::CandidateHistogram(documents, candidates, plan_.options.max_terms_per_document);
  ASSIGN_OR_RETURN(std::vector<mpz_class> packed, layout_.Pack(histogram));
  protocol::VocabularyContribution out{run_id_, owner_, {}};
  ASSIGN_OR_RETURN(out.counts, encryptor_->EncryptBatch(packed, pool_));
  digest_ = protocol::HolderContributionDigest(run_id_, owner_, out.counts, key_->paillier());
  contributed_ = true;
  return out;
}

absl::StatusOr<std::vector<lda::TermId>> DpVocabularyHolder::AcceptSelection(
    absl::Span<const std::vector<lda::TermId>> by_member) {
  const int holder = owner_ - plan_.options.parties;
  if (!contributed_ || selected_) {
    return absl::FailedPreconditionError(
        absl::StrCat("data holder ", holder, ": the DP vocabulary's selection ",
                     contributed_ ? "was already accepted" : "before this holder's contribution"));
  }
  if (by_member.size() != static_cast<size_t>(plan_.options.parties)) {
    return absl::InvalidArgumentError(absl::StrCat("DP vocabulary: ", by_member.size(),
                                                   " members' selections for a committee of ",
                                                   plan_.options.parties));
  }
  for (size_t j = 1; j < by_member.size(); ++j) {
    if (by_member[j] != by_member[0]) {
      return absl::FailedPreconditionError(
          absl::StrCat("data holder ", holder, ": committee member ", j, " selected ",
                       by_member[j].size(), " terms, member 0 ", by_member[0].size(),
                       ", another vocabulary: refusing both (the committee does not agree)"));
    }
  }
  if (by_member[0].empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("data holder ", holder, ": the committee selected no vocabulary"));
  }
  for (size_t i = 0; i < by_member[0].size(); ++i) {
    const lda::TermId u = by_member[0][i];
    if (u < 0 || u >= plan_.candidates || (i > 0 && u <= by_member[0][i - 1])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "DP vocabulary: the committee's selection is not ascending candidate ids below ",
          plan_.candidates));
    }
  }
  selected_ = true;
  return by_member[0];
}

}  // namespace pplda::party

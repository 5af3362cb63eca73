#include "coordinator/dp_vocabulary_driver.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "protocol/vocabulary_digest.h"

namespace pplda::coordinator {
namespace {

absl::StatusOr<std::vector<int64_t>> VerifiedNoisyCounts(
    const std::vector<protocol::VocabularyContribution>& contributions,
    const std::vector<crypto::PartialDecryptionBatch>& partials,
    const privacy::CandidateUnionPlan& plan, const crypto::ThresholdPublicKeyPtr& key,
    ThreadPool* pool) {
  std::vector<const protocol::VocabularyContribution*> by_party;
  for (const protocol::VocabularyContribution& c : contributions) by_party.push_back(&c);
  const std::vector<crypto::Ciphertext> sum = protocol::SumContributions(key->paillier(), by_party);
  ASSIGN_OR_RETURN(crypto::PackingLayout layout,
                   protocol::VocabularyPackingLayout(plan, key->paillier()));
  return protocol::DecodeNoisyCandidateCounts(key, layout, sum, partials, plan.candidates, pool);
}

absl::Status CheckSelections(const VocabularyPartyGroup& parties,
                             const std::vector<VocabularySelection>& selections,
                             const std::string& sha, size_t size) {
  for (size_t p = 0; p < selections.size(); ++p) {
    if (selections[p].vocabulary_sha256 != sha) {
      return absl::FailedPreconditionError(absl::StrCat(
          parties.PartyName(static_cast<int>(p)), ": selected a vocabulary with SHA-256 ",
          selections[p].vocabulary_sha256, " (", selections[p].vocabulary_size,
          " terms); the coordinator's decryption selects ", sha, " (", size, " terms)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DrivenDpVocabulary> DriveDpVocabulary(VocabularyPartyGroup& parties,
                                                     const privacy::CandidateUnionPlan& plan,
                                                     const lda::Vocabulary& candidates,
                                                     const crypto::ThresholdPublicKeyPtr& key,
                                                     ThreadPool* pool) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t n = static_cast<uint64_t>(parties.num_parties());
  const uint64_t owners = n + static_cast<uint64_t>(parties.num_holders());
  const uint64_t ct_bytes = key->paillier().ciphertext_bytes();
  DrivenDpVocabulary out;
  ASSIGN_OR_RETURN(std::vector<protocol::VocabularyContribution> contributions,
                   parties.Contribute());
  if (contributions.size() != owners || contributions.empty()) {
    return absl::InternalError(absl::StrCat("DP vocabulary: ", contributions.size(),
                                            " contributions from ", owners, " participants"));
  }
  out.contribution_bytes = contributions[0].counts.size() * ct_bytes;
  // Every contribution in, and relayed to every compute party.
  out.coordinator_bytes += owners * (1 + n) * out.contribution_bytes;
  ASSIGN_OR_RETURN(std::vector<crypto::PartialDecryptionBatch> partials,
                   parties.SumAndDecrypt(contributions, key->threshold()));
  ASSIGN_OR_RETURN(out.noisy_counts, VerifiedNoisyCounts(contributions, partials, plan, key, pool));
  ASSIGN_OR_RETURN(out.selected, privacy::SelectCandidates(plan, out.noisy_counts));
  if (out.selected.empty()) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the DP vocabulary kept none of the %d candidates (threshold %d documents): raise "
        "--dp-vocab-epsilon, lower --dp-vocab-max-terms, or use more documents",
        plan.candidates, plan.threshold));
  }
  for (lda::TermId u : out.selected) out.vocabulary.Add(candidates.term(u));
  for (const crypto::PartialDecryptionBatch& b : partials) {
    out.partial_bytes = (b.values.size() + 2 * b.proofs.size()) * ct_bytes;
    out.coordinator_bytes += (1 + n) * out.partial_bytes;
  }
  ASSIGN_OR_RETURN(std::vector<VocabularySelection> selections, parties.Select(partials));
  RETURN_IF_ERROR(CheckSelections(parties, selections, protocol::VocabularySha256(out.vocabulary),
                                  out.vocabulary.size()));
  for (const VocabularySelection& s : selections) out.tokens.push_back(s.tokens);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace pplda::coordinator

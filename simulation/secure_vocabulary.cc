#include "simulation/secure_vocabulary.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "base/thread_pool.h"
#include "coordinator/dp_vocabulary_driver.h"
#include "lda/preprocessor.h"
#include "party/dp_vocabulary_holder.h"
#include "party/dp_vocabulary_party.h"
#include "protocol/consortium_policy.h"
#include "protocol/dp_vocabulary_messages.h"
#include "protocol/vocabulary_digest.h"

namespace pplda::simulation {
namespace {

// Every compute party in this process, each with its DpVocabularyParty and
// its own sources (which live as long as its party object: its encryptor
// keeps a reference to the encryption source), and the data holders
// outside the committee with their DpVocabularyHolder. What goes between
// the members, and between members and holders (the digests, the holders'
// contribution digests, the selections), is handed over here, never
// through the driver.
class InProcessVocabularyParties : public coordinator::VocabularyPartyGroup {
 public:
  static absl::StatusOr<std::unique_ptr<InProcessVocabularyParties>> Create(
      const std::vector<lda::Corpus>& corpora, const std::vector<lda::Corpus>& holder_corpora,
      const lda::Vocabulary& candidates, const privacy::CandidateUnionPlan& plan,
      const crypto::DealtKey& key, const party::ConsortiumRngFactory& rng_factory,
      const std::string& run_id, ThreadPool* pool) {
    auto group = std::unique_ptr<InProcessVocabularyParties>(
        new InProcessVocabularyParties(corpora, holder_corpora, candidates, plan, key, pool));
    for (int p = 0; p < key.public_key->num_parties(); ++p) {
      group->encryption_rngs_.push_back(
          rng_factory(p, party::PartyRandomSource::kVocabularyEncryptor));
      group->noise_rngs_.push_back(rng_factory(p, party::PartyRandomSource::kVocabularyNoise));
      group->proof_rngs_.push_back(rng_factory(p, party::PartyRandomSource::kVocabularyProofs));
      ASSIGN_OR_RETURN(std::unique_ptr<party::DpVocabularyParty> party,
                       party::DpVocabularyParty::Create(run_id, p, plan, key.shares[p],
                                                        *group->encryption_rngs_[p], pool));
      group->parties_.push_back(std::move(party));
    }
    const int n = key.public_key->num_parties();
    for (size_t h = 0; h < holder_corpora.size(); ++h) {
      const int owner = n + static_cast<int>(h);
      group->encryption_rngs_.push_back(
          rng_factory(owner, party::PartyRandomSource::kVocabularyEncryptor));
      ASSIGN_OR_RETURN(std::unique_ptr<party::DpVocabularyHolder> holder,
                       party::DpVocabularyHolder::Create(run_id, owner, plan, key.public_key,
                                                         *group->encryption_rngs_.back(), pool));
      group->holders_.push_back(std::move(holder));
    }
    return group;
  }

  int num_parties() const override { return static_cast<int>(parties_.size()); }
  int num_holders() const override { return static_cast<int>(holders_.size()); }
  std::string PartyName(int party) const override {
    return party < num_parties() ? absl::StrCat("party ", party)
                                 : absl::StrCat("data holder ", party - num_parties());
  }

  absl::StatusOr<std::vector<protocol::VocabularyContribution>> Contribute() override {
    std::vector<protocol::VocabularyContribution> contributions;
    for (int p = 0; p < num_parties(); ++p) {
      ASSIGN_OR_RETURN(protocol::VocabularyContribution c,
                       parties_[p]->Contribute(corpora_[p], candidates_, *noise_rngs_[p]));
      contributions.push_back(std::move(c));
    }
    holder_digests_.clear();
    for (int h = 0; h < num_holders(); ++h) {
      ASSIGN_OR_RETURN(protocol::VocabularyContribution c,
                       holders_[h]->Contribute(holder_corpora_[h], candidates_));
      holder_digests_.push_back(holders_[h]->contribution_digest());
      contributions.push_back(std::move(c));
    }
    return contributions;
  }

  absl::StatusOr<std::vector<crypto::PartialDecryptionBatch>> SumAndDecrypt(
      const std::vector<protocol::VocabularyContribution>& contributions, int decryptors) override {
    std::vector<protocol::CountsDigest> digests;
    for (int p = 0; p < num_parties(); ++p) {
      absl::StatusOr<protocol::CountsDigest> d =
          parties_[p]->AcceptContributions(contributions, holder_digests_);
      if (!d.ok()) return Named(p, d.status());
      digests.push_back(*d);
    }
    for (int p = 0; p < num_parties(); ++p) {
      if (absl::Status confirmed = parties_[p]->ConfirmDigests(digests); !confirmed.ok()) {
        return Named(p, confirmed);
      }
    }
    std::vector<crypto::PartialDecryptionBatch> batches;
    for (int p = 0; p < decryptors; ++p) {
      ASSIGN_OR_RETURN(crypto::PartialDecryptionBatch b,
                       parties_[p]->Decrypt(digests[p], *proof_rngs_[p]));
      batches.push_back(std::move(b));
    }
    return batches;
  }

  // Each party decodes the verified partial decryptions against its own sum
  // and selects; its token total is over the selected candidates (the
  // caller caps the documents afterwards).
  absl::StatusOr<std::vector<coordinator::VocabularySelection>> Select(
      const std::vector<crypto::PartialDecryptionBatch>& partials) override {
    ASSIGN_OR_RETURN(crypto::PackingLayout layout,
                     protocol::VocabularyPackingLayout(plan_, key_.public_key->paillier()));
    std::vector<coordinator::VocabularySelection> selections;
    std::vector<std::vector<lda::TermId>> by_member;
    for (int p = 0; p < num_parties(); ++p) {
      ASSIGN_OR_RETURN(std::vector<int64_t> noisy, protocol::DecodeNoisyCandidateCounts(
                                                       key_.public_key, layout, parties_[p]->sum(),
                                                       partials, plan_.candidates, pool_));
      ASSIGN_OR_RETURN(std::vector<lda::TermId> selected, privacy::SelectCandidates(plan_, noisy));
      selections.push_back(Selection(corpora_[p], selected));
      by_member.push_back(std::move(selected));
    }
    // Each data holder takes what every member selected.
    for (int h = 0; h < num_holders(); ++h) {
      absl::StatusOr<std::vector<lda::TermId>> selected = holders_[h]->AcceptSelection(by_member);
      if (!selected.ok()) return Named(num_parties() + h, selected.status());
      selections.push_back(Selection(holder_corpora_[h], *selected));
    }
    return selections;
  }

 private:
  InProcessVocabularyParties(const std::vector<lda::Corpus>& corpora,
                             const std::vector<lda::Corpus>& holder_corpora,
                             const lda::Vocabulary& candidates,
                             const privacy::CandidateUnionPlan& plan, const crypto::DealtKey& key,
                             ThreadPool* pool)
      : corpora_(corpora),
        holder_corpora_(holder_corpora),
        candidates_(candidates),
        plan_(plan),
        key_(key),
        pool_(pool) {}

  absl::Status Named(int party, const absl::Status& status) const {
    return absl::Status(status.code(), absl::StrCat(PartyName(party), ": ", status.message()));
  }
  // An owner's answer to Select: the vocabulary's SHA-256 and size, its
  // token total over it (the caller caps the documents afterwards).
  coordinator::VocabularySelection Selection(const lda::Corpus& corpus,
                                             const std::vector<lda::TermId>& selected) const {
    lda::Vocabulary vocabulary;
    for (lda::TermId u : selected) vocabulary.Add(candidates_.term(u));
    return {protocol::VocabularySha256(vocabulary), static_cast<uint64_t>(vocabulary.size()),
            TokensOver(corpus, selected)};
  }
  static int64_t TokensOver(const lda::Corpus& corpus, const std::vector<lda::TermId>& selected) {
    int64_t tokens = 0;
    for (const lda::Document& d : corpus.documents) {
      for (lda::TermId t : d.tokens) {
        tokens += std::binary_search(selected.begin(), selected.end(), t) ? 1 : 0;
      }
    }
    return tokens;
  }

  const std::vector<lda::Corpus>& corpora_;
  const std::vector<lda::Corpus>& holder_corpora_;
  const lda::Vocabulary& candidates_;
  const privacy::CandidateUnionPlan& plan_;
  const crypto::DealtKey& key_;
  ThreadPool* pool_;
  std::vector<std::unique_ptr<crypto::SecureRng>> encryption_rngs_, noise_rngs_, proof_rngs_;
  std::vector<std::unique_ptr<party::DpVocabularyParty>> parties_;
  std::vector<std::unique_ptr<party::DpVocabularyHolder>> holders_;
  std::vector<protocol::CountsDigest> holder_digests_;  // by holder, from Contribute
};

}  // namespace

absl::StatusOr<SecureVocabularyResult> RunSecureDpVocabulary(
    const std::vector<lda::Corpus>& corpora, const lda::Vocabulary& candidates,
    const crypto::DealtKey& key, const party::ConsortiumRngFactory& rng_factory,
    const SecureVocabularyOptions& options, const std::vector<lda::Corpus>& holder_corpora) {
  const int n = key.public_key->num_parties();
  if (static_cast<int>(corpora.size()) != n || static_cast<int>(key.shares.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat("the DP vocabulary has ", corpora.size(),
                                                   " parties' documents for a key of ", n,
                                                   " parties"));
  }
  privacy::CandidateUnionOptions union_options;
  union_options.epsilon = options.epsilon;
  union_options.delta = options.delta;
  union_options.max_terms_per_document = options.max_terms_per_document;
  union_options.parties = n;
  union_options.coalition = protocol::MpcThreshold(n);
  union_options.holders = static_cast<int>(holder_corpora.size());
  union_options.threshold = options.threshold;
  SecureVocabularyResult result;
  ASSIGN_OR_RETURN(result.plan, privacy::PlanCandidateUnion(union_options, candidates.size()));
  // Debit first: a refused release is never computed.
  ASSIGN_OR_RETURN(result.accountant,
                   privacy::PrivacyAccountant::WithBudget(options.epsilon, options.delta));
  RETURN_IF_ERROR(result.accountant.Record(result.plan.TruncationRelease()));
  RETURN_IF_ERROR(result.accountant.Record(result.plan.Release()));
  ThreadPool pool(options.threads);
  ASSIGN_OR_RETURN(
      std::unique_ptr<InProcessVocabularyParties> parties,
      InProcessVocabularyParties::Create(corpora, holder_corpora, candidates, result.plan, key,
                                         rng_factory, options.run_id, &pool));
  ASSIGN_OR_RETURN(
      coordinator::DrivenDpVocabulary driven,
      coordinator::DriveDpVocabulary(*parties, result.plan, candidates, key.public_key, &pool));
  result.selected = std::move(driven.selected);
  result.vocabulary = std::move(driven.vocabulary);
  result.noisy_counts = std::move(driven.noisy_counts);
  // What a decrypting party sends: its contribution and its partial
  // decryptions with proofs.
  result.bytes_sent_per_party = driven.contribution_bytes + driven.partial_bytes;
  result.coordinator_bytes = driven.coordinator_bytes;
  result.seconds = driven.seconds;
  return result;
}

absl::StatusOr<SecureVocabularyResult> RunSecureDpVocabularyOnDocuments(
    const std::vector<lda::RawCorpus>& raws, const lda::PreprocessOptions& preprocess,
    const lda::Vocabulary& candidates, const crypto::DealtKey& key,
    const party::ConsortiumRngFactory& rng_factory, const SecureVocabularyOptions& options) {
  std::vector<lda::Corpus> corpora;
  for (const lda::RawCorpus& raw : raws) {
    ASSIGN_OR_RETURN(lda::Corpus c, lda::MapToVocabulary(raw, candidates, preprocess, nullptr));
    corpora.push_back(std::move(c));
  }
  // With a committee, every document holder is a data holder outside it.
  std::vector<lda::Corpus> holders;
  if (options.committee > 0) holders = std::exchange(corpora, {});
  while (static_cast<int>(corpora.size()) < key.public_key->num_parties()) {
    corpora.emplace_back().vocabulary = candidates;
  }
  return RunSecureDpVocabulary(corpora, candidates, key, rng_factory, options, holders);
}

}  // namespace pplda::simulation

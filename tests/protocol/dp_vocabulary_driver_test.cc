// DriveDpVocabulary (coordinator/dp_vocabulary_driver.h), the one schedule
// of the secure DP vocabulary, over a party group whose answers a test can
// tamper with: the coordinator selects from the partial decryptions it
// verified against its own sum, and refuses a party that selected another
// vocabulary, a corrupted partial decryption, or a wrong number of answers.
#include <memory>
#include <string>
#include <vector>

#include "coordinator/dp_vocabulary_driver.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "party/dp_vocabulary_party.h"
#include "protocol/dp_vocabulary_messages.h"
#include "protocol/vocabulary_digest.h"

namespace pplda::coordinator {
namespace {

using ::testing::HasSubstr;

// Three parties: "common" and "theirs" in every document of parties 0 and
// 1, party 2 a data-less helper.
std::vector<lda::Corpus> Corpora(const lda::Vocabulary& candidates) {
  std::vector<lda::Corpus> out(3);
  for (int p = 0; p < 3; ++p) out[p].vocabulary = candidates;
  for (int p = 0; p < 2; ++p) {
    for (int d = 0; d < 200; ++d) out[p].documents.push_back(lda::Document{"d", {0, 1}});
  }
  return out;
}

// Real DpVocabularyParty objects, answers passed through `tamper_*` hooks.
class TamperedParties : public VocabularyPartyGroup {
 public:
  TamperedParties() {
    candidates_ = *lda::Vocabulary::FromTerms({"common", "theirs", "rare", "unused"});
    corpora_ = Corpora(candidates_);
    privacy::CandidateUnionOptions o;
    o.max_terms_per_document = 2;
    plan_ = *privacy::PlanCandidateUnion(o, candidates_.size());
    for (int p = 0; p < 3; ++p) {
      rngs_.push_back(std::make_unique<crypto::SeededRng>(70 + p));
      parties_.push_back(
          *party::DpVocabularyParty::Create("run", p, plan_, key_.shares[p], *rngs_[p], nullptr));
    }
  }

  int num_parties() const override { return 3; }
  std::string PartyName(int party) const override { return "party-" + std::to_string(party); }
  absl::StatusOr<std::vector<protocol::VocabularyContribution>> Contribute() override {
    std::vector<protocol::VocabularyContribution> out;
    for (int p = 0; p < 3; ++p) {
      out.push_back(*parties_[p]->Contribute(corpora_[p], candidates_, *rngs_[p]));
    }
    if (drop_contribution) out.pop_back();
    return out;
  }
  absl::StatusOr<std::vector<crypto::PartialDecryptionBatch>> SumAndDecrypt(
      const std::vector<protocol::VocabularyContribution>& contributions,
      int decryptors) override {
    std::vector<protocol::CountsDigest> digests;
    for (int p = 0; p < 3; ++p) digests.push_back(*parties_[p]->AcceptContributions(contributions));
    for (int p = 0; p < 3; ++p) EXPECT_TRUE(parties_[p]->ConfirmDigests(digests).ok());
    std::vector<crypto::PartialDecryptionBatch> batches;
    for (int p = 0; p < decryptors; ++p) {
      batches.push_back(*parties_[p]->Decrypt(digests[p], *rngs_[p]));
    }
    if (corrupt_partial) batches[1].values[0] += 1;
    return batches;
  }
  absl::StatusOr<std::vector<VocabularySelection>> Select(
      const std::vector<crypto::PartialDecryptionBatch>& partials) override {
    // Each party decodes against its own sum and selects, as a party does.
    selected_partials = partials.size();
    auto layout = protocol::VocabularyPackingLayout(plan_, key_.public_key->paillier());
    std::vector<VocabularySelection> out;
    for (int p = 0; p < 3; ++p) {
      auto noisy = protocol::DecodeNoisyCandidateCounts(key_.public_key, *layout,
                                                        parties_[p]->sum(), partials,
                                                        plan_.candidates, nullptr);
      if (!noisy.ok()) return noisy.status();
      auto selected = privacy::SelectCandidates(plan_, *noisy);
      if (!selected.ok()) return selected.status();
      lda::Vocabulary vocabulary;
      for (lda::TermId u : *selected) vocabulary.Add(candidates_.term(u));
      out.push_back({protocol::VocabularySha256(vocabulary),
                     static_cast<uint64_t>(vocabulary.size()), 400});
    }
    if (other_selection) out[2].vocabulary_sha256 = std::string(64, '0');
    return out;
  }

  bool drop_contribution = false, corrupt_partial = false, other_selection = false;
  size_t selected_partials = 0;
  crypto::DealtKey key_ = *crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2, 5);
  lda::Vocabulary candidates_;
  std::vector<lda::Corpus> corpora_;
  privacy::CandidateUnionPlan plan_;
  std::vector<std::unique_ptr<crypto::SecureRng>> rngs_;
  std::vector<std::unique_ptr<party::DpVocabularyParty>> parties_;
};

absl::StatusOr<DrivenDpVocabulary> Drive(TamperedParties& parties) {
  return DriveDpVocabulary(parties, parties.plan_, parties.candidates_, parties.key_.public_key,
                           nullptr);
}

TEST(DpVocabularyDriverTest, SelectsFromTheVerifiedDecryptionAndChecksEveryPartysSelection) {
  TamperedParties parties;
  absl::StatusOr<DrivenDpVocabulary> driven = Drive(parties);
  ASSERT_TRUE(driven.ok()) << driven.status();
  // The selection is the mechanism's on the counts the coordinator decoded;
  // "common" and "theirs" (400 documents each) are far above the threshold.
  EXPECT_EQ(driven->selected, *privacy::SelectCandidates(parties.plan_, driven->noisy_counts));
  ASSERT_GE(driven->selected.size(), 2u);
  EXPECT_EQ(driven->selected[0], 0);
  EXPECT_EQ(driven->selected[1], 1);
  EXPECT_EQ(driven->vocabulary.size(), driven->selected.size());
  EXPECT_EQ(driven->vocabulary.term(0), "common");
  EXPECT_EQ(driven->tokens, (std::vector<int64_t>{400, 400, 400}));
  // The key's threshold of parties decrypted, and only they were handed on.
  EXPECT_EQ(parties.selected_partials, 2u);
  EXPECT_GT(driven->coordinator_bytes, 0u);
  EXPECT_GT(driven->contribution_bytes, 0u);
  EXPECT_GT(driven->partial_bytes, 0u);
}

TEST(DpVocabularyDriverTest, RefusesAPartyThatSelectedAnotherVocabulary) {
  TamperedParties parties;
  parties.other_selection = true;
  absl::StatusOr<DrivenDpVocabulary> driven = Drive(parties);
  EXPECT_EQ(driven.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(driven.status().message(), HasSubstr("party-2: selected a vocabulary"));
}

TEST(DpVocabularyDriverTest, RefusesACorruptedPartialDecryptionBeforeSelecting) {
  TamperedParties parties;
  parties.corrupt_partial = true;
  absl::StatusOr<DrivenDpVocabulary> driven = Drive(parties);
  EXPECT_EQ(driven.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(driven.status().message(), HasSubstr("decryption share from party 1"));
  EXPECT_EQ(parties.selected_partials, 0u);  // Select never reached
}

TEST(DpVocabularyDriverTest, RefusesAMissingContribution) {
  TamperedParties parties;
  parties.drop_contribution = true;
  EXPECT_EQ(Drive(parties).status().code(), absl::StatusCode::kInternal);
}

}  // namespace
}  // namespace pplda::coordinator

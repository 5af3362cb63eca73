// The secure DP vocabulary (party/dp_vocabulary_party.h,
// simulation/secure_vocabulary.h): with seeded sources the decrypted release
// equals, exactly, the parties' histograms plus the shares their noise
// sources give, and the selection is the plaintext twin's; every message a
// party is handed is checked.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "party/dp_vocabulary_holder.h"
#include "party/dp_vocabulary_party.h"
#include "simulation/secure_vocabulary.h"

namespace pplda {
namespace {

using ::testing::HasSubstr;

party::ConsortiumRngFactory Rngs(uint64_t seed) {
  return [seed](int p, party::PartyRandomSource s) -> std::unique_ptr<crypto::SecureRng> {
    return std::make_unique<crypto::SeededRng>(seed * 1000 + 100 * p + static_cast<int>(s));
  };
}

// Party p's documents: candidate "common" in every document, "p<p>" in
// party p's, and a rare term in one document only.
std::vector<lda::Corpus> Corpora(int docs_per_party) {
  std::vector<lda::Corpus> out(3);
  for (int p = 0; p < 2; ++p) {  // party 2 is a data-less helper
    lda::Corpus& c = out[p];
    c.vocabulary = *lda::Vocabulary::FromTerms({"common", "p" + std::to_string(p), "rare", "zzz"});
    for (int d = 0; d < docs_per_party; ++d) {
      lda::Document doc{"d" + std::to_string(d), {0, 0, 1, 3}};
      if (d == 0 && p == 0) doc.tokens.push_back(2);
      c.documents.push_back(doc);
    }
  }
  return out;
}

lda::Vocabulary Candidates() {
  std::vector<std::string> terms = {"common", "p0", "p1", "rare"};
  for (int i = 0; i < 200; ++i) terms.push_back("unused" + std::to_string(1000 + i));
  return *lda::Vocabulary::FromTerms(terms);
}

struct Fixture {
  crypto::DealtKey key = *crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2, 3);
  lda::Vocabulary candidates = Candidates();
  std::vector<lda::Corpus> corpora = Corpora(300);
};

TEST(SecureDpVocabularyTest, ReleaseIsTheHistogramsPlusEveryPartysNoiseExactly) {
  Fixture f;
  simulation::SecureVocabularyOptions o;
  o.epsilon = 2;
  o.max_terms_per_document = 3;
  auto r = simulation::RunSecureDpVocabulary(f.corpora, f.candidates, f.key, Rngs(7), o);
  ASSERT_TRUE(r.ok()) << r.status();
  // The twin: the same histograms and the shares each party's noise source gives.
  std::vector<int64_t> expected(f.candidates.size(), 0);
  for (int p = 0; p < 3; ++p) {
    const std::vector<int64_t> h =
        privacy::CandidateHistogram(f.corpora[p], f.candidates, o.max_terms_per_document);
    auto noise_rng = Rngs(7)(p, party::PartyRandomSource::kVocabularyNoise);
    auto z = privacy::CandidateNoiseShares(r->plan, *noise_rng);
    ASSERT_TRUE(z.ok());
    for (size_t u = 0; u < expected.size(); ++u) expected[u] += h[u] + (*z)[u];
  }
  EXPECT_EQ(r->noisy_counts, expected);
  EXPECT_EQ(r->selected, *privacy::SelectCandidates(r->plan, expected));
  // 600 documents hold "common", 300 each "p0" and "p1": far above the
  // threshold; "rare" (one document) is far below it.
  EXPECT_LT(r->plan.threshold, 300);
  EXPECT_GT(r->plan.threshold, 1 + 5 * std::sqrt(3 * r->plan.noise.share_variance.get_d()) / 2);
  EXPECT_EQ(r->vocabulary.terms(), (std::vector<std::string>{"common", "p0", "p1"}));
  // The accountant holds the truncation and the release, within (2, 1e-5).
  EXPECT_LE(r->accountant.epsilon(), 2.0);
  EXPECT_EQ(r->accountant.releases().size(), 2u);
  EXPECT_EQ(r->rounds, 3);
  EXPECT_GT(r->bytes_sent_per_party, 0u);
}

// With data holders outside the committee: the committee of three holds
// no documents, the three corpora are data holders' (owners 3, 4, 5). The
// release is exactly the holders' histograms plus the members' noise (the
// holders add none), and the holders take the members' selection.
TEST(SecureDpVocabularyTest, WithDataHoldersTheReleaseIsTheirHistogramsPlusTheMembersNoise) {
  Fixture f;
  simulation::SecureVocabularyOptions o;
  o.epsilon = 2;
  o.max_terms_per_document = 3;
  std::vector<lda::Corpus> members(3);
  for (lda::Corpus& c : members) c.vocabulary = f.candidates;
  auto r = simulation::RunSecureDpVocabulary(members, f.candidates, f.key, Rngs(7), o, f.corpora);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->plan.options.holders, 3);
  EXPECT_EQ(r->plan.options.parties, 3);
  std::vector<int64_t> expected(f.candidates.size(), 0);
  for (int h = 0; h < 3; ++h) {
    const std::vector<int64_t> histogram =
        privacy::CandidateHistogram(f.corpora[h], f.candidates, o.max_terms_per_document);
    for (size_t u = 0; u < expected.size(); ++u) expected[u] += histogram[u];
  }
  for (int p = 0; p < 3; ++p) {
    auto noise_rng = Rngs(7)(p, party::PartyRandomSource::kVocabularyNoise);
    auto z = privacy::CandidateNoiseShares(r->plan, *noise_rng);
    ASSERT_TRUE(z.ok());
    for (size_t u = 0; u < expected.size(); ++u) expected[u] += (*z)[u];
  }
  EXPECT_EQ(r->noisy_counts, expected);
  EXPECT_EQ(r->vocabulary.terms(), (std::vector<std::string>{"common", "p0", "p1"}));
  EXPECT_EQ(r->plan.Describe()["data_holders_outside_committee"], 3);
}

// A member sums a data holder's contribution only as the holder's own
// digest (over its link) says: a coordinator that swaps two holders'
// contributions, or hands one holder's twice, is refused naming the holder.
TEST(SecureDpVocabularyTest, AMemberRefusesAHolderContributionTheHolderDidNotSend) {
  Fixture f;
  privacy::CandidateUnionOptions o;
  o.max_terms_per_document = 3;
  o.holders = 2;
  const privacy::CandidateUnionPlan plan = *privacy::PlanCandidateUnion(o, f.candidates.size());
  std::vector<std::unique_ptr<crypto::SecureRng>> rngs;
  std::vector<std::unique_ptr<party::DpVocabularyParty>> members;
  std::vector<protocol::VocabularyContribution> contributions;
  lda::Corpus empty;
  empty.vocabulary = f.candidates;
  for (int p = 0; p < 3; ++p) {
    rngs.push_back(std::make_unique<crypto::SeededRng>(40 + p));
    members.push_back(
        *party::DpVocabularyParty::Create("run", p, plan, f.key.shares[p], *rngs.back(), nullptr));
    contributions.push_back(*members.back()->Contribute(empty, f.candidates, *rngs.back()));
  }
  std::vector<protocol::CountsDigest> digests;
  for (int h = 0; h < 2; ++h) {
    rngs.push_back(std::make_unique<crypto::SeededRng>(60 + h));
    auto holder = party::DpVocabularyHolder::Create("run", 3 + h, plan, f.key.public_key,
                                                    *rngs.back(), nullptr);
    ASSERT_TRUE(holder.ok()) << holder.status();
    auto c = (*holder)->Contribute(f.corpora[h], f.candidates);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->party, 3 + h);
    digests.push_back((*holder)->contribution_digest());
    contributions.push_back(*c);
    // A second contribution is refused.
    EXPECT_EQ((*holder)->Contribute(f.corpora[h], f.candidates).status().code(),
              absl::StatusCode::kFailedPrecondition);
  }
  std::vector<protocol::VocabularyContribution> swapped = contributions;
  std::swap(swapped[3].counts, swapped[4].counts);
  auto refused = members[0]->AcceptContributions(swapped, digests);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition) << refused.status();
  EXPECT_THAT(refused.status().message(), HasSubstr("data holder 0's is not the one it sent"));
  std::vector<protocol::VocabularyContribution> twice = contributions;
  twice[4].counts = twice[3].counts;
  auto doubled = members[1]->AcceptContributions(twice, digests);
  EXPECT_THAT(doubled.status().message(), HasSubstr("data holder 1's is not the one it sent"));
  // Without the holders' digests the member refuses too.
  EXPECT_EQ(members[2]->AcceptContributions(contributions).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(members[2]->AcceptContributions(contributions, digests).ok());
  // A holder index outside the plan's holders is refused at creation.
  crypto::SeededRng rng(1);
  EXPECT_EQ(party::DpVocabularyHolder::Create("run", 2, plan, f.key.public_key, rng, nullptr)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(party::DpVocabularyHolder::Create("run", 5, plan, f.key.public_key, rng, nullptr)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

// A data holder takes the selection only when every member sent the same
// ascending candidate ids, and once.
TEST(SecureDpVocabularyTest, AHolderTakesTheSelectionOnlyWhenTheMembersAgree) {
  Fixture f;
  privacy::CandidateUnionOptions o;
  o.max_terms_per_document = 3;
  o.holders = 1;
  const privacy::CandidateUnionPlan plan = *privacy::PlanCandidateUnion(o, f.candidates.size());
  crypto::SeededRng rng(5);
  auto holder = *party::DpVocabularyHolder::Create("run", 3, plan, f.key.public_key, rng, nullptr);
  const std::vector<lda::TermId> selection = {0, 1, 2};
  EXPECT_EQ(holder->AcceptSelection({selection, selection, selection}).status().code(),
            absl::StatusCode::kFailedPrecondition);  // before its contribution
  ASSERT_TRUE(holder->Contribute(f.corpora[0], f.candidates).ok());
  auto differ = holder->AcceptSelection({selection, {0, 1}, selection});
  EXPECT_EQ(differ.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(differ.status().message(), HasSubstr("committee member 1"));
  EXPECT_EQ(holder->AcceptSelection({{1, 0}, {1, 0}, {1, 0}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(holder->AcceptSelection({selection, selection}).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto taken = holder->AcceptSelection({selection, selection, selection});
  ASSERT_TRUE(taken.ok()) << taken.status();
  EXPECT_EQ(*taken, selection);
  EXPECT_EQ(holder->AcceptSelection({selection, selection, selection}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  // The selection's wire form round-trips; a ragged one is refused.
  EXPECT_EQ(*protocol::DecodeSelection(protocol::EncodeSelection(selection)), selection);
  EXPECT_EQ(protocol::DecodeSelection({1, 2, 3}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// A party's three steps, with the messages it is handed tampered with.
class DpVocabularyPartyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    privacy::CandidateUnionOptions o;
    o.max_terms_per_document = 3;
    plan_ = *privacy::PlanCandidateUnion(o, f_.candidates.size());
    for (int p = 0; p < 3; ++p) {
      rngs_.push_back(std::make_unique<crypto::SeededRng>(40 + p));
      auto party = party::DpVocabularyParty::Create("run", p, plan_, f_.key.shares[p],
                                                    *rngs_.back(), nullptr);
      ASSERT_TRUE(party.ok()) << party.status();
      parties_.push_back(std::move(*party));
      auto c = parties_.back()->Contribute(f_.corpora[p], f_.candidates, *rngs_.back());
      ASSERT_TRUE(c.ok()) << c.status();
      contributions_.push_back(*c);
    }
  }
  Fixture f_;
  privacy::CandidateUnionPlan plan_;
  std::vector<std::unique_ptr<crypto::SecureRng>> rngs_;
  std::vector<std::unique_ptr<party::DpVocabularyParty>> parties_;
  std::vector<protocol::VocabularyContribution> contributions_;
};

TEST_F(DpVocabularyPartyTest, RefusesMissingRepeatedForeignAndMalformedContributions) {
  auto missing = contributions_;
  missing.pop_back();
  EXPECT_THAT(parties_[0]->AcceptContributions(missing).status().message(),
              HasSubstr("no contribution from party 2"));
  auto repeated = contributions_;
  repeated[2] = repeated[1];
  EXPECT_THAT(parties_[0]->AcceptContributions(repeated).status().message(),
              HasSubstr("party 1 given twice"));
  auto foreign = contributions_;
  foreign[1].run_id = "other";
  EXPECT_THAT(parties_[0]->AcceptContributions(foreign).status().message(),
              HasSubstr("contribution of party 1 is for run 'other'"));
  auto short_one = contributions_;
  short_one[2].counts.pop_back();
  EXPECT_THAT(parties_[0]->AcceptContributions(short_one).status().message(),
              HasSubstr("contribution of party 2"));
  auto not_ciphertext = contributions_;
  not_ciphertext[1].counts[0].value = 0;
  EXPECT_EQ(parties_[0]->AcceptContributions(not_ciphertext).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto outsider = contributions_;
  outsider[2].party = 5;
  EXPECT_THAT(parties_[0]->AcceptContributions(outsider).status().message(),
              HasSubstr("not a compute party"));
  // The coordinator substitutes party 0's own contribution.
  auto substituted = contributions_;
  substituted[0].counts = contributions_[1].counts;
  auto refused = parties_[0]->AcceptContributions(substituted);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(refused.status().message(), HasSubstr("not the one it sent"));
}

TEST_F(DpVocabularyPartyTest, DecryptsOnlyItsOwnSumAndVerifiesEveryShare) {
  crypto::SeededRng proofs(9);
  protocol::CountsDigest wrong{};
  EXPECT_EQ(parties_[0]->Decrypt(wrong, proofs).status().code(),
            absl::StatusCode::kFailedPrecondition);  // before summing
  std::vector<protocol::CountsDigest> digests;
  for (auto& p : parties_) digests.push_back(*p->AcceptContributions(contributions_));
  EXPECT_EQ(digests[0], digests[1]);
  EXPECT_EQ(digests[0], digests[2]);
  EXPECT_THAT(parties_[1]->Decrypt(digests[0], proofs).status().message(),
              HasSubstr("before every party confirmed"));
  for (auto& p : parties_) ASSERT_TRUE(p->ConfirmDigests(digests).ok());
  auto refused = parties_[1]->Decrypt(wrong, proofs);
  EXPECT_THAT(refused.status().message(), HasSubstr("refusing to decrypt"));
  std::vector<crypto::PartialDecryptionBatch> batches;
  for (auto& p : parties_) batches.push_back(*p->Decrypt(digests[0], proofs));
  auto layout = protocol::VocabularyPackingLayout(plan_, f_.key.public_key->paillier());
  ASSERT_TRUE(layout.ok());
  auto counts = protocol::DecodeNoisyCandidateCounts(f_.key.public_key, *layout, parties_[0]->sum(),
                                                     batches, plan_.candidates, nullptr);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->size(), static_cast<size_t>(plan_.candidates));
  // One share is too few for a 2-of-3 key; a corrupted share is named.
  EXPECT_EQ(protocol::DecodeNoisyCandidateCounts(f_.key.public_key, *layout, parties_[0]->sum(),
                                                 {batches[0]}, plan_.candidates, nullptr)
                .status()
                .code(),
            absl::StatusCode::kFailedPrecondition);
  batches[1].values[0] += 1;
  EXPECT_THAT(protocol::DecodeNoisyCandidateCounts(f_.key.public_key, *layout, parties_[0]->sum(),
                                                   batches, plan_.candidates, nullptr)
                  .status()
                  .message(),
              HasSubstr("decryption share from party 1"));
}

// The untrusted coordinator hands parties different lists whose products are
// the same, party 1's contribution alone ({c_0, c_1, c_0^-1} to party 0 and
// {1, c_1, 1} to party 1): both sums would decrypt h_1 + Z_1, one party's
// counts under one noise share. The list digests differ, so neither party
// confirms, and neither decrypts.
TEST_F(DpVocabularyPartyTest, ListsWithTheSameProductButDifferentEntriesAreNotConfirmed) {
  const mpz_class& n2 = f_.key.public_key->n_squared();
  auto to_party0 = contributions_;
  for (size_t j = 0; j < to_party0[2].counts.size(); ++j) {
    mpz_class inverse;
    ASSERT_NE(mpz_invert(inverse.get_mpz_t(), contributions_[0].counts[j].value.get_mpz_t(),
                         n2.get_mpz_t()),
              0);
    to_party0[2].counts[j].value = inverse;
  }
  auto to_party1 = contributions_;
  for (int p : {0, 2}) {
    for (auto& c : to_party1[p].counts) c.value = 1;
  }
  auto d0 = parties_[0]->AcceptContributions(to_party0);
  auto d1 = parties_[1]->AcceptContributions(to_party1);
  ASSERT_TRUE(d0.ok()) << d0.status();
  ASSERT_TRUE(d1.ok()) << d1.status();
  EXPECT_EQ(parties_[0]->sum(), parties_[1]->sum());  // the same product: the attack
  EXPECT_NE(*d0, *d1);
  auto d2 = parties_[2]->AcceptContributions(contributions_);
  ASSERT_TRUE(d2.ok());
  const std::vector<protocol::CountsDigest> digests = {*d0, *d1, *d2};
  for (int p : {0, 1}) {
    EXPECT_THAT(parties_[p]->ConfirmDigests(digests).message(),
                HasSubstr("was handed other DP vocabulary contributions"));
  }
  crypto::SeededRng proofs(3);
  EXPECT_FALSE(parties_[0]->Decrypt(*d0, proofs).ok());
  EXPECT_FALSE(parties_[1]->Decrypt(*d1, proofs).ok());
}

// Each step runs once: a second contribution would draw fresh noise for the
// same counts.
TEST_F(DpVocabularyPartyTest, EveryStepRunsOnce) {
  crypto::SeededRng again(8);
  EXPECT_THAT(parties_[0]->Contribute(f_.corpora[0], f_.candidates, again).status().message(),
              HasSubstr("already made"));
  ASSERT_TRUE(parties_[0]->AcceptContributions(contributions_).ok());
  EXPECT_THAT(parties_[0]->AcceptContributions(contributions_).status().message(),
              HasSubstr("already summed"));
}

TEST(SecureDpVocabularyTest, RefusesAKeyOfAnotherPartyCount) {
  Fixture f;
  f.corpora.pop_back();
  auto r = simulation::RunSecureDpVocabulary(f.corpora, f.candidates, f.key, Rngs(1), {});
  EXPECT_THAT(r.status().message(), HasSubstr("2 parties' documents for a key of 3"));
}

}  // namespace
}  // namespace pplda

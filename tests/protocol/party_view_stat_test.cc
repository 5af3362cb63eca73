// A party's view of a secure iteration: every message
// party 2 (a data holder that does not decrypt: only the key's threshold
// of parties, 0 and 1, send partial decryptions) receives in one iteration is recorded
// (RecordingTransport, crypto/mpc/mpc_testing.h). The only values that party can
// open beyond its stated outputs are the masked slot values of the
// ciphertext-to-share conversion (it combines its peers' partial
// decryptions); the rest of its view is Shamir shares and the statistically
// masked openings of the MPC primitives, whose views are tested in
// tests/crypto/mpc_view_stat_test.cc, ciphertexts, and the topics of its own
// tokens (a stated output). This test opens every masked conversion slot
// from the recorded partial decryptions and checks by a chi-square test
// (255 degrees of freedom, significance 0.001, fixed seeds) that their low
// 8 bits are uniform, while the same test rejects the unmasked values
// (the control that shows the test can fail).
#include <cmath>

#include "coordinator/lda_coordinator.h"
#include "crypto/mpc/mpc_testing.h"
#include "crypto/paillier/paillier_combiner.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_serialization.h"
#include "crypto/paillier/paillier_testing.h"
#include "gtest/gtest.h"
#include "lda/gibbs_state.h"
#include "party/lda_party.h"
#include "tests/protocol/protocol_test_util.h"

namespace pplda {
namespace {

constexpr double kChiSquare255Critical001 = 330.52;

double LowByteChiSquare(const std::vector<mpz_class>& values) {
  std::vector<double> counts(256, 0);
  for (const mpz_class& v : values) {
    mpz_class r;
    mpz_fdiv_r_2exp(r.get_mpz_t(), v.get_mpz_t(), 8);
    counts[r.get_ui()] += 1;
  }
  const double e = static_cast<double>(values.size()) / 256;
  double chi = 0;
  for (double c : counts) chi += (c - e) * (c - e) / e;
  return chi;
}

TEST(PartyViewTest, OpenedConversionSlotsAreUniformlyMasked) {
  auto slice = protocol_testing::SotuSlice(/*docs_per_party=*/12, /*tokens_per_doc=*/10, 0);
  ASSERT_TRUE(slice.ok()) << slice.status();
  const int n = 3, K = 5;
  auto key = crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, n, 2, 23);
  ASSERT_TRUE(key.ok());
  auto config = crypto::MpcConfig::Create(n, 1);
  ASSERT_TRUE(config.ok());
  auto parties_in = protocol_testing::SplitParties(slice->train, slice->docs_per_party);
  std::vector<int64_t> tokens;
  for (const auto& p : parties_in) {
    int64_t c = 0;
    for (const auto& d : p.documents) c += static_cast<int64_t>(d.size());
    tokens.push_back(c);
  }
  protocol::SecureLdaOptions lda;
  lda.num_topics = K;
  auto plan = protocol::SecureLdaPlan::Create(lda, slice->train.vocabulary.size(), tokens,
                                              key->public_key->paillier(), *config);
  ASSERT_TRUE(plan.ok()) << plan.status();
  auto network = crypto::SimulatedNetwork::Create(n);
  ASSERT_TRUE(network.ok());
  std::vector<std::unique_ptr<crypto::SeededRng>> rngs;
  std::vector<std::unique_ptr<crypto::RecordingTransport>> recorders;
  std::vector<std::unique_ptr<crypto::MpcEngine>> engines;
  std::vector<std::unique_ptr<crypto::PaillierEncryptor>> encryptors;
  std::vector<std::unique_ptr<party::LdaParty>> parties;
  ThreadPool pool(2);
  for (int p = 0; p < n; ++p) {
    rngs.push_back(std::make_unique<crypto::SeededRng>(100 + p));
    rngs.push_back(std::make_unique<crypto::SeededRng>(200 + p));
    rngs.push_back(std::make_unique<crypto::SeededRng>(300 + p));
    recorders.push_back(std::make_unique<crypto::RecordingTransport>((*network)->transport(p)));
    engines.push_back(*crypto::MpcEngine::Create(*config, *recorders[p], *rngs[3 * p]));
    encryptors.push_back(
        *crypto::PaillierEncryptor::Create(key->public_key->paillier(), *rngs[3 * p + 1]));
    lda::Corpus c;
    for (const auto& d : parties_in[p].documents) c.documents.push_back({"d", d});
    parties.push_back(*party::LdaParty::Create(p, "view", *plan, parties_in[p].documents,
                                               lda::GibbsState::RandomTopics(c, K, 7 + p),
                                               key->shares[p], *encryptors[p], *rngs[3 * p + 2],
                                               &pool));
  }
  auto coordinator =
      coordinator::LdaCoordinator::Create("view", *plan, key->public_key, &pool);
  ASSERT_TRUE(coordinator.ok());
  std::vector<protocol::CountUpdate> updates(n);
  for (int p = 0; p < n; ++p) updates[p] = *parties[p]->InitialCounts();
  ASSERT_TRUE((*coordinator)->Fold(updates, 0).ok());
  for (int p = 0; p < n; ++p) ASSERT_TRUE(parties[p]->AcceptUpdates(updates).ok());
  auto counts = (*coordinator)->Counts();
  ASSERT_TRUE(counts.ok());

  const int viewer = 2;
  const uint64_t first_round = engines[viewer]->rounds() + 1;
  recorders[viewer]->set_recording(true);
  ASSERT_TRUE((*network)->RunParties([&](int p) -> absl::Status {
    return parties[p]->RunIteration(*engines[p]).status();
  }).ok());

  // Rounds: first = selection exchange (with the fold digests), +1 conversion masks, +2 partials.
  size_t cts = plan->TotalsCiphertexts();
  for (int p = 0; p < n; ++p) cts += plan->SelectionCiphertexts(plan->tokens_of(p));
  std::vector<crypto::PartialDecryptionBatch> batches;
  for (const auto& m : recorders[viewer]->received()) {
    if (m.round != first_round + 2 || m.payload.empty()) continue;
    pplda::v1::PartialDecryptionBatch proto;
    ASSERT_TRUE(proto.ParseFromArray(m.payload.data(), static_cast<int>(m.payload.size())));
    auto batch = crypto::PartialDecryptionBatchFromProto(*key->public_key, proto, cts);
    ASSERT_TRUE(batch.ok()) << batch.status();
    batches.push_back(*std::move(batch));
  }
  ASSERT_EQ(batches.size(), 2u);  // from parties 0 and 1: enough to decrypt (threshold 2)
  auto opened = crypto::PaillierCombiner(key->public_key).CombineBatch(batches, &pool);
  ASSERT_TRUE(opened.ok()) << opened.status();
  auto slots = plan->layout().UnpackMasked(*opened, cts * plan->layout().slots());
  ASSERT_TRUE(slots.ok()) << slots.status();
  ASSERT_GT(slots->size(), 2000u);
  EXPECT_LT(LowByteChiSquare(*slots), kChiSquare255Critical001);

  // Control: the unmasked slot values of the same conversion (decrypted
  // with the dealer key: the coordinator's totals and the counts the
  // selections hold) are far from uniform in their low bits.
  std::vector<mpz_class> unmasked;
  for (const crypto::Ciphertext& c : counts->matrix) {
    auto m = crypto::DecryptForTest(*key, c);
    ASSERT_TRUE(m.ok());
    auto values = plan->layout().Unpack({*m}, plan->layout().slots());
    ASSERT_TRUE(values.ok());
    unmasked.insert(unmasked.end(), values->begin(), values->end());
  }
  EXPECT_GT(LowByteChiSquare(unmasked), kChiSquare255Critical001);
}

}  // namespace
}  // namespace pplda

// IterationRandomness: a party's streams of an iteration are a function of
// its run key and the iteration only (the same bytes when rebuilt from the
// key, other bytes for another iteration or key), and the engines of an
// iteration built by every party from master keys agreed once share
// consistent pseudo-random keys (a jointly random value opens, and opens to
// the same value when the iteration's engines are built again). The keys'
// byte form round-trips and refuses damaged input.
#include "party/iteration_randomness.h"

#include <array>
#include <memory>
#include <thread>
#include <vector>

#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/simulated_network.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::party {
namespace {

using ::testing::HasSubstr;

std::array<uint8_t, 32> Bytes(crypto::SecureRng& rng) {
  std::array<uint8_t, 32> out;
  rng.Fill(absl::MakeSpan(out));
  return out;
}

TEST(IterationRandomnessTest, StreamsDependOnTheKeyAndTheIterationOnly) {
  crypto::SeededRng seed(1);
  std::unique_ptr<IterationRandomness> a = IterationRandomness::Draw(seed);
  absl::StatusOr<std::unique_ptr<IterationRandomness>> again =
      IterationRandomness::FromKey(a->key_bytes());
  ASSERT_TRUE(again.ok()) << again.status();
  a->BeginIteration(3);
  (*again)->BeginIteration(3);
  const auto noise3 = Bytes(a->noise());
  EXPECT_EQ(noise3, Bytes((*again)->noise()));
  // Rekeying restarts the stream: iteration 3 again gives the same bytes,
  // iteration 4 others.
  a->BeginIteration(3);
  EXPECT_EQ(Bytes(a->noise()), noise3);
  a->BeginIteration(4);
  EXPECT_NE(Bytes(a->noise()), noise3);
  std::unique_ptr<IterationRandomness> other = IterationRandomness::Draw(seed);
  EXPECT_NE(other->key_bytes(), a->key_bytes());
  other->BeginIteration(3);
  EXPECT_NE(Bytes(other->noise()), noise3);
}

TEST(IterationRandomnessTest, RefusesAKeyOfTheWrongSize) {
  for (size_t size : {0, 31, 33}) {
    absl::StatusOr<std::unique_ptr<IterationRandomness>> made =
        IterationRandomness::FromKey(std::string(size, 'k'));
    EXPECT_EQ(made.status().code(), absl::StatusCode::kInvalidArgument) << size;
    EXPECT_THAT(made.status().message(), HasSubstr("expected 32"));
  }
}

TEST(IterationRandomnessTest, SharedKeysRoundTripAndDamageIsRefused) {
  crypto::MpcEngine::SharedKeys keys;
  keys.sets.resize(3);
  keys.outgoing.resize(3);
  keys.incoming.resize(3);
  crypto::SeededRng rng(2);
  for (auto* list : {&keys.sets, &keys.outgoing, &keys.incoming}) {
    for (crypto::PrssKey& k : *list) rng.Fill(absl::MakeSpan(k));
  }
  const std::string bytes = SharedKeysToBytes(keys);
  absl::StatusOr<crypto::MpcEngine::SharedKeys> back = SharedKeysFromBytes(bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->sets, keys.sets);
  EXPECT_EQ(back->outgoing, keys.outgoing);
  EXPECT_EQ(back->incoming, keys.incoming);
  for (const std::string& damaged :
       {bytes.substr(0, bytes.size() - 1), bytes + "x", std::string("\xff\xff\xff\xff", 4),
        std::string()}) {
    EXPECT_EQ(SharedKeysFromBytes(damaged).status().code(), absl::StatusCode::kInvalidArgument)
        << damaged.size() << " bytes";
  }
}

// Three parties agree master keys once; for an iteration, each builds its
// engine and they open a jointly random value (pseudo-random sharing: no
// message but the opening). Consistent derived keys make it open; the same
// iteration's engines built again open the same value, another iteration's
// another value; round numbers continue after the iteration's base.
TEST(IterationRandomnessTest, EnginesOfAnIterationAreRebuiltExactly) {
  constexpr int n = 3;
  absl::StatusOr<crypto::MpcConfig> config = crypto::MpcConfig::Create(n, 1);
  ASSERT_TRUE(config.ok()) << config.status();
  ASSERT_TRUE(config->pseudo_random_sharing());
  absl::StatusOr<std::unique_ptr<crypto::SimulatedNetwork>> network =
      crypto::SimulatedNetwork::Create(n);
  ASSERT_TRUE(network.ok());
  std::vector<std::unique_ptr<IterationRandomness>> parties;
  std::vector<std::unique_ptr<crypto::SeededRng>> seeds;
  for (int p = 0; p < n; ++p) {
    seeds.push_back(std::make_unique<crypto::SeededRng>(100 + p));
    parties.push_back(IterationRandomness::Draw(*seeds.back()));
  }
  ASSERT_TRUE((*network)
                  ->RunParties([&](int p) -> absl::Status {
                    auto engine =
                        crypto::MpcEngine::Create(*config, (*network)->transport(p), *seeds[p]);
                    if (!engine.ok()) return engine.status();
                    absl::StatusOr<crypto::MpcEngine::SharedKeys> keys =
                        (*engine)->AgreeSharedKeys();
                    if (!keys.ok()) return keys.status();
                    parties[p]->set_shared_keys(*std::move(keys));
                    return absl::OkStatus();
                  })
                  .ok());
  auto open_random = [&](int iteration) -> absl::StatusOr<crypto::FieldVector> {
    std::vector<crypto::FieldVector> opened(n);
    absl::Status s = (*network)->RunParties([&](int p) -> absl::Status {
      absl::StatusOr<std::unique_ptr<crypto::MpcEngine>> engine =
          parties[p]->EngineFor(iteration, *config, (*network)->transport(p));
      if (!engine.ok()) return engine.status();
      if ((*engine)->rounds() != RoundsBeforeIteration(iteration)) {
        return absl::InternalError("round numbering");
      }
      absl::StatusOr<crypto::Shares> r = (*engine)->Random(4);
      if (!r.ok()) return r.status();
      absl::StatusOr<crypto::FieldVector> v = (*engine)->Open(*r);
      if (!v.ok()) return v.status();
      opened[p] = *std::move(v);
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    for (int p = 1; p < n; ++p) {
      if (opened[p] != opened[0]) return absl::InternalError("parties opened different values");
    }
    return opened[0];
  };
  absl::StatusOr<crypto::FieldVector> first = open_random(5);
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<crypto::FieldVector> again = open_random(5);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *first);
  absl::StatusOr<crypto::FieldVector> next = open_random(6);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_NE(*next, *first);
}

TEST(IterationRandomnessTest, AnEngineNeedsTheMasterKeys) {
  absl::StatusOr<crypto::MpcConfig> config = crypto::MpcConfig::Create(3, 1);
  ASSERT_TRUE(config.ok());
  absl::StatusOr<std::unique_ptr<crypto::SimulatedNetwork>> network =
      crypto::SimulatedNetwork::Create(3);
  ASSERT_TRUE(network.ok());
  crypto::SeededRng seed(3);
  std::unique_ptr<IterationRandomness> party = IterationRandomness::Draw(seed);
  absl::StatusOr<std::unique_ptr<crypto::MpcEngine>> engine =
      party->EngineFor(1, *config, (*network)->transport(0));
  EXPECT_EQ(engine.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(engine.status().message(), HasSubstr("not agreed"));
}

}  // namespace
}  // namespace pplda::party

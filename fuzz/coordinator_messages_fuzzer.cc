// libFuzzer target: the coordinator's handling of the parties' replies
// (proto/party_control_service.proto), decoded, validated and applied to
// its state machine (coordinator/lda_coordinator.h) in a valid state, as
// the daemon does (coordinator/daemon/remote_party_group.cc).
//
// Fixed set-up (once): a dealt 1024-bit test key of three parties
// (crypto/paillier/paillier_testing.h: public primes, TESTS ONLY), the plan K = 3,
// V = 4, tokens {3, 2, 1}, and an in-process group of the three parties
// with seeded randomness, whose valid initial counts are folded wherever a
// step needs a run in progress.
// Input: a mode byte, then frames (fuzz/fuzz_util.h), one per party:
//   0  PrepareReply  -> CountUpdateFromProto -> Fold(iteration 0), fresh run
//   1  IterateReply  -> CountUpdateFromProto -> Fold(iteration 1) after the
//                       valid initial counts
//   2  PublishReply  -> DecryptionShareFromProto -> Publish after the valid
//                       initial counts
// Any crash, sanitizer report, hang or out-of-memory is a finding; an error
// status is the expected answer. Properties (abort = finding): a fold that
// succeeds advances the run by exactly one iteration; a publication that
// succeeds gives exactly the parties' true counts, whatever the shares said
// (forged partial decryptions must be refused, not combined).
//
// Seeds: PPLDA_FUZZ_WRITE_SEEDS=fuzz/corpus/coordinator_messages
// build-fuzz/fuzz/fuzz_coordinator_messages writes valid replies of every
// mode from the fixed set-up and exits.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "coordinator/lda_coordinator.h"
#include "crypto/paillier/paillier_serialization.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "fuzz/fuzz_util.h"
#include "lda/vocabulary.h"
#include "proto/party_control_service.pb.h"
#include "protocol/wire.h"
#include "simulation/in_process_party_group.h"

namespace pplda::fuzz {
namespace {

constexpr char kRun[] = "fuzz-run";
enum Mode : uint8_t { kPrepare = 0, kIterate = 1, kPublish = 2, kModes = 3 };

struct SetUp {
  crypto::DealtKey key;
  std::unique_ptr<crypto::MpcConfig> config;
  std::unique_ptr<protocol::SecureLdaPlan> plan;
  lda::Vocabulary vocabulary;
  std::vector<protocol::CountUpdate> initial;  // every party's valid initial counts
  std::vector<int64_t> counts;              // the true n_k(t), K x V
};

std::vector<simulation::InProcessPartyInput> Inputs() {
  return {{{{0, 1, 1}}, {{0, 2, 2}}}, {{{3, 1}}, {{1, 2}}}, {{{2}}, {{0}}}};
}

std::unique_ptr<simulation::InProcessPartyGroup> Group(const SetUp& s) {
  auto rngs = [](int party, party::PartyRandomSource source) -> std::unique_ptr<crypto::SecureRng> {
    return std::make_unique<crypto::SeededRng>(500 + 3 * party + static_cast<int>(source));
  };
  absl::StatusOr<std::unique_ptr<simulation::InProcessPartyGroup>> group =
      simulation::InProcessPartyGroup::Create(Inputs(), kRun, *s.plan, *s.config, s.key, rngs,
                                              nullptr);
  Require(group.ok());
  return *std::move(group);
}

std::unique_ptr<coordinator::LdaCoordinator> Coordinator(const SetUp& s, bool initial_folded) {
  absl::StatusOr<std::unique_ptr<coordinator::LdaCoordinator>> c =
      coordinator::LdaCoordinator::Create(kRun, *s.plan, s.key.public_key, nullptr);
  Require(c.ok());
  if (initial_folded) Require((*c)->Fold(s.initial, 0).ok());
  return *std::move(c);
}

const SetUp& Fixed() {
  static const SetUp* set_up = [] {
    auto* s = new SetUp;
    absl::StatusOr<crypto::DealtKey> key =
        crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2, 3);
    Require(key.ok());
    s->key = *std::move(key);
    absl::StatusOr<crypto::MpcConfig> config = crypto::MpcConfig::Create(3, 1);
    Require(config.ok());
    s->config = std::make_unique<crypto::MpcConfig>(*config);
    protocol::SecureLdaOptions o;
    o.num_topics = 3;
    absl::StatusOr<protocol::SecureLdaPlan> plan =
        protocol::SecureLdaPlan::Create(o, 4, {3, 2, 1}, s->key.public_key->paillier(), *s->config);
    Require(plan.ok());
    s->plan = std::make_unique<protocol::SecureLdaPlan>(*std::move(plan));
    absl::StatusOr<lda::Vocabulary> vocabulary = lda::Vocabulary::FromTerms({"a", "b", "c", "d"});
    Require(vocabulary.ok());
    s->vocabulary = *std::move(vocabulary);
    absl::StatusOr<std::vector<protocol::CountUpdate>> initial = Group(*s)->InitialCounts();
    Require(initial.ok());
    s->initial = *std::move(initial);
    s->counts.assign(3 * 4, 0);
    for (const simulation::InProcessPartyInput& in : Inputs()) {
      for (size_t d = 0; d < in.documents.size(); ++d) {
        for (size_t i = 0; i < in.documents[d].size(); ++i) {
          ++s->counts[static_cast<size_t>(in.topics[d][i]) * 4 + in.documents[d][i]];
        }
      }
    }
    return s;
  }();
  return *set_up;
}

void WriteSeeds(const std::filesystem::path& dir) {
  const SetUp& s = Fixed();
  const crypto::ThresholdPublicKey& key = *s.key.public_key;
  std::filesystem::create_directories(dir);
  std::string prepare(1, kPrepare);
  for (const protocol::CountUpdate& u : s.initial) {
    pplda::v1::PrepareReply reply;
    *reply.mutable_initial_counts() = protocol::CountUpdateToProto(key, u);
    AppendFrame(&prepare, reply.SerializeAsString());
  }
  WriteFile(dir / "prepare", prepare);

  std::unique_ptr<simulation::InProcessPartyGroup> iterating = Group(s);
  Require(iterating->InitialCounts().ok());
  absl::StatusOr<coordinator::IterationOutput> first = iterating->Iterate(1, s.initial, {});
  Require(first.ok());
  std::string iterate(1, kIterate);
  for (const protocol::CountUpdate& u : first->updates) {
    pplda::v1::IterateReply reply;
    *reply.mutable_update() = protocol::CountUpdateToProto(key, u);
    AppendFrame(&iterate, reply.SerializeAsString());
  }
  WriteFile(dir / "iterate", iterate);

  std::unique_ptr<simulation::InProcessPartyGroup> publishing = Group(s);
  Require(publishing->InitialCounts().ok());
  absl::StatusOr<std::vector<protocol::DecryptionShare>> shares =
      publishing->Publish(s.initial, Coordinator(s, true)->digest(), 2);
  Require(shares.ok());
  std::string publish(1, kPublish);
  for (const protocol::DecryptionShare& share : *shares) {
    pplda::v1::PublishReply reply;
    *reply.mutable_partials() = crypto::PartialDecryptionBatchToProto(key, share.partials);
    AppendFrame(&publish, reply.SerializeAsString());
  }
  WriteFile(dir / "publish", publish);
  std::exit(0);
}

template <typename Reply>
bool ParseAll(const std::vector<std::string_view>& frames, std::vector<Reply>* replies) {
  for (std::string_view f : frames) {
    Reply r;
    if (!r.ParseFromArray(f.data(), static_cast<int>(f.size()))) return false;
    replies->push_back(std::move(r));
  }
  return true;
}

void Run(Mode mode, std::string_view bytes) {
  const SetUp& s = Fixed();
  const crypto::ThresholdPublicKey& key = *s.key.public_key;
  const std::vector<std::string_view> frames = Frames(bytes);
  switch (mode) {
    case kPrepare:
    case kIterate: {
      std::vector<protocol::CountUpdate> updates;
      if (mode == kPrepare) {
        std::vector<pplda::v1::PrepareReply> replies;
        if (!ParseAll(frames, &replies)) return;
        for (const auto& r : replies) {
          absl::StatusOr<protocol::CountUpdate> u =
              protocol::CountUpdateFromProto(r.initial_counts(), kRun, key, *s.plan);
          Trace("CountUpdateFromProto", u.status());
          if (!u.ok()) return;
          updates.push_back(*std::move(u));
        }
      } else {
        std::vector<pplda::v1::IterateReply> replies;
        if (!ParseAll(frames, &replies)) return;
        for (const auto& r : replies) {
          absl::StatusOr<protocol::CountUpdate> u =
              protocol::CountUpdateFromProto(r.update(), kRun, key, *s.plan);
          Trace("CountUpdateFromProto", u.status());
          if (!u.ok()) return;
          updates.push_back(*std::move(u));
        }
      }
      const int iteration = mode == kPrepare ? 0 : 1;
      std::unique_ptr<coordinator::LdaCoordinator> c = Coordinator(s, mode == kIterate);
      const absl::Status folded = c->Fold(updates, iteration);
      Trace("Fold", folded);
      if (folded.ok()) {
        Require(c->iterations_folded() == iteration);
        Require(c->Counts().ok());
      } else {
        Require(c->iterations_folded() == iteration - 1);  // a failed fold changes nothing
      }
      return;
    }
    default: {
      std::vector<pplda::v1::PublishReply> replies;
      if (!ParseAll(frames, &replies)) return;
      const size_t cts = s.plan->MatrixCiphertexts() + s.plan->TotalsCiphertexts();
      std::vector<protocol::DecryptionShare> shares;
      for (size_t p = 0; p < replies.size(); ++p) {
        absl::StatusOr<protocol::DecryptionShare> share = protocol::DecryptionShareFromProto(
            replies[p].partials(), kRun, 1, static_cast<int>(p), key, cts);
        Trace("DecryptionShareFromProto", share.status());
        if (!share.ok()) return;
        shares.push_back(*std::move(share));
      }
      absl::StatusOr<lda::LdaModel> model = Coordinator(s, true)->Publish(shares, s.vocabulary);
      Trace("Publish", model.status());
      if (model.ok()) Require(model->topic_term_counts == s.counts);
      return;
    }
  }
}

}  // namespace
}  // namespace pplda::fuzz

PPLDA_FUZZ_MODAL_TARGET(pplda::fuzz::Fixed())

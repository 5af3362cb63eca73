// libFuzzer target: a party daemon's handling of the coordinator's requests
// (proto/party_control_service.proto) by its run state machine
// (party/party_session.h: decode, validate, apply), each applied in a valid
// state: Join to a new session, Prepare to a joined one, Iterate and
// Publish to a prepared one.
//
// Fixed set-up (once): a dealt 1024-bit test key of three parties
// (crypto/paillier/paillier_testing.h: public primes, TESTS ONLY), party 0 with one
// document of 3 tokens over the vocabulary {a, b, c, d}, seeded randomness,
// a fixed initial-topics seed. The MPC links are an in-process loopback:
// what the party sends to a peer in a round comes back as that peer's
// message of the round, so the plan confirmation (every party hashes the
// same plan) and the digest confirmation at publication pass; for Iterate
// the links are cut once the request is accepted, so the MPC iteration
// itself fails at its first message instead of computing on echoes.
// Input: a mode byte, then one message:
//   0  JoinRequest     -> PartySession::Create(header.run_id, parameters)
//   1  PrepareRequest  -> Prepare on a joined session (1 iteration)
//   2  IterateRequest  -> Iterate on a prepared session (1 iteration)
//   3  PublishRequest  -> Publish on a prepared session (0 iterations: the
//                         initial counts are the last ones)
//   4  VocabularyRequest -> the DP vocabulary's step on a session joined to
//                         a DP-vocabulary run, after the valid steps before
//                         it (contribute: none; decrypt: this party's
//                         contribution; select: every party's valid
//                         contribution and decryption)
// Any crash, sanitizer report, hang or out-of-memory is a finding; an error
// status is the expected answer. Properties (abort = finding): a Join that
// succeeds has a run id that stays in its folder; a Prepare that succeeds
// replies initial counts that decode; a Publish that decrypts was asked for
// exactly the digest of the updates it was given (it never decrypts another
// fold), and its partial decryptions decode; a vocabulary decrypt that
// succeeds was handed this party's own contribution unchanged; a selection
// that succeeds keeps candidates only and no more tokens than the party has.
//
// Seeds: PPLDA_FUZZ_WRITE_SEEDS=fuzz/corpus/party_messages
// build-fuzz/fuzz/fuzz_party_messages writes a valid request of every mode
// (the other parties' initial counts from their own sessions) and exits.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/path_component.h"
#include "base/status_macros.h"
#include "coordinator/lda_coordinator.h"
#include "crypto/mpc/simulated_network.h"
#include "crypto/mpc/transport.h"
#include "crypto/paillier/paillier_serialization.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "fuzz/fuzz_util.h"
#include "party/party_session.h"
#include "proto/party_control_service.pb.h"
#include "protocol/wire.h"

namespace pplda::fuzz {
namespace {

constexpr char kRun[] = "fuzz-run";
constexpr int kParties = 3;
enum Mode : uint8_t {
  kJoin = 0,
  kPrepare = 1,
  kIterate = 2,
  kPublish = 3,
  kVocabulary = 4,
  kModes = 5
};

// Loopback links: Receive(from, round) returns what this party sent to
// `from` in `round`; once cut, every Send and Receive fails.
class LoopbackTransport : public crypto::PartyTransport {
 public:
  explicit LoopbackTransport(int party) : party_(party) {}
  int party_id() const override { return party_; }
  int num_parties() const override { return kParties; }
  absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) override {
    if (cut_) return absl::UnavailableError("fuzz: the links are cut");
    sent_[{to, round}] = std::move(payload);
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<uint8_t>> Receive(int from, uint64_t round) override {
    auto it = sent_.find({from, round});
    if (cut_ || it == sent_.end()) return absl::UnavailableError("fuzz: no message");
    return it->second;
  }
  void Cut() { cut_ = true; }

 private:
  int party_;
  bool cut_ = false;
  std::map<std::pair<int, uint64_t>, std::vector<uint8_t>> sent_;
};

struct SetUp {
  crypto::DealtKey key;
  lda::Vocabulary vocabulary;
  std::vector<lda::Corpus> corpora;  // one per party
  std::filesystem::path state_dir;
};

const SetUp& Fixed() {
  static const SetUp* set_up = [] {
    auto* s = new SetUp;
    absl::StatusOr<crypto::DealtKey> key =
        crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, kParties, 2, 3);
    Require(key.ok());
    s->key = *std::move(key);
    absl::StatusOr<lda::Vocabulary> vocabulary = lda::Vocabulary::FromTerms({"a", "b", "c", "d"});
    Require(vocabulary.ok());
    s->vocabulary = *std::move(vocabulary);
    const std::vector<std::vector<lda::TermId>> documents = {{0, 1, 1}, {3, 1}, {2}};
    for (int p = 0; p < kParties; ++p) {
      lda::Corpus corpus;
      corpus.vocabulary = s->vocabulary;
      corpus.documents.push_back(lda::Document{"doc" + std::to_string(p), documents[p]});
      s->corpora.push_back(std::move(corpus));
    }
    s->state_dir = ScratchFolder("party_state");
    return s;
  }();
  return *set_up;
}

party::PartyResources Resources(int p) {
  const SetUp& s = Fixed();
  party::PartyResources r;
  r.party_index = p;
  r.num_parties = kParties;
  r.key_share = &s.key.shares[static_cast<size_t>(p)];
  r.corpus = &s.corpora[static_cast<size_t>(p)];
  r.vocabulary_sha256 = protocol::VocabularySha256(s.vocabulary);
  r.initial_topics_seed = 5;
  r.state_dir = s.state_dir;
  r.rng_factory = [p](party::PartyRandomSource source) -> std::unique_ptr<crypto::SecureRng> {
    return std::make_unique<crypto::SeededRng>(900 + 10 * p + static_cast<int>(source));
  };
  return r;
}

pplda::v1::RunParameters Parameters(uint32_t iterations) {
  pplda::v1::RunParameters p;
  p.set_num_topics(3);
  p.set_alpha(0.1);
  p.set_beta(0.01);
  p.set_iterations(iterations);
  p.set_draw_method("binary");
  p.set_vocabulary_sha256(protocol::VocabularySha256(Fixed().vocabulary));
  return p;
}

// A DP run whose vocabulary is selected by the secure DP set union over
// the fixed vocabulary as candidates.
pplda::v1::RunParameters DpVocabularyParameters() {
  pplda::v1::RunParameters p = Parameters(1);
  p.set_dp_epsilon(8);
  p.set_dp_delta(1e-5);
  p.set_dp_max_tokens(10);
  p.set_dp_max_term_count(2);
  p.set_dp_vocab_epsilon(2);
  p.set_dp_vocab_delta(5e-6);
  p.set_dp_vocab_max_terms(20);
  // One document per party: with the default threshold nothing would be
  // selected and the selection's success path never reached.
  p.set_dp_vocab_threshold(1);
  return p;
}

std::unique_ptr<party::PartySession> DpVocabularySession(int p, LoopbackTransport& links) {
  absl::StatusOr<std::unique_ptr<party::PartySession>> session =
      party::PartySession::Create(kRun, DpVocabularyParameters(), Resources(p), links);
  Require(session.ok());
  return *std::move(session);
}

pplda::v1::VocabularyRequest VocabularyStep(char step) {
  pplda::v1::VocabularyRequest r;
  r.mutable_header()->set_run_id(kRun);
  if (step == 'c') r.mutable_contribute();
  if (step == 'd') r.mutable_decrypt()->set_decrypt(true);
  if (step == 's') r.mutable_select();
  return r;
}

// Every party's contribution (fixed, seeded), party order.
const std::vector<pplda::v1::CiphertextBatch>& ValidContributions() {
  static const auto* contributions = [] {
    auto* out = new std::vector<pplda::v1::CiphertextBatch>;
    for (int p = 0; p < kParties; ++p) {
      LoopbackTransport links(p);
      absl::StatusOr<pplda::v1::VocabularyReply> reply =
          DpVocabularySession(p, links)->Vocabulary(VocabularyStep('c'));
      Require(reply.ok());
      out->push_back(reply->contribution());
    }
    return out;
  }();
  return *contributions;
}

pplda::v1::VocabularyRequest ValidVocabularyDecrypt() {
  pplda::v1::VocabularyRequest r = VocabularyStep('d');
  for (const pplda::v1::CiphertextBatch& c : ValidContributions()) {
    *r.mutable_decrypt()->add_contributions() = c;
  }
  return r;
}

// The key's threshold of parties' partial decryptions of the valid sum.
pplda::v1::VocabularyRequest ValidVocabularySelect() {
  pplda::v1::VocabularyRequest r = VocabularyStep('s');
  for (int p = 0; p < Fixed().key.public_key->threshold(); ++p) {
    LoopbackTransport links(p);
    std::unique_ptr<party::PartySession> session = DpVocabularySession(p, links);
    Require(session->Vocabulary(VocabularyStep('c')).ok());
    absl::StatusOr<pplda::v1::VocabularyReply> reply =
        session->Vocabulary(ValidVocabularyDecrypt());
    Require(reply.ok());
    *r.mutable_select()->add_partials() = reply->partials();
  }
  return r;
}

pplda::v1::PrepareRequest ValidPrepare() {
  pplda::v1::PrepareRequest r;
  r.mutable_header()->set_run_id(kRun);
  for (const lda::Corpus& c : Fixed().corpora) {
    r.add_tokens_per_party(static_cast<uint64_t>(c.num_tokens()));
  }
  return r;
}

// The state folder holding party p's run state after Prepare of a run of
// `iterations` iterations. Prepare agrees the pseudo-random sharing keys
// among the parties, so the three parties run it once, over a simulated
// network, each with its own folder.
std::filesystem::path PreparedStateDir(int p, uint32_t iterations) {
  static std::set<uint32_t>* prepared = new std::set<uint32_t>();
  auto dir = [](int party, uint32_t n) {
    return ScratchFolder("prepared-" + std::to_string(n) + "-p" + std::to_string(party));
  };
  if (prepared->insert(iterations).second) {
    absl::StatusOr<std::unique_ptr<crypto::SimulatedNetwork>> network =
        crypto::SimulatedNetwork::Create(kParties);
    Require(network.ok());
    std::vector<std::unique_ptr<party::PartySession>> sessions(kParties);
    for (int q = 0; q < kParties; ++q) {
      party::PartyResources r = Resources(q);
      r.state_dir = dir(q, iterations);
      absl::StatusOr<std::unique_ptr<party::PartySession>> session = party::PartySession::Create(
          kRun, Parameters(iterations), r, (*network)->transport(q));
      Require(session.ok());
      sessions[static_cast<size_t>(q)] = *std::move(session);
    }
    const absl::Status done = (*network)->RunParties([&](int q) {
      return sessions[static_cast<size_t>(q)]->Prepare(ValidPrepare()).status();
    });
    Trace("set-up Prepare", done);
    Require(done.ok());
  }
  return dir(p, iterations);
}

// A session of party p, joined and (when `prepare`) prepared (rebuilt from
// its state after Prepare: PreparedStateDir); its initial counts in
// *initial.
std::unique_ptr<party::PartySession> Session(int p, uint32_t iterations, bool prepare,
                                             LoopbackTransport& links,
                                             pplda::v1::PrepareReply* initial = nullptr) {
  if (!prepare) {
    absl::StatusOr<std::unique_ptr<party::PartySession>> session =
        party::PartySession::Create(kRun, Parameters(iterations), Resources(p), links);
    Require(session.ok());
    return *std::move(session);
  }
  party::PartyResources r = Resources(p);
  r.state_dir = PreparedStateDir(p, iterations);
  // A publication an earlier input got through leaves its marker.
  std::error_code ec;
  std::filesystem::remove(r.state_dir / "runs" / kRun / "published", ec);
  absl::StatusOr<std::unique_ptr<party::PartySession>> session =
      party::PartySession::Resume(kRun, Parameters(iterations), r, links, 0);
  Trace("set-up Resume", session.status());
  Require(session.ok());
  if (initial != nullptr) *initial->mutable_initial_counts() = (*session)->resumed_update();
  return *std::move(session);
}

// The digest of folding `updates` as iteration 0 (what a party compares).
absl::StatusOr<std::string> DigestOf(
    const google::protobuf::RepeatedPtrField<pplda::v1::CountUpdateMessage>& updates) {
  const SetUp& s = Fixed();
  absl::StatusOr<crypto::MpcConfig> config = crypto::MpcConfig::Create(kParties, 1);
  Require(config.ok());
  protocol::SecureLdaOptions o;
  o.num_topics = 3;
  absl::StatusOr<protocol::SecureLdaPlan> plan = protocol::SecureLdaPlan::Create(
      o, s.vocabulary.size(), {3, 2, 1}, s.key.public_key->paillier(), *config);
  Require(plan.ok());
  ASSIGN_OR_RETURN(std::vector<protocol::CountUpdate> decoded,
                   protocol::CountUpdatesFromProto(updates, kRun, *s.key.public_key, *plan));
  absl::StatusOr<std::unique_ptr<coordinator::LdaCoordinator>> c =
      coordinator::LdaCoordinator::Create(kRun, *plan, s.key.public_key, nullptr);
  Require(c.ok());
  RETURN_IF_ERROR((*c)->Fold(decoded, 0));
  return std::string((*c)->digest().begin(), (*c)->digest().end());
}

void WriteSeeds(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  pplda::v1::JoinRequest join;
  join.mutable_header()->set_run_id(kRun);
  *join.mutable_parameters() = Parameters(1);
  WriteFile(dir / "join", std::string(1, kJoin) + join.SerializeAsString());
  WriteFile(dir / "prepare", std::string(1, kPrepare) + ValidPrepare().SerializeAsString());
  std::vector<pplda::v1::CountUpdateMessage> initial;
  for (int p = 0; p < kParties; ++p) {
    LoopbackTransport links(p);
    pplda::v1::PrepareReply reply;
    Session(p, 1, true, links, &reply);
    initial.push_back(reply.initial_counts());
  }
  pplda::v1::IterateRequest iterate;
  iterate.mutable_header()->set_run_id(kRun);
  iterate.mutable_header()->set_iteration(1);
  for (const auto& u : initial) *iterate.add_previous() = u;
  WriteFile(dir / "iterate", std::string(1, kIterate) + iterate.SerializeAsString());
  pplda::v1::PublishRequest publish;
  publish.mutable_header()->set_run_id(kRun);
  publish.mutable_header()->set_iteration(1);
  for (const auto& u : initial) *publish.add_last() = u;
  absl::StatusOr<std::string> digest = DigestOf(publish.last());
  Require(digest.ok());
  publish.set_counts_digest(*digest);
  publish.set_decrypt(true);
  WriteFile(dir / "publish", std::string(1, kPublish) + publish.SerializeAsString());
  WriteFile(dir / "vocabulary-contribute",
            std::string(1, kVocabulary) + VocabularyStep('c').SerializeAsString());
  WriteFile(dir / "vocabulary-decrypt",
            std::string(1, kVocabulary) + ValidVocabularyDecrypt().SerializeAsString());
  const pplda::v1::VocabularyRequest select = ValidVocabularySelect();
  {
    // The seed must reach the selection's success path.
    LoopbackTransport links(0);
    std::unique_ptr<party::PartySession> session = DpVocabularySession(0, links);
    Require(session->Vocabulary(VocabularyStep('c')).ok());
    Require(session->Vocabulary(ValidVocabularyDecrypt()).ok());
    Require(session->Vocabulary(select).ok());
  }
  WriteFile(dir / "vocabulary-select", std::string(1, kVocabulary) + select.SerializeAsString());
  std::exit(0);
}

void Run(Mode mode, std::string_view bytes) {
  const SetUp& s = Fixed();
  const int size = static_cast<int>(bytes.size());
  LoopbackTransport links(0);
  switch (mode) {
    case kJoin: {
      pplda::v1::JoinRequest join;
      if (!join.ParseFromArray(bytes.data(), size)) return;
      absl::StatusOr<std::unique_ptr<party::PartySession>> session = party::PartySession::Create(
          join.header().run_id(), join.parameters(), Resources(0), links);
      Trace("Join", session.status());
      if (session.ok()) {
        Require(CheckPathComponent(join.header().run_id(), "run id").ok());
        Require((*session)->tokens() <= s.corpora[0].num_tokens());
      }
      return;
    }
    case kPrepare: {
      pplda::v1::PrepareRequest prepare;
      if (!prepare.ParseFromArray(bytes.data(), size)) return;
      std::unique_ptr<party::PartySession> session = Session(0, 1, false, links);
      absl::StatusOr<pplda::v1::PrepareReply> reply = session->Prepare(prepare);
      Trace("Prepare", reply.status());
      if (reply.ok()) {
        Require(reply->initial_counts().party() == 0);
        Require(reply->initial_counts().matrix().ciphertexts_size() > 0);
      }
      return;
    }
    case kIterate: {
      pplda::v1::IterateRequest iterate;
      if (!iterate.ParseFromArray(bytes.data(), size)) return;
      std::unique_ptr<party::PartySession> session = Session(0, 1, true, links);
      links.Cut();
      // Accepted updates end at the cut links ("fuzz: the links are cut").
      Trace("Iterate", session->Iterate(iterate).status());
      return;
    }
    case kVocabulary: {
      pplda::v1::VocabularyRequest request;
      if (!request.ParseFromArray(bytes.data(), size)) return;
      std::unique_ptr<party::PartySession> session = DpVocabularySession(0, links);
      if (request.has_decrypt() || request.has_select()) {
        Require(session->Vocabulary(VocabularyStep('c')).ok());
      }
      if (request.has_select()) Require(session->Vocabulary(ValidVocabularyDecrypt()).ok());
      absl::StatusOr<pplda::v1::VocabularyReply> reply = session->Vocabulary(request);
      Trace("Vocabulary", reply.status());
      if (!reply.ok()) return;
      if (request.has_decrypt()) {
        // Seeded sources: this party's contribution is the fixed one.
        Require(request.decrypt().contributions_size() == kParties);
        const size_t count = static_cast<size_t>(ValidContributions()[0].ciphertexts_size());
        absl::StatusOr<std::vector<crypto::Ciphertext>> handed = crypto::CiphertextBatchFromProto(
            *s.key.public_key, request.decrypt().contributions(0), count);
        absl::StatusOr<std::vector<crypto::Ciphertext>> own =
            crypto::CiphertextBatchFromProto(*s.key.public_key, ValidContributions()[0], count);
        Require(handed.ok() && own.ok() && *handed == *own);
      }
      if (request.has_select()) {
        Require(reply->vocabulary_size() >= 1 && reply->vocabulary_size() <= s.vocabulary.size());
        Require(static_cast<int64_t>(reply->tokens()) <= s.corpora[0].num_tokens());
      }
      return;
    }
    default: {
      pplda::v1::PublishRequest publish;
      if (!publish.ParseFromArray(bytes.data(), size)) return;
      std::unique_ptr<party::PartySession> session = Session(0, 0, true, links);
      absl::StatusOr<pplda::v1::PublishReply> reply = session->Publish(publish);
      Trace("Publish", reply.status());
      if (reply.ok() && publish.decrypt()) {
        absl::StatusOr<std::string> digest = DigestOf(publish.last());
        Require(digest.ok() && *digest == publish.counts_digest());
        const size_t cts = reply->partials().values_size();
        Require(cts > 0);
        Require(protocol::DecryptionShareFromProto(reply->partials(), kRun, 1, 0, *s.key.public_key,
                                                   cts)
                    .ok());
      }
      return;
    }
  }
}

}  // namespace
}  // namespace pplda::fuzz

PPLDA_FUZZ_MODAL_TARGET(pplda::fuzz::Fixed())

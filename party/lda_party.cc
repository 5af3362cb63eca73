#include "party/lda_party.h"

#include <sodium.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"
#include "crypto/mpc/comparison.h"
#include "crypto/mpc/reciprocal.h"
#include "crypto/paillier/paillier_serialization.h"
#include "crypto/random/buffered_rng.h"
#include "party/holder_delta_shares.h"
#include "party/selection_message.h"
#include "protocol/data_holder_rounds.h"
#include "protocol/secure_draw.h"

namespace pplda::party {
namespace {

using crypto::Ciphertext;
using crypto::FieldElement;
using crypto::Shares;

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

FieldElement Fe(int64_t v) { return FieldElement::FromInt64(v); }

// out[i * K + k] = per_topic[k] for every token i.
Shares BroadcastTopics(const Shares& per_topic, size_t tokens) {
  const size_t k = per_topic.size();
  Shares out(tokens * k);
  for (size_t i = 0; i < tokens; ++i) {
    for (size_t j = 0; j < k; ++j) out[i * k + j] = per_topic[j];
  }
  return out;
}

}  // namespace

// Longer than a screen: the local counts, selection tables and encryption
// state are laid out together from the plan, in the order they depend on
// each other.
LdaParty::LdaParty(int party, std::string run_id, const protocol::SecureLdaPlan& plan,
                   const crypto::PaillierKeyShare& key_share,
                   const crypto::PaillierEncryptor& encryptor, crypto::SecureRng& proof_rng,
                   ThreadPool* pool)
    : party_(party),
      run_id_(std::move(run_id)),
      plan_(plan),
      key_share_(key_share),
      encryptor_(encryptor),
      proof_rng_(proof_rng),
      evaluator_(key_share.public_key()->paillier()),
      counts_(run_id_, plan, key_share.public_key(), pool),
      pool_(pool) {}

absl::StatusOr<std::unique_ptr<LdaParty>> LdaParty::Create(
    int party, std::string run_id, const protocol::SecureLdaPlan& plan,
    std::vector<std::vector<lda::TermId>> documents, std::vector<std::vector<int>> topics,
    const crypto::PaillierKeyShare& key_share, const crypto::PaillierEncryptor& encryptor,
    crypto::SecureRng& proof_rng, ThreadPool* pool, crypto::SecureRng* dp_noise_rng) {
  if (party < 0 || party >= plan.num_parties()) {
    return absl::InvalidArgumentError(
        absl::StrCat("party id ", party, " is outside [0, ", plan.num_parties(), ")"));
  }
  auto p = std::unique_ptr<LdaParty>(
      new LdaParty(party, std::move(run_id), plan, key_share, encryptor, proof_rng, pool));
  ASSIGN_OR_RETURN(OwnedTokens tokens,
                   OwnedTokens::Create(absl::StrCat("party ", party), plan, std::move(documents),
                                       std::move(topics)));
  p->tokens_.emplace(std::move(tokens));
  if (p->num_tokens() != plan.tokens_of(party)) {
    return absl::InvalidArgumentError(absl::StrCat("party ", party, " holds ", p->num_tokens(),
                                                   " tokens but the plan says ",
                                                   plan.tokens_of(party)));
  }
  ASSIGN_OR_RETURN(crypto::CiphertextToShares converter,
                   crypto::CiphertextToShares::Create(key_share, p->plan_.layout(), encryptor,
                                                      pool));
  p->converter_ = std::make_unique<crypto::CiphertextToShares>(std::move(converter));
  if (plan.options().verify_conversion) p->converter_->EnableProofs(proof_rng);
  if (plan.dp()) {
    if (dp_noise_rng == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("party ", party, ": a DP run needs the party's DP-noise random source"));
    }
    p->noise_source_ = dp_noise_rng;
  }
  return p;
}

absl::StatusOr<protocol::CountUpdate> LdaParty::EncryptCounts(const CountTables& tables,
                                                              int iteration) const {
  return EncryptCountTables(plan_, encryptor_, tables, run_id_, iteration, party_, pool_);
}

absl::Status LdaParty::AddNoise(protocol::CountUpdate& update) const {
  if (!plan_.NoisyIteration(update.iteration + 1)) return absl::OkStatus();
  // One read of the source per 4 KiB of noise (the sampler reads 8 bytes at
  // a time), served exactly, in order; what is left is dropped, so that each
  // release reads the source from where the caller put it
  // (iteration_randomness.h rekeys it per iteration).
  crypto::BufferedRng buffered(*noise_source_);
  ASSIGN_OR_RETURN(protocol::NoiseShares noise,
                   protocol::NoiseForRelease(*plan_.options().dp, plan_.num_terms(),
                                             plan_.num_topics(), buffered));
  ASSIGN_OR_RETURN(protocol::CountUpdate encrypted,
                   EncryptCounts(CountTables{noise.term_major, noise.totals}, update.iteration));
  update.noise_matrix = std::move(encrypted.matrix);
  update.noise_totals = std::move(encrypted.totals);
  // The plaintext shares are secret: wipe them.
  sodium_memzero(noise.term_major.data(), noise.term_major.size() * sizeof(int64_t));
  sodium_memzero(noise.totals.data(), noise.totals.size() * sizeof(int64_t));
  return absl::OkStatus();
}

protocol::CountUpdate LdaParty::Sent(protocol::CountUpdate update) {
  sent_digest_ =
      protocol::UpdateDigest(update, key_share_.public_key()->paillier().ciphertext_bytes());
  sent_ = true;
  return update;
}

absl::StatusOr<protocol::CountUpdate> LdaParty::InitialCounts() {
  if (sent_ || counts_.folded() >= 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("party ", party_, ": the initial counts were already sent"));
  }
  ASSIGN_OR_RETURN(protocol::CountUpdate update, EncryptCounts(tokens_->Counts(plan_), 0));
  RETURN_IF_ERROR(AddNoise(update));
  return Sent(std::move(update));
}

absl::Status LdaParty::Restore(int iterations_done, const protocol::CountUpdate& sent,
                               const pplda::v1::PartyRunState& state) {
  if (sent_ || counts_.folded() >= 0 || iterations_done_ != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("party ", party_, ": only a new party can be restored"));
  }
  if (sent.iteration != iterations_done || sent.party != party_ || sent.run_id != run_id_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "party ", party_, ": the saved update is party ", sent.party, "'s of iteration ",
        sent.iteration, ", expected this party's of iteration ", iterations_done));
  }
  if (iterations_done > 0) {
    if (state.folded() != iterations_done - 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("folded: ", state.folded(), ", expected ", iterations_done - 1));
    }
    RETURN_IF_ERROR(counts_.RestoreFromState(state.folded(), state.counts_digest(), state.matrix(),
                                             state.totals(), state.noisy_matrix(),
                                             state.noisy_totals(), state.release_iteration()));
  }
  iterations_done_ = iterations_done;
  Sent(sent);
  return absl::OkStatus();
}

absl::Status LdaParty::AcceptUpdates(const std::vector<protocol::CountUpdate>& updates) {
  if (!sent_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "party ", party_, ": relayed updates, but this party has no update outstanding (it ran ",
        iterations_done_, " iterations and accepted their updates)"));
  }
  if (static_cast<size_t>(party_) < updates.size()) {
    const protocol::CountsDigest mine = protocol::UpdateDigest(
        updates[party_], key_share_.public_key()->paillier().ciphertext_bytes());
    if (mine != sent_digest_) {
      return absl::InvalidArgumentError(absl::StrCat(
          "party ", party_, ": the update relayed as this party's for iteration ",
          iterations_done_, " is not the one it sent (the coordinator altered it)"));
    }
  }
  RETURN_IF_ERROR(counts_.Fold(updates, iterations_done_));
  sent_ = false;
  confirmed_ = false;
  return absl::OkStatus();
}

absl::Status LdaParty::CheckPeerDigest(const std::vector<uint8_t>& digest, int from) const {
  const protocol::CountsDigest& mine = counts_.digest();
  if (digest.size() != mine.size() || !std::equal(mine.begin(), mine.end(), digest.begin())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "party ", party_, ": party ", from, " folded different updates up to iteration ",
        counts_.folded(), " (the coordinator relayed different updates to different parties)"));
  }
  return absl::OkStatus();
}

absl::Status LdaParty::ConfirmCounts(crypto::MpcEngine& engine) {
  if (sent_ || counts_.folded() != iterations_done_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "party ", party_, ": the updates of iteration ", iterations_done_,
        " were not accepted yet"));
  }
  const protocol::CountsDigest& mine = counts_.digest();
  std::vector<std::vector<uint8_t>> payloads(plan_.num_parties());
  for (int j = 0; j < plan_.num_parties(); ++j) {
    if (j != party_) payloads[j].assign(mine.begin(), mine.end());
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> received,
                   engine.ExchangeWithAll(std::move(payloads)));
  for (int j = 0; j < plan_.num_parties(); ++j) {
    if (j != party_) RETURN_IF_ERROR(CheckPeerDigest(received[j], j));
  }
  confirmed_ = true;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Ciphertext>> LdaParty::ExchangeSelections(
    crypto::MpcEngine& engine, const std::vector<Ciphertext>& mine, int iteration) const {
  const crypto::ThresholdPublicKey& key = *key_share_.public_key();
  const protocol::CountsDigest& digest = counts_.digest();
  const std::vector<uint8_t> message = SelectionMessage(digest, key, mine);
  std::vector<std::vector<uint8_t>> payloads(plan_.num_parties());
  for (int j = 0; j < plan_.num_parties(); ++j) {
    if (j != party_) payloads[j] = message;
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> received,
                   engine.ExchangeWithAll(std::move(payloads)));
  std::vector<Ciphertext> all;
  for (int j = 0; j < plan_.num_parties(); ++j) {
    if (j == party_) {
      all.insert(all.end(), mine.begin(), mine.end());
      continue;
    }
    if (received[j].size() < digest.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("selection ciphertexts from party ", j, ": shorter than a digest"));
    }
    RETURN_IF_ERROR(CheckPeerDigest(
        std::vector<uint8_t>(received[j].begin(), received[j].begin() + digest.size()), j));
    ASSIGN_OR_RETURN(std::vector<Ciphertext> theirs,
                     ParseSelectionMessage(received[j], digest, key,
                                           plan_.SelectionCiphertexts(plan_.tokens_of(j)),
                                           absl::StrCat("party ", j)));
    all.insert(all.end(), theirs.begin(), theirs.end());
  }
  const protocol::CountsDigest matrix_digest = protocol::CiphertextsDigest(
      protocol::kDrawMatrixLabel, counts_.draw_matrix(), key.paillier().ciphertext_bytes());
  for (int h = 0; h < plan_.num_holders(); ++h) {
    ASSIGN_OR_RETURN(std::vector<uint8_t> bytes,
                     holder_links_->ReceiveFromClient(
                         h, protocol::HolderRound(iteration, protocol::HolderStep::kSelection)));
    ASSIGN_OR_RETURN(
        std::vector<Ciphertext> theirs,
        ParseSelectionMessage(bytes, matrix_digest, key,
                              plan_.SelectionCiphertexts(plan_.tokens_of(plan_.HolderOwner(h))),
                              absl::StrCat("data holder ", h)));
    all.insert(all.end(), theirs.begin(), theirs.end());
  }
  return all;
}

absl::Status LdaParty::OwnerInputs(crypto::MpcEngine& engine, int iteration, Shares& d, Shares& e) {
  const int K = plan_.num_topics();
  // The committee's tokens come first: [0, committee_tokens).
  int64_t committee_tokens = 0;
  for (int p = 0; p < plan_.num_parties(); ++p) committee_tokens += plan_.tokens_of(p);
  const size_t ck = static_cast<size_t>(committee_tokens) * K;
  std::vector<int> owners(2 * ck);
  for (int p = 0; p < plan_.num_parties(); ++p) {
    const size_t begin = static_cast<size_t>(plan_.token_offset(p)) * K;
    const size_t end = begin + static_cast<size_t>(plan_.tokens_of(p)) * K;
    std::fill(owners.begin() + begin, owners.begin() + end, p);
    std::fill(owners.begin() + ck + begin, owners.begin() + ck + end, p);
  }
  ASSIGN_OR_RETURN(Shares inputs, engine.Input(owners, tokens_->Inputs(K)));
  d = inputs.Slice(0, ck);
  e = inputs.Slice(ck, ck);
  for (int h = 0; h < plan_.num_holders(); ++h) {
    const size_t hk = static_cast<size_t>(plan_.tokens_of(plan_.HolderOwner(h))) * K;
    ASSIGN_OR_RETURN(
        Shares theirs,
        holder_links_->ReceiveInput(
            h, protocol::HolderRound(iteration, protocol::HolderStep::kInputs), 2 * hk));
    d.Append(theirs.Slice(0, hk));
    e.Append(theirs.Slice(hk, hk));
  }
  return absl::OkStatus();
}

// One function, longer than a screen: its MPC rounds are one batched
// schedule that every party must step through in the same order, read in
// one place against docs/protocol.md.
absl::StatusOr<Shares> LdaParty::Weights(crypto::MpcEngine& engine, const Shares& converted,
                                         int iteration,
                                         std::vector<crypto::MaskBatch>& draw_masks) {
  const int K = plan_.num_topics();
  const size_t T = static_cast<size_t>(plan_.total_tokens());
  const size_t TK = T * K;
  const size_t s = plan_.layout().slots();
  // c_ik from each owner's selection ciphertexts; n_k from the totals.
  Shares c(TK);
  size_t ct_base = 0;
  for (int o = 0; o < plan_.num_owners(); ++o) {
    const int64_t offset = plan_.token_offset(o);
    for (int64_t j = 0; j < plan_.tokens_of(o); ++j) {
      for (int k = 0; k < K; ++k) {
        c[(offset + j) * K + k] = converted[ct_base * s + plan_.SelectionSlot(j, k)];
      }
    }
    ct_base += plan_.SelectionCiphertexts(plan_.tokens_of(o));
  }
  Shares totals = converted.Slice(ct_base * s, K);
  if (plan_.dp()) {
    // DP: c_ik = N(t_i, k) - e_ik and the noisy totals may be negative;
    // clamp both at 0 on shares, x - x [x < 0] (one comparison batch and
    // one Mul round): max(N - e, 0) = max(max(N, 0) - e, 0) for e in {0, 1},
    // which is the plaintext twin's post-processing
    // (privacy/dp_count_training.h ClampNoisyCounts and the sampler's
    // clamped self-removal).
    Shares both = c;
    both.Append(totals);
    ASSIGN_OR_RETURN(Shares negative,
                     crypto::LessThan(engine, both, Shares(both.size()), plan_.value_bits()));
    ASSIGN_OR_RETURN(Shares cut, engine.Mul(both, negative));
    both -= cut;
    c = both.Slice(0, TK);
    totals = both.Slice(TK, K);
  }

  // The owners' inputs: d_ik = n_m(k) - e_ik, then e_ik = [k = z_i].
  Shares d, e;
  RETURN_IF_ERROR(OwnerInputs(engine, iteration, d, e));

  // Normalisers Den0 = Q n_k + V B and Den1 = Q (n_k - 1 + [n_k = 0]) + V B.
  const int64_t q = plan_.scale();
  const int64_t vb = static_cast<int64_t>(plan_.num_terms()) * plan_.beta_scaled();
  Shares den0 = crypto::AddConstant(totals * Fe(q), Fe(vb));
  Shares den1 = crypto::AddConstant(den0, Fe(-q));
  if (plan_.zero_topic_guard()) {
    ASSIGN_OR_RETURN(Shares is_zero,
                     crypto::Equal(engine, totals, Shares(K), plan_.value_bits()));
    den1 += is_zero * Fe(q);
  }
  Shares dens = den0;
  dens.Append(den1);
  // One GenerateMasks call for the reciprocal and the draw.
  ASSIGN_OR_RETURN(std::vector<crypto::MaskSpec> specs,
                   crypto::ReciprocalMaskSpecs(engine.config(), dens.size(),
                                               plan_.reciprocal_bits(), plan_.reciprocal_scale()));
  const size_t reciprocal_batches = specs.size();
  ASSIGN_OR_RETURN(const protocol::SecureDrawPlan draw_plan,
                   protocol::PlanSecureDraw(engine.config(), plan_.draw()));
  for (const crypto::MaskSpec& spec : protocol::SecureDrawMaskSpecs(
           engine.config(), draw_plan, static_cast<size_t>(plan_.total_tokens()))) {
    specs.push_back(spec);
  }
  ASSIGN_OR_RETURN(std::vector<crypto::MaskBatch> masks, engine.GenerateMasks(specs));
  draw_masks.assign(masks.begin() + reciprocal_batches, masks.end());
  masks.resize(reciprocal_batches);
  ASSIGN_OR_RETURN(Shares r, crypto::Reciprocal(engine, dens, plan_.reciprocal_bits(),
                                                plan_.reciprocal_scale(), masks));
  const Shares r0 = r.Slice(0, K);
  const Shares delta_r = r.Slice(K, K) - r0;

  // X = Q c + B, Y = Q d + A; w = X Y (R0 + e (R1 - R0)).
  Shares left = crypto::AddConstant(c * Fe(q), Fe(plan_.beta_scaled()));
  left.Append(e);
  Shares right = crypto::AddConstant(d * Fe(q), Fe(plan_.alpha_scaled()));
  right.Append(BroadcastTopics(delta_r, T));
  ASSIGN_OR_RETURN(Shares products, engine.Mul(left, right));
  const Shares xy = products.Slice(0, TK);
  const Shares reciprocal = BroadcastTopics(r0, T) + products.Slice(TK, TK);
  return engine.Mul(xy, reciprocal);
}

absl::StatusOr<protocol::CountUpdate> LdaParty::ApplyDraw(
    const std::vector<std::optional<int>>& drawn, int iteration) {
  const size_t offset = static_cast<size_t>(plan_.token_offset(party_));
  std::vector<int> mine(static_cast<size_t>(num_tokens()));
  for (size_t j = 0; j < mine.size(); ++j) {
    const std::optional<int>& z = drawn[offset + j];
    if (!z.has_value()) {
      return absl::InternalError(absl::StrCat("party ", party_, ": no topic drawn for token ", j));
    }
    mine[j] = *z;
  }
  ASSIGN_OR_RETURN(const CountTables delta, tokens_->Apply(plan_, mine));
  if (plan_.num_holders() > 0) {
    ASSIGN_OR_RETURN(protocol::CountUpdate update, EncryptWithHolderShares(delta, iteration));
    RETURN_IF_ERROR(AddNoise(update));
    return Sent(std::move(update));
  }
  if (num_tokens() == 0) {
    protocol::CountUpdate empty;
    empty.run_id = run_id_;
    empty.iteration = iteration;
    empty.party = party_;
    RETURN_IF_ERROR(AddNoise(empty));
    return Sent(std::move(empty));
  }
  ASSIGN_OR_RETURN(protocol::CountUpdate update, EncryptCounts(delta, iteration));
  RETURN_IF_ERROR(AddNoise(update));
  return Sent(std::move(update));
}

absl::StatusOr<protocol::CountUpdate> LdaParty::EncryptWithHolderShares(const CountTables& delta,
                                                                        int iteration) const {
  const mpz_class& modulus = key_share_.public_key()->paillier().n();
  ASSIGN_OR_RETURN(std::vector<mpz_class> sum, PackCountTables(plan_, delta));
  for (mpz_class& v : sum) {
    v %= modulus;
    if (v < 0) v += modulus;
  }
  for (int h = 0; h < plan_.num_holders(); ++h) {
    ASSIGN_OR_RETURN(const std::vector<uint8_t> message,
                     holder_links_->ReceiveFromClient(
                         h, protocol::HolderRound(iteration, protocol::HolderStep::kDeltas)));
    ASSIGN_OR_RETURN(
        std::vector<mpz_class> share,
        PackedDeltaShare(message, sum.size(), modulus, plan_.num_parties(), h, party_));
    for (size_t i = 0; i < sum.size(); ++i) {
      sum[i] += share[i];
      if (sum[i] >= modulus) sum[i] -= modulus;
      crypto::Wipe(share[i]);
    }
  }
  absl::StatusOr<protocol::CountUpdate> update =
      EncryptPackedCounts(plan_, encryptor_, sum, run_id_, iteration, party_, pool_);
  for (mpz_class& v : sum) crypto::Wipe(v);
  return update;
}

absl::StatusOr<protocol::CountUpdate> LdaParty::RunIteration(crypto::MpcEngine& engine) {
  const int iteration = iterations_done_ + 1;
  if (sent_ || counts_.folded() != iterations_done_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "party ", party_, ": iteration ", iteration, " needs the accepted updates of iteration ",
        iterations_done_));
  }
  if (engine.party_id() != party_ || engine.num_parties() != plan_.num_parties()) {
    return absl::InvalidArgumentError(absl::StrCat("party ", party_, " was given the engine of party ",
                                                   engine.party_id(), " of ",
                                                   engine.num_parties()));
  }
  if (plan_.num_holders() > 0 && holder_links_ == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("party ", party_, ": the run has ", plan_.num_holders(),
                     " data holders but the party has no links to them"));
  }
  protocol::PartyPhaseTimes t;
  Clock::time_point start = Clock::now();
  RETURN_IF_ERROR(AttestToHolders(iteration));
  ASSIGN_OR_RETURN(const std::vector<Ciphertext> mine,
                   tokens_->Select(plan_, counts_.draw_matrix(), evaluator_, encryptor_, pool_));
  t.selection = SecondsSince(start);

  start = Clock::now();
  ASSIGN_OR_RETURN(std::vector<Ciphertext> all, ExchangeSelections(engine, mine, iteration));
  all.insert(all.end(), counts_.draw_totals().begin(), counts_.draw_totals().end());
  t.exchange = SecondsSince(start);

  start = Clock::now();
  ASSIGN_OR_RETURN(Shares converted,
                   converter_->Convert(engine, all, all.size() * plan_.layout().slots()));
  t.conversion = SecondsSince(start);

  start = Clock::now();
  std::vector<crypto::MaskBatch> draw_masks;
  ASSIGN_OR_RETURN(Shares weights, Weights(engine, converted, iteration, draw_masks));
  t.weights = SecondsSince(start);

  start = Clock::now();
  std::vector<int> token_owners(static_cast<size_t>(plan_.total_tokens()));
  for (int o = 0; o < plan_.num_owners(); ++o) {
    std::fill_n(token_owners.begin() + plan_.token_offset(o), plan_.tokens_of(o), o);
  }
  const protocol::DrawClients holders{
      holder_links_, protocol::HolderRound(iteration, protocol::HolderStep::kDraw)};
  ASSIGN_OR_RETURN(
      std::vector<std::optional<int>> drawn,
      plan_.num_holders() > 0
          ? protocol::SecureDraw(engine, weights, token_owners, plan_.draw(), draw_masks, holders)
          : protocol::SecureDraw(engine, weights, token_owners, plan_.draw(), draw_masks));
  t.draw = SecondsSince(start);

  start = Clock::now();
  ASSIGN_OR_RETURN(protocol::CountUpdate update, ApplyDraw(drawn, iteration));
  t.update = SecondsSince(start);
  times_ += t;
  iterations_done_ = iteration;
  return update;
}

absl::StatusOr<protocol::DecryptionShare> LdaParty::DecryptModel(
    const protocol::CountsDigest& requested) const {
  if (!confirmed_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "party ", party_, ": asked to decrypt before the parties confirmed the final counts"));
  }
  if (requested != counts_.digest()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "party ", party_, ": refusing to decrypt: the coordinator asks for counts with digest ",
        protocol::DigestHex(requested), ", but the agreed fold of run '", run_id_,
        "' after iteration ", counts_.folded(), " is ", protocol::DigestHex(counts_.digest())));
  }
  protocol::DecryptionShare share;
  share.run_id = run_id_;
  share.iteration = counts_.folded() + 1;
  share.party = party_;
  ASSIGN_OR_RETURN(share.partials, key_share_.PartialDecryptBatchWithProofs(
                                       counts_.AllCiphertexts(), proof_rng_, pool_));
  return share;
}

std::vector<std::vector<int>> LdaParty::Assignments() const { return tokens_->Assignments(); }

std::vector<std::vector<double>> LdaParty::DocumentTopicMixtures() const {
  return tokens_->DocumentTopicMixtures(plan_.num_topics(), plan_.effective_alpha());
}

absl::Status LdaParty::AttestToHolders(int iteration) const {
  if (plan_.num_holders() == 0) return absl::OkStatus();
  const protocol::CountsDigest digest =
      protocol::CiphertextsDigest(protocol::kDrawMatrixLabel, counts_.draw_matrix(),
                                  key_share_.public_key()->paillier().ciphertext_bytes());
  for (int h = 0; h < plan_.num_holders(); ++h) {
    RETURN_IF_ERROR(holder_links_->SendToClient(
        h, protocol::HolderRound(iteration, protocol::HolderStep::kAttest),
        std::vector<uint8_t>(digest.begin(), digest.end())));
  }
  return absl::OkStatus();
}

}  // namespace pplda::party

#include "party/lda_party.h"

#include <sodium.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/mpc/comparison.h"
#include "crypto/mpc/reciprocal.h"
#include "crypto/paillier/paillier_serialization.h"
#include "crypto/random/buffered_rng.h"
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

// Runs fn(begin, end) over [0, n), on the pool when there is one.
void ForRange(ThreadPool* pool, size_t n, const std::function<void(size_t, size_t)>& fn) {
  if (pool == nullptr || n < 2) {
    fn(0, n);
    return;
  }
  pool->ParallelForChunks(n, std::min<size_t>(n, 4 * static_cast<size_t>(pool->num_threads())),
                          [&](size_t b, size_t e, int) { fn(b, e); });
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
  if (documents.size() != topics.size()) {
    return absl::InvalidArgumentError(absl::StrCat("party ", party, ": ", documents.size(),
                                                   " documents but topics for ", topics.size()));
  }
  auto p = std::unique_ptr<LdaParty>(
      new LdaParty(party, std::move(run_id), plan, key_share, encryptor, proof_rng, pool));
  const int K = plan.num_topics();
  p->doc_topic_.assign(documents.size() * K, 0);
  for (size_t m = 0; m < documents.size(); ++m) {
    if (documents[m].size() != topics[m].size()) {
      return absl::InvalidArgumentError(absl::StrCat("party ", party, ", document ", m, ": ",
                                                     documents[m].size(), " tokens but ",
                                                     topics[m].size(), " topics"));
    }
    p->doc_lengths_.push_back(static_cast<int64_t>(documents[m].size()));
    for (size_t i = 0; i < documents[m].size(); ++i) {
      const lda::TermId t = documents[m][i];
      const int z = topics[m][i];
      if (t < 0 || t >= plan.num_terms()) {
        return absl::InvalidArgumentError(absl::StrCat("party ", party, ", document ", m,
                                                       ", token ", i, ": term id ", t,
                                                       " outside the vocabulary of ",
                                                       plan.num_terms()));
      }
      if (z < 0 || z >= K) {
        return absl::InvalidArgumentError(absl::StrCat("party ", party, ", document ", m,
                                                       ", token ", i, ": topic ", z,
                                                       " outside [0, ", K, ")"));
      }
      p->terms_.push_back(t);
      p->topics_.push_back(z);
      p->doc_of_.push_back(static_cast<int32_t>(m));
      ++p->doc_topic_[m * K + z];
    }
  }
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

absl::StatusOr<protocol::CountUpdate> LdaParty::EncryptCounts(
    const std::vector<int64_t>& term_topic, const std::vector<int64_t>& totals,
    int iteration) const {
  const int K = plan_.num_topics();
  const size_t s = plan_.layout().slots();
  std::vector<int64_t> slots(plan_.MatrixCiphertexts() * s, 0);
  for (int32_t t = 0; t < plan_.num_terms(); ++t) {
    for (int k = 0; k < K; ++k) {
      const int h = k / plan_.chunk_width();
      slots[(static_cast<size_t>(t) * plan_.chunks() + h) * s + (k - h * plan_.chunk_width())] =
          term_topic[static_cast<size_t>(t) * K + k];
    }
  }
  ASSIGN_OR_RETURN(std::vector<mpz_class> packed, plan_.layout().Pack(slots));
  ASSIGN_OR_RETURN(std::vector<mpz_class> packed_totals, plan_.layout().Pack(totals));
  protocol::CountUpdate update;
  update.run_id = run_id_;
  update.iteration = iteration;
  update.party = party_;
  ASSIGN_OR_RETURN(update.matrix, encryptor_.EncryptBatch(packed, pool_));
  ASSIGN_OR_RETURN(update.totals, encryptor_.EncryptBatch(packed_totals, pool_));
  return update;
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
                   EncryptCounts(noise.term_major, noise.totals, update.iteration));
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
  const int K = plan_.num_topics();
  std::vector<int64_t> term_topic(static_cast<size_t>(plan_.num_terms()) * K, 0);
  std::vector<int64_t> totals(K, 0);
  for (size_t i = 0; i < terms_.size(); ++i) {
    ++term_topic[static_cast<size_t>(terms_[i]) * K + topics_[i]];
    ++totals[topics_[i]];
  }
  ASSIGN_OR_RETURN(protocol::CountUpdate update, EncryptCounts(term_topic, totals, 0));
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

absl::StatusOr<std::vector<Ciphertext>> LdaParty::Select() const {
  const std::vector<Ciphertext>& matrix = counts_.draw_matrix();
  const size_t s = plan_.layout().slots();
  const size_t n_ct = plan_.SelectionCiphertexts(num_tokens());
  const size_t items = static_cast<size_t>(num_tokens()) * plan_.chunks();
  const size_t per_ct = plan_.items_per_ciphertext();
  std::vector<int64_t> correction(n_ct * s, 0);
  for (size_t j = 0; j < terms_.size(); ++j) {
    correction[plan_.SelectionSlot(static_cast<int64_t>(j), topics_[j])] = -1;
  }
  ASSIGN_OR_RETURN(const std::vector<mpz_class> packed, plan_.layout().Pack(correction));
  const mpz_class shift = mpz_class(1) << (plan_.chunk_width() * plan_.layout().slot_bits());
  auto row = [&](size_t item) -> const Ciphertext& {
    const size_t token = item / plan_.chunks();
    const size_t h = item % plan_.chunks();
    return matrix[static_cast<size_t>(terms_[token]) * plan_.chunks() + h];
  };
  // Items [first(g), last(g)) go to ciphertext g; only the last one may be short.
  auto first = [&](size_t g) { return g * per_ct; };
  auto last = [&](size_t g) { return std::min(items, first(g) + per_ct); };
  // Horner's rule, acc_g = acc_g^shift * row(item) from the last item down,
  // run for all ciphertexts in lockstep so that each step's exponentiations
  // form one MulScalarBatch (8 at a time in the IFMA kernel when available).
  std::vector<Ciphertext> out(n_ct);
  for (size_t g = 0; g < n_ct; ++g) out[g] = row(last(g) - 1);
  size_t active = n_ct;  // ciphertexts with more than `step` items: a prefix
  for (size_t step = 1; step < per_ct; ++step) {
    while (active > 0 && last(active - 1) - first(active - 1) <= step) --active;
    if (active == 0) break;
    const std::vector<Ciphertext> shifted =
        evaluator_.MulScalarBatch(absl::MakeConstSpan(out).subspan(0, active), shift, pool_);
    ForRange(pool_, active, [&](size_t begin, size_t end) {
      for (size_t g = begin; g < end; ++g) {
        out[g] = evaluator_.Add(shifted[g], row(last(g) - 1 - step));
      }
    });
  }
  ForRange(pool_, n_ct, [&](size_t begin, size_t end) {
    for (size_t g = begin; g < end; ++g) out[g] = evaluator_.AddPlain(out[g], packed[g]);
  });
  return encryptor_.RerandomiseBatch(out, pool_);
}

absl::StatusOr<std::vector<Ciphertext>> LdaParty::ExchangeSelections(
    crypto::MpcEngine& engine, const std::vector<Ciphertext>& mine) const {
  const crypto::ThresholdPublicKey& key = *key_share_.public_key();
  const std::string bytes = crypto::CiphertextBatchToProto(key, mine).SerializeAsString();
  const protocol::CountsDigest& digest = counts_.digest();
  std::vector<std::vector<uint8_t>> payloads(plan_.num_parties());
  for (int j = 0; j < plan_.num_parties(); ++j) {
    if (j == party_) continue;
    payloads[j].assign(digest.begin(), digest.end());
    payloads[j].insert(payloads[j].end(), bytes.begin(), bytes.end());
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
    pplda::v1::CiphertextBatch proto;
    if (!proto.ParseFromArray(received[j].data() + digest.size(),
                              static_cast<int>(received[j].size() - digest.size()))) {
      return absl::InvalidArgumentError(
          absl::StrCat("selection ciphertexts from party ", j, ": not a CiphertextBatch"));
    }
    ASSIGN_OR_RETURN(std::vector<Ciphertext> theirs,
                     crypto::CiphertextBatchFromProto(
                         key, proto, plan_.SelectionCiphertexts(plan_.tokens_of(j))));
    all.insert(all.end(), theirs.begin(), theirs.end());
  }
  return all;
}

// One function, longer than a screen: its MPC rounds are one batched
// schedule that every party must step through in the same order, read in
// one place against docs/protocol.md.
absl::StatusOr<Shares> LdaParty::Weights(crypto::MpcEngine& engine, const Shares& converted,
                                         std::vector<crypto::MaskBatch>& draw_masks) {
  const int K = plan_.num_topics();
  const size_t T = static_cast<size_t>(plan_.total_tokens());
  const size_t TK = T * K;
  const size_t s = plan_.layout().slots();
  // c_ik from each owner's selection ciphertexts; n_k from the totals.
  Shares c(TK);
  size_t ct_base = 0;
  for (int p = 0; p < plan_.num_parties(); ++p) {
    const int64_t offset = plan_.token_offset(p);
    for (int64_t j = 0; j < plan_.tokens_of(p); ++j) {
      for (int k = 0; k < K; ++k) {
        c[(offset + j) * K + k] = converted[ct_base * s + plan_.SelectionSlot(j, k)];
      }
    }
    ct_base += plan_.SelectionCiphertexts(plan_.tokens_of(p));
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

  // The owner's inputs: d_ik = n_m(k) - e_ik, then e_ik = [k = z_i].
  std::vector<int> owners(2 * TK);
  for (int p = 0; p < plan_.num_parties(); ++p) {
    const size_t begin = static_cast<size_t>(plan_.token_offset(p)) * K;
    const size_t end = begin + static_cast<size_t>(plan_.tokens_of(p)) * K;
    std::fill(owners.begin() + begin, owners.begin() + end, p);
    std::fill(owners.begin() + TK + begin, owners.begin() + TK + end, p);
  }
  crypto::FieldVector mine;
  mine.reserve(2 * terms_.size() * K);
  for (size_t j = 0; j < terms_.size(); ++j) {
    for (int k = 0; k < K; ++k) {
      const int e = topics_[j] == k ? 1 : 0;
      mine.push_back(Fe(doc_topic_[static_cast<size_t>(doc_of_[j]) * K + k] - e));
    }
  }
  for (size_t j = 0; j < terms_.size(); ++j) {
    for (int k = 0; k < K; ++k) mine.push_back(Fe(topics_[j] == k ? 1 : 0));
  }
  ASSIGN_OR_RETURN(Shares inputs, engine.Input(owners, mine));
  const Shares d = inputs.Slice(0, TK);
  const Shares e = inputs.Slice(TK, TK);

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
  const int K = plan_.num_topics();
  const size_t offset = static_cast<size_t>(plan_.token_offset(party_));
  std::vector<int64_t> term_topic(static_cast<size_t>(plan_.num_terms()) * K, 0);
  std::vector<int64_t> totals(K, 0);
  for (size_t j = 0; j < terms_.size(); ++j) {
    const std::optional<int>& z = drawn[offset + j];
    if (!z.has_value() || *z < 0 || *z >= K) {
      return absl::InternalError(absl::StrCat("party ", party_, ": no valid topic drawn for token ",
                                              j));
    }
    const int old = topics_[j];
    if (*z == old) continue;
    const size_t row = static_cast<size_t>(terms_[j]) * K;
    --term_topic[row + old];
    ++term_topic[row + *z];
    --totals[old];
    ++totals[*z];
    --doc_topic_[static_cast<size_t>(doc_of_[j]) * K + old];
    ++doc_topic_[static_cast<size_t>(doc_of_[j]) * K + *z];
    topics_[j] = *z;
  }
  if (terms_.empty()) {
    protocol::CountUpdate empty;
    empty.run_id = run_id_;
    empty.iteration = iteration;
    empty.party = party_;
    RETURN_IF_ERROR(AddNoise(empty));
    return Sent(std::move(empty));
  }
  ASSIGN_OR_RETURN(protocol::CountUpdate update, EncryptCounts(term_topic, totals, iteration));
  RETURN_IF_ERROR(AddNoise(update));
  return Sent(std::move(update));
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
  protocol::PartyPhaseTimes t;
  Clock::time_point start = Clock::now();
  ASSIGN_OR_RETURN(const std::vector<Ciphertext> mine, Select());
  t.selection = SecondsSince(start);

  start = Clock::now();
  ASSIGN_OR_RETURN(std::vector<Ciphertext> all, ExchangeSelections(engine, mine));
  all.insert(all.end(), counts_.draw_totals().begin(), counts_.draw_totals().end());
  t.exchange = SecondsSince(start);

  start = Clock::now();
  ASSIGN_OR_RETURN(Shares converted,
                   converter_->Convert(engine, all, all.size() * plan_.layout().slots()));
  t.conversion = SecondsSince(start);

  start = Clock::now();
  std::vector<crypto::MaskBatch> draw_masks;
  ASSIGN_OR_RETURN(Shares weights, Weights(engine, converted, draw_masks));
  t.weights = SecondsSince(start);

  start = Clock::now();
  std::vector<int> token_owners(static_cast<size_t>(plan_.total_tokens()));
  for (int p = 0; p < plan_.num_parties(); ++p) {
    std::fill_n(token_owners.begin() + plan_.token_offset(p), plan_.tokens_of(p), p);
  }
  ASSIGN_OR_RETURN(std::vector<std::optional<int>> drawn,
                   protocol::SecureDraw(engine, weights, token_owners, plan_.draw(), draw_masks));
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

std::vector<std::vector<int>> LdaParty::Assignments() const {
  std::vector<std::vector<int>> out(doc_lengths_.size());
  for (size_t j = 0; j < topics_.size(); ++j) out[doc_of_[j]].push_back(topics_[j]);
  return out;
}

std::vector<std::vector<double>> LdaParty::DocumentTopicMixtures() const {
  const int K = plan_.num_topics();
  const double alpha = plan_.effective_alpha();
  std::vector<std::vector<double>> theta(doc_lengths_.size(), std::vector<double>(K));
  for (size_t m = 0; m < doc_lengths_.size(); ++m) {
    const double denom = static_cast<double>(doc_lengths_[m]) + K * alpha;
    for (int k = 0; k < K; ++k) theta[m][k] = (doc_topic_[m * K + k] + alpha) / denom;
  }
  return theta;
}

}  // namespace pplda::party

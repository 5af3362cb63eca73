// SecureLdaPlan: the public, validated parameters of one secure LDA run
// (docs/protocol.md, "Public parameters"), derived identically by every
// party and the coordinator from public inputs only: K, V, alpha, beta,
// each party's token count, the Paillier modulus and the MPC config.
//
// Integer hyperparameters. The weights are computed on integers:
//   Q = the smallest power of ten in [1, 10^6] with alpha Q and beta Q
//       integers (|x Q - round(x Q)| <= 1e-9 x Q), A = alpha Q, B = beta Q,
//   X_ik = Q c_ik + B,  Y_ik = Q d_ik + A,  Den_ik = Q (n_k - e_ik) + V B,
// so that w_ik = X_ik Y_ik R_ik with R_ik ~ 2^f / Den_ik is exactly
// proportional to (c + beta)(d + alpha) / (n_k - e + V beta) up to the
// reciprocal's relative error 2^-20 (reciprocal.h). No truncation follows,
// so every weight keeps that relative error and the drawn distribution is
// within total variation 2^-20 (1 + 2^-19) + 2^-sigma of the exact one.
//
// Widths (T = total tokens over all parties, public):
//   value_bits  = bit_width(T): every count and every c, d is in [0, T];
//   packing     = PackingLayout{value_bits, max_terms 1, mask_parties n,
//                 sigma, guard 0}: s slots of W bits;
//   reciprocal  k = bit_width(Q T + V B) (Den < 2^k), f = k + 21;
//   weight_bits = f + bit_width(Q T + K A) + 1: since X_k <= Den_k,
//                 sum_k w_k <= (1 + 2^-20) 2^f sum_k Y_k
//                           <= (1 + 2^-20) 2^f (Q T + K A) < 2^weight_bits.
// Slot layout: topics are split into `chunks` = ceil(K / C) chunks of width
// C <= min(K, s); an item is one (term or token, chunk) pair of C slots;
// items_per_ciphertext = floor(s / C). C minimises the per-iteration
// Paillier cost  sum_p ceil(T_p chunks / floor(s / C)) (selection
// ciphertexts, each decrypted by every party) + V chunks / 16 (the matrix
// ciphertexts: delta encryption, fold; about 1/16 of a partial decryption
// each); ties keep the wider chunk. E.g. 18 slots, T = 3,000, V = 2,280:
// K = 5 -> C = 5 (3 tokens per ciphertext), K = 10 -> C = 6 (2 chunks of
// 6 and 4, 3 token-chunks per ciphertext), so doubling K does not triple the
// ciphertexts through rounding.
//   matrix ciphertext t * chunks + h: topics h C .. of term t at slots 0..;
//   totals: K values packed contiguously (NumPlaintexts(K) ciphertexts);
//   selection ciphertexts of a party: item j * chunks + h of its j-th token
//   at ciphertext item / items_per_ciphertext, first slot
//   (item % items_per_ciphertext) * C.
// DP training (options.dp set; protocol/secure_dp_noise.h): the counts the
// selection reads are noisy, N = C + sum_p Z_p with |Z_p| <= B per cell,
// and are clamped on shares (lda_party.h), so with n parties
//   cell bound  M_c = T + n B    (|N(t, k)| and |N(t, k) - 1| < M_c + 1),
//   total bound M_n = T + n V B  (|sum_t N(t, k)|),
//   value_bits  = bit_width(M_n) (packed slots are signed, balanced digits:
//                 no offset is needed for negative noisy values),
//   reciprocal  k = bit_width(Q M_n + V B),
//   weight_bits = f + bit_width(Q T + K A) + 1 + bit_width(ceil((Q M_c + B)
//                 / (V B))): a noisy cell can exceed its noisy total, so
//                 X_k <= Den_k no longer holds, but Den_k >= V B after the
//                 clamp and X_k <= Q M_c + B;
//   the zero-topic guard is always on (a clamped noisy total may be 0 while
//   a token of that topic is drawn).
// Errors (InvalidArgument naming the parameter): K < 1, V < 1, alpha or beta
// not positive or not a multiple of 10^-6, fewer than 3 parties, no tokens,
// a reciprocal or weight width beyond the field budget, a draw the crypto
// layer rejects.
// Immutable; thread-safe.
#ifndef PPLDA_PROTOCOL_SECURE_LDA_PLAN_H_
#define PPLDA_PROTOCOL_SECURE_LDA_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/paillier/packing.h"
#include "crypto/paillier/paillier_public_key.h"
#include "protocol/secure_dp_noise.h"
#include "protocol/secure_draw.h"

namespace pplda::protocol {

struct SecureLdaOptions {
  int num_topics = 20;
  double alpha = 0.1;
  double beta = 0.01;
  protocol::DrawMethod draw_method = protocol::DrawMethod::kInverseCdf;
  // Proofs of correct decryption in every iteration's conversion, verified
  // by every receiver (crypto/conversion/share_conversion.h, verified mode).
  bool verify_conversion = false;
  // DP training: noise shares at every noisy iteration (secure_dp_noise.h).
  std::optional<SecureDpNoise> dp;
};

class SecureLdaPlan {
 public:
  // Token owners: the committee's compute parties 0..n-1 (n = the MPC
  // config's parties, tokens_per_party by party id, a helper's 0), then the
  // data holders outside the committee (tokens_per_holder by data index):
  // owner n + h is data holder h. Token counts >= 0, their total in
  // [1, kMaxTokens].
  static constexpr int64_t kMaxTokens = int64_t{1} << 40;
  static absl::StatusOr<SecureLdaPlan> Create(const SecureLdaOptions& options, int32_t num_terms,
                                              std::vector<int64_t> tokens_per_party,
                                              const crypto::PaillierPublicKey& key,
                                              const crypto::MpcConfig& config,
                                              std::vector<int64_t> tokens_per_holder = {});

  const SecureLdaOptions& options() const { return options_; }
  int num_topics() const { return options_.num_topics; }
  int32_t num_terms() const { return num_terms_; }
  // The committee: the MPC's parties.
  int num_parties() const { return num_parties_; }
  int num_holders() const { return num_owners() - num_parties_; }
  int num_owners() const { return static_cast<int>(tokens_per_owner_.size()); }
  // The owner index of data holder `holder`.
  int HolderOwner(int holder) const { return num_parties_ + holder; }
  int64_t tokens_of(int owner) const { return tokens_per_owner_[owner]; }
  int64_t total_tokens() const { return total_tokens_; }
  // Index of owner o's first token in the global token order (owner-major).
  int64_t token_offset(int owner) const { return token_offsets_[owner]; }

  int64_t scale() const { return scale_; }            // Q
  int64_t alpha_scaled() const { return alpha_q_; }   // A
  int64_t beta_scaled() const { return beta_q_; }     // B
  double effective_alpha() const { return static_cast<double>(alpha_q_) / scale_; }
  double effective_beta() const { return static_cast<double>(beta_q_) / scale_; }

  int value_bits() const { return value_bits_; }
  const crypto::PackingLayout& layout() const { return layout_; }
  int reciprocal_bits() const { return reciprocal_bits_; }    // k
  int reciprocal_scale() const { return reciprocal_scale_; }  // f
  const protocol::SecureDrawOptions& draw() const { return draw_; }
  // True when Q (n_k - 1) + V B can be < 1, i.e. V B <= Q: the normaliser of
  // an empty topic then needs the secure test [n_k = 0] (lda_party.h).
  bool zero_topic_guard() const {
    return dp() || static_cast<int64_t>(num_terms_) * beta_q_ <= scale_;
  }
  bool dp() const { return options_.dp.has_value(); }
  // Whether iteration `iteration` (1-based) starts with a DP release.
  bool NoisyIteration(int iteration) const { return dp() && options_.dp->IsNoisy(iteration); }

  int chunks() const { return chunks_; }
  int chunk_width() const { return chunk_width_; }  // C
  // Topics in chunk h: min(C, K - h C).
  int ChunkTopics(int h) const;
  size_t items_per_ciphertext() const { return items_per_ciphertext_; }

  size_t MatrixCiphertexts() const { return static_cast<size_t>(num_terms_) * chunks_; }
  size_t TotalsCiphertexts() const { return layout_.NumPlaintexts(options_.num_topics); }
  // Selection ciphertexts for `tokens` tokens.
  size_t SelectionCiphertexts(int64_t tokens) const;
  // Ciphertext and slot of (local token j, topic k) in a party's selection.
  size_t SelectionSlot(int64_t token, int topic) const;  // ct * slots + slot

  // Partial decryptions per iteration and for publication, all parties
  // together, when `decryptors` parties (the Paillier key's threshold)
  // decrypt each ciphertext (share_conversion.h, the publication).
  uint64_t PartialDecryptionsPerIteration(int decryptors) const;
  uint64_t PartialDecryptionsForPublication(int decryptors) const;

 private:
  explicit SecureLdaPlan(crypto::PackingLayout layout) : layout_(std::move(layout)) {}
  void ChooseChunkWidth();

  SecureLdaOptions options_;
  int32_t num_terms_ = 0;
  int num_parties_ = 0;
  std::vector<int64_t> tokens_per_owner_;  // committee, then data holders
  std::vector<int64_t> token_offsets_;
  int64_t total_tokens_ = 0;
  int64_t scale_ = 1, alpha_q_ = 0, beta_q_ = 0;
  int value_bits_ = 0;
  crypto::PackingLayout layout_;
  int reciprocal_bits_ = 0, reciprocal_scale_ = 0;
  protocol::SecureDrawOptions draw_;
  int chunks_ = 1, chunk_width_ = 1;
  size_t items_per_ciphertext_ = 1;
};

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_SECURE_LDA_PLAN_H_

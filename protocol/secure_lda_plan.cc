#include "protocol/secure_lda_plan.h"

#include <bit>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/mpc/reciprocal.h"

namespace pplda::protocol {
namespace {

constexpr int kMaxScaleExponent = 6;  // Q <= 10^6
constexpr int kReciprocalMargin = 21; // f = k + 21 (reciprocal.h)
constexpr int kMaxFieldProductBits = 125;
// Cost of one matrix ciphertext per iteration (a delta encryption, the
// coordinator's fold, the selection's row handling) in partial decryptions:
// a DJN randomiser alone is 1/30-1/40 of one (docs/crypto.md); measured
// whole-iteration costs (docs/performance.md) suggest about 1/16.
constexpr double kEncryptionsPerDecryption = 16;

int BitWidth(int64_t v) { return static_cast<int>(std::bit_width(static_cast<uint64_t>(v))); }

bool IsMultiple(double x, int64_t q) {
  const double scaled = x * static_cast<double>(q);
  return std::abs(scaled - std::round(scaled)) <= 1e-9 * scaled && std::round(scaled) >= 1;
}

absl::StatusOr<int64_t> ChooseScale(double alpha, double beta) {
  if (!(alpha > 0) || !std::isfinite(alpha)) {
    return absl::InvalidArgumentError(absl::StrCat("alpha must be finite and > 0, got ", alpha));
  }
  if (!(beta > 0) || !std::isfinite(beta)) {
    return absl::InvalidArgumentError(absl::StrCat("beta must be finite and > 0, got ", beta));
  }
  int64_t q = 1;
  for (int e = 0; e <= kMaxScaleExponent; ++e, q *= 10) {
    if (IsMultiple(alpha, q) && IsMultiple(beta, q)) return q;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "alpha = ", alpha, " and beta = ", beta,
      " must both be multiples of 10^-6 (the protocol computes on integers alpha Q, beta Q)"));
}

}  // namespace

// Longer than a screen: the widths derive one from another in the order of
// the header's formulas (value bits, packing, reciprocal, weights), each
// checked where it is derived.
absl::StatusOr<SecureLdaPlan> SecureLdaPlan::Create(const SecureLdaOptions& options,
                                                    int32_t num_terms,
                                                    std::vector<int64_t> tokens_per_party,
                                                    const crypto::PaillierPublicKey& key,
                                                    const crypto::MpcConfig& config,
                                                    std::vector<int64_t> tokens_per_holder) {
  if (options.num_topics < 1 || options.num_topics > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_topics must be in [1, 65535], got ", options.num_topics));
  }
  if (num_terms < 1) {
    return absl::InvalidArgumentError(absl::StrCat("the vocabulary is empty (V = ", num_terms, ")"));
  }
  const int n = static_cast<int>(tokens_per_party.size());
  if (n != config.num_parties()) {
    return absl::InvalidArgumentError(absl::StrCat("tokens_per_party has ", n,
                                                   " entries but the MPC config has ",
                                                   config.num_parties(), " parties"));
  }
  std::vector<int64_t> tokens_per_owner = std::move(tokens_per_party);
  tokens_per_owner.insert(tokens_per_owner.end(), tokens_per_holder.begin(),
                          tokens_per_holder.end());
  int64_t total = 0;
  std::vector<int64_t> offsets;
  for (size_t o = 0; o < tokens_per_owner.size(); ++o) {
    const int64_t tokens = tokens_per_owner[o];
    if (tokens < 0 || tokens > kMaxTokens - total) {
      return absl::InvalidArgumentError(
          absl::StrCat(o < static_cast<size_t>(n) ? "party " : "data holder ",
                       o < static_cast<size_t>(n) ? o : o - n, " has ", tokens,
                       " tokens: counts must be >= 0 and total at most ", kMaxTokens));
    }
    offsets.push_back(total);
    total += tokens;
  }
  if (total < 1) return absl::InvalidArgumentError("no party holds any token (T = 0)");
  ASSIGN_OR_RETURN(int64_t q, ChooseScale(options.alpha, options.beta));

  // Bounds of the values the selection and the totals carry (header).
  int64_t cell_bound = total, total_bound = total;
  if (options.dp.has_value()) {
    RETURN_IF_ERROR(options.dp->Validate());
    const int64_t b = options.dp->share_bound;
    if (b > ((int64_t{1} << 62) / n) / num_terms) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the DP noise share bound ", b, " over ", num_terms, " terms and ", n,
          " parties overflows 62 bits: lower the vocabulary or raise epsilon"));
    }
    cell_bound = total + n * b;
    total_bound = total + static_cast<int64_t>(n) * num_terms * b + 1;
  }
  const int value_bits = BitWidth(total_bound);
  crypto::PackingOptions packing;
  packing.value_bits = value_bits;
  packing.max_terms = 1;
  packing.mask_parties = n;
  packing.sigma = config.sigma();
  packing.guard_bits = 0;
  ASSIGN_OR_RETURN(crypto::PackingLayout layout, crypto::PackingLayout::Create(packing, key));

  SecureLdaPlan plan(std::move(layout));
  plan.options_ = options;
  plan.num_terms_ = num_terms;
  plan.num_parties_ = n;
  plan.tokens_per_owner_ = std::move(tokens_per_owner);
  plan.token_offsets_ = std::move(offsets);
  plan.total_tokens_ = total;
  plan.scale_ = q;
  plan.alpha_q_ = static_cast<int64_t>(std::llround(options.alpha * static_cast<double>(q)));
  plan.beta_q_ = static_cast<int64_t>(std::llround(options.beta * static_cast<double>(q)));
  plan.value_bits_ = value_bits;

  if (total_bound > (int64_t{1} << 61) / q) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the noisy topic totals (bound ", total_bound, ") times Q = ", q,
        " overflow: raise --dp-epsilon, or use a smaller vocabulary"));
  }
  const int k = BitWidth(q * total_bound + static_cast<int64_t>(num_terms) * plan.beta_q_);
  ASSIGN_OR_RETURN(int precision, crypto::ReciprocalPrecision(config));
  if (k > precision) {
    return absl::InvalidArgumentError(absl::StrCat(
        "normaliser Q T + V B needs ", k, " bits but the reciprocal handles at most ", precision,
        " (T = ", total, " tokens, Q = ", q, "): use fewer tokens or coarser alpha/beta"));
  }
  plan.reciprocal_bits_ = k;
  plan.reciprocal_scale_ = k + kReciprocalMargin;
  const int y_bits = BitWidth(q * total + options.num_topics * plan.alpha_q_);
  const int64_t ab = std::max(plan.alpha_q_, plan.beta_q_);
  const int xy_bits = BitWidth(q * cell_bound + ab) + BitWidth(q * total + ab);
  // Without DP X_k <= Den_k; with DP X_k / Den_k <= (Q M_c + B) / (V B).
  const int64_t vb = static_cast<int64_t>(num_terms) * plan.beta_q_;
  const int ratio_bits =
      options.dp.has_value() ? BitWidth((q * cell_bound + plan.beta_q_ + vb - 1) / vb) : 0;
  plan.draw_.num_topics = options.num_topics;
  plan.draw_.weight_bits = plan.reciprocal_scale_ + y_bits + 1 + ratio_bits;
  plan.draw_.method = options.draw_method;
  plan.draw_.comparison = protocol::DrawComparison::kAuto;
  if (xy_bits > kMaxFieldProductBits || plan.draw_.weight_bits > kMaxFieldProductBits) {
    return absl::InvalidArgumentError(absl::StrCat(
        "weights need ", plan.draw_.weight_bits, " bits (products ", xy_bits,
        "), beyond the field's ", kMaxFieldProductBits, ": use fewer tokens"));
  }
  RETURN_IF_ERROR(protocol::PlanSecureDraw(config, plan.draw_).status());

  plan.ChooseChunkWidth();
  return plan;
}

void SecureLdaPlan::ChooseChunkWidth() {
  const int s = static_cast<int>(layout_.slots());
  const int K = options_.num_topics;
  double best = -1;
  for (int c = std::min(K, s); c >= 1; --c) {
    const int chunks = (K + c - 1) / c;
    const size_t per_ct = static_cast<size_t>(s / c);
    double cost = static_cast<double>(num_terms_) * chunks / kEncryptionsPerDecryption;
    for (int64_t t : tokens_per_owner_) {
      cost += static_cast<double>((static_cast<size_t>(t) * chunks + per_ct - 1) / per_ct);
    }
    if (best < 0 || cost < best) {  // ties keep the wider chunk (fewer matrix ciphertexts)
      best = cost;
      chunk_width_ = c;
      chunks_ = chunks;
      items_per_ciphertext_ = per_ct;
    }
  }
}

int SecureLdaPlan::ChunkTopics(int h) const {
  return std::min(chunk_width_, options_.num_topics - h * chunk_width_);
}

size_t SecureLdaPlan::SelectionCiphertexts(int64_t tokens) const {
  const size_t items = static_cast<size_t>(tokens) * chunks_;
  return (items + items_per_ciphertext_ - 1) / items_per_ciphertext_;
}

size_t SecureLdaPlan::SelectionSlot(int64_t token, int topic) const {
  const int h = topic / chunk_width_;
  const size_t item = static_cast<size_t>(token) * chunks_ + h;
  const size_t ct = item / items_per_ciphertext_;
  const size_t slot = (item % items_per_ciphertext_) * chunk_width_ + (topic - h * chunk_width_);
  return ct * layout_.slots() + slot;
}

uint64_t SecureLdaPlan::PartialDecryptionsPerIteration(int decryptors) const {
  uint64_t cts = TotalsCiphertexts();
  for (int64_t t : tokens_per_owner_) cts += SelectionCiphertexts(t);
  return cts * static_cast<uint64_t>(decryptors);
}

uint64_t SecureLdaPlan::PartialDecryptionsForPublication(int decryptors) const {
  return (MatrixCiphertexts() + TotalsCiphertexts()) * static_cast<uint64_t>(decryptors);
}

}  // namespace pplda::protocol

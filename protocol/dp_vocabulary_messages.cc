#include "protocol/dp_vocabulary_messages.h"

#include <algorithm>
#include <bit>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/paillier/paillier_combiner.h"
#include "crypto/paillier/paillier_evaluator.h"

namespace pplda::protocol {

absl::StatusOr<crypto::PackingLayout> VocabularyPackingLayout(
    const privacy::CandidateUnionPlan& plan, const crypto::PaillierPublicKey& key) {
  crypto::PackingOptions options;
  // |h_p + Z_p| < 2^31 + B <= 2^(max(31, bits(B)) + 1).
  const int bound_bits = std::bit_width(static_cast<uint64_t>(plan.noise.share_bound));
  options.value_bits = std::max(31, bound_bits) + 1;
  options.max_terms = static_cast<uint64_t>(plan.options.parties + plan.options.holders);
  return crypto::PackingLayout::Create(options, key);
}

CountsDigest HolderContributionDigest(const std::string& run_id, int owner,
                                      const std::vector<crypto::Ciphertext>& counts,
                                      const crypto::PaillierPublicKey& key) {
  return CiphertextsDigest(
      absl::StrCat("pplda/dp-vocabulary-holder-contribution/v1\n", run_id, "\n", owner), counts,
      key.ciphertext_bytes());
}

std::vector<uint8_t> EncodeSelection(const std::vector<lda::TermId>& selected) {
  std::vector<uint8_t> out;
  out.reserve(4 * selected.size());
  for (lda::TermId u : selected) {
    const auto v = static_cast<uint32_t>(u);
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<uint8_t>(v >> (8 * b)));
  }
  return out;
}

absl::StatusOr<std::vector<lda::TermId>> DecodeSelection(const std::vector<uint8_t>& bytes) {
  if (bytes.size() % 4 != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("a DP vocabulary selection of ", bytes.size(), " bytes (4 per term id)"));
  }
  std::vector<lda::TermId> out(bytes.size() / 4);
  for (size_t i = 0; i < out.size(); ++i) {
    uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= static_cast<uint32_t>(bytes[4 * i + b]) << (8 * b);
    out[i] = static_cast<lda::TermId>(v);
  }
  return out;
}

std::vector<crypto::Ciphertext> SumContributions(
    const crypto::PaillierPublicKey& key,
    absl::Span<const VocabularyContribution* const> by_party) {
  crypto::PaillierEvaluator evaluator(key);
  const size_t length = by_party.empty() ? 0 : by_party[0]->counts.size();
  std::vector<crypto::Ciphertext> sum(length);
  std::vector<crypto::Ciphertext> column(by_party.size());
  for (size_t j = 0; j < length; ++j) {
    for (size_t p = 0; p < by_party.size(); ++p) column[p] = by_party[p]->counts[j];
    sum[j] = evaluator.Sum(column);
  }
  return sum;
}

absl::StatusOr<std::vector<int64_t>> DecodeNoisyCandidateCounts(
    const crypto::ThresholdPublicKeyPtr& key, const crypto::PackingLayout& layout,
    const std::vector<crypto::Ciphertext>& sum,
    absl::Span<const crypto::PartialDecryptionBatch> batches, int32_t candidates,
    ThreadPool* pool) {
  if (static_cast<int>(batches.size()) < key->threshold()) {
    return absl::FailedPreconditionError(absl::StrCat("the DP vocabulary needs ", key->threshold(),
                                                      " decryption shares, got ", batches.size()));
  }
  crypto::PaillierCombiner combiner(key);
  for (const crypto::PartialDecryptionBatch& b : batches) {
    absl::Status verified = combiner.VerifyBatch(sum, b, pool);
    if (!verified.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("DP vocabulary decryption share from party ",
                                                     b.party - 1, ": ", verified.message()));
    }
  }
  ASSIGN_OR_RETURN(std::vector<mpz_class> plain, combiner.CombineBatch(batches, pool));
  return layout.UnpackInt64(plain, static_cast<size_t>(candidates));
}

}  // namespace pplda::protocol

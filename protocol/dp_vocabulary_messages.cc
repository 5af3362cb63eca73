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
  options.max_terms = static_cast<uint64_t>(plan.options.parties);
  return crypto::PackingLayout::Create(options, key);
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

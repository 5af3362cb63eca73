#include "crypto/conversion/share_conversion.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"
#include "crypto/paillier/paillier_serialization.h"

namespace pplda::crypto {
namespace {

constexpr int kMaxSlotSumBits = 125;  // |d| < 2^125 < (p - 1) / 2

// Appends an 8-byte little-endian length, then the bytes.
void AppendFramed(absl::Span<const uint8_t> part, std::vector<uint8_t>& out) {
  uint64_t len = part.size();
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(len >> (8 * i)));
  out.insert(out.end(), part.begin(), part.end());
}

absl::StatusOr<absl::Span<const uint8_t>> ReadFramed(absl::Span<const uint8_t> bytes,
                                                     size_t& offset, std::string_view what) {
  if (bytes.size() - offset < 8) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(what), ": message truncated (no frame length)"));
  }
  uint64_t len = 0;
  for (int i = 7; i >= 0; --i) len = (len << 8) | bytes[offset + i];
  offset += 8;
  if (bytes.size() - offset < len) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(what), ": frame of ", len, " bytes but only ", bytes.size() - offset,
        " remain"));
  }
  absl::Span<const uint8_t> part = bytes.subspan(offset, len);
  offset += len;
  return part;
}

absl::Span<const uint8_t> AsBytes(const std::string& s) {
  return absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

template <typename Proto>
absl::Status ParseProto(absl::Span<const uint8_t> bytes, Proto& proto, std::string_view what) {
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(what), ": not a valid ", proto.GetTypeName(), " message"));
  }
  return absl::OkStatus();
}

}  // namespace

FieldElement FieldElementFromMpz(const mpz_class& x) {
  static const mpz_class kP = (mpz_class(1) << FieldElement::kBits) - 1;
  mpz_class r;
  mpz_fdiv_r(r.get_mpz_t(), x.get_mpz_t(), kP.get_mpz_t());  // 0 <= r < p
  uint64_t words[2] = {0, 0};
  size_t written = 0;
  mpz_export(words, &written, -1, sizeof(uint64_t), 0, 0, r.get_mpz_t());
  Wipe(r);
  return FieldElement::FromUint128((static_cast<uint128>(words[1]) << 64) | words[0]);
}

absl::StatusOr<CiphertextToShares> CiphertextToShares::Create(
    const PaillierKeyShare& key_share, const PackingLayout& layout,
    const PaillierEncryptor& encryptor, ThreadPool* pool) {
  if (!(encryptor.public_key() == key_share.public_key()->paillier())) {
    return absl::InvalidArgumentError(
        "ciphertext-to-share conversion: the encryptor's public key is not the key share's");
  }
  if (layout.options().mask_parties < 1) {
    return absl::InvalidArgumentError(
        "ciphertext-to-share conversion: the packing layout has no conversion masks "
        "(PackingOptions.mask_parties = 0); set it to the number of compute parties");
  }
  if (layout.sum_bits() > kMaxSlotSumBits) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ciphertext-to-share conversion: slot values of ", layout.sum_bits(),
        " bits do not fit the 127-bit share field (at most ", kMaxSlotSumBits, ")"));
  }
  return CiphertextToShares(key_share, layout, encryptor, pool);
}

absl::Status CiphertextToShares::CheckEngine(const MpcEngine& engine) const {
  const ThresholdPublicKey& key = *key_share_->public_key();
  if (key.num_parties() != engine.num_parties()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ciphertext-to-share conversion: the Paillier key has ", key.num_parties(),
        " parties but the MPC engine has ", engine.num_parties()));
  }
  if (key_share_->party() != engine.party_id() + 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ciphertext-to-share conversion: MPC party ", engine.party_id(),
        " must hold Paillier key share ", engine.party_id() + 1, ", not share ",
        key_share_->party()));
  }
  if (layout_->options().mask_parties != engine.num_parties()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ciphertext-to-share conversion: the packing layout reserves masks of ",
        layout_->options().mask_parties, " parties but ", engine.num_parties(),
        " parties add masks"));
  }
  if (layout_->options().sigma < engine.config().sigma()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ciphertext-to-share conversion: the packing layout's sigma = ",
        layout_->options().sigma, " is below the engine's sigma = ", engine.config().sigma()));
  }
  return absl::OkStatus();
}

absl::StatusOr<Shares> CiphertextToShares::Convert(MpcEngine& engine,
                                                   absl::Span<const Ciphertext> ciphertexts,
                                                   size_t count) const {
  RETURN_IF_ERROR(CheckEngine(engine));
  const size_t plaintexts = layout_->NumPlaintexts(count);
  if (ciphertexts.size() != plaintexts) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ciphertext-to-share conversion: ", count, " values need ", plaintexts,
        " packed ciphertexts (", layout_->slots(), " slots each), got ", ciphertexts.size()));
  }
  const ThresholdPublicKey& key = *key_share_->public_key();
  RETURN_IF_ERROR(key.paillier().ValidateCiphertexts(
      ciphertexts.size(), [&](size_t k) -> const mpz_class& { return ciphertexts[k].value; },
      [](size_t k) { return absl::StrCat("conversion input ciphertext ", k); }, pool_));
  if (count == 0) return Shares();
  const int n = engine.num_parties(), me = engine.party_id();

  // Round 1: encrypted packed masks and Shamir shares of the masks mod p.
  std::vector<mpz_class> masks(count);
  FieldVector mask_values(count);
  for (size_t i = 0; i < count; ++i) {
    masks[i] = engine.rng().UniformBelow(layout_->mask_bound());
    mask_values[i] = FieldElementFromMpz(masks[i]);
  }
  ASSIGN_OR_RETURN(std::vector<mpz_class> packed_masks, layout_->PackMasks(masks));
  for (mpz_class& m : masks) Wipe(m);
  ASSIGN_OR_RETURN(std::vector<Ciphertext> my_mask_cts,
                   encryptor_->EncryptBatch(packed_masks, pool_));
  for (mpz_class& m : packed_masks) Wipe(m);
  const std::string mask_ct_bytes = CiphertextBatchToProto(key, my_mask_cts).SerializeAsString();
  std::vector<FieldVector> mask_shares =
      engine.config().shamir().Share(mask_values, engine.threshold(), engine.rng());
  std::vector<std::vector<uint8_t>> payloads(n);
  for (int j = 0; j < n; ++j) {
    if (j == me) continue;
    std::vector<uint8_t> encoded;
    AppendEncoded(mask_shares[j], encoded);
    AppendFramed(encoded, payloads[j]);
    AppendFramed(AsBytes(mask_ct_bytes), payloads[j]);
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> received,
                   engine.ExchangeWithAll(std::move(payloads)));
  Shares mask_sum(std::move(mask_shares[me]));
  std::vector<std::vector<Ciphertext>> mask_cts(n);
  mask_cts[me] = std::move(my_mask_cts);
  for (int j = 0; j < n; ++j) {
    if (j == me) continue;
    const std::string what = absl::StrCat("conversion masks from party ", j);
    size_t offset = 0;
    ASSIGN_OR_RETURN(absl::Span<const uint8_t> shares, ReadFramed(received[j], offset, what));
    RETURN_IF_ERROR(DecodeAndAccumulate(shares, FieldElement::One(),
                                        absl::MakeSpan(mask_sum.mutable_values()), what));
    ASSIGN_OR_RETURN(absl::Span<const uint8_t> cts, ReadFramed(received[j], offset, what));
    if (offset != received[j].size()) {
      return absl::InvalidArgumentError(absl::StrCat(what, ": ", received[j].size() - offset,
                                                     " unexpected trailing bytes"));
    }
    pplda::v1::CiphertextBatch proto;
    RETURN_IF_ERROR(ParseProto(cts, proto, what));
    ASSIGN_OR_RETURN(mask_cts[j], CiphertextBatchFromProto(key, proto, plaintexts));
  }

  // Round 2: partial decryptions of the masked ciphertexts.
  std::vector<Ciphertext> masked(ciphertexts.begin(), ciphertexts.end());
  for (int p = 0; p < n; ++p) {
    ASSIGN_OR_RETURN(masked, evaluator_.AddBatch(masked, mask_cts[p], pool_));
  }
  // Only the first key.threshold() parties decrypt (any threshold-many
  // partials combine; with the additive scheme that is all n): the others
  // send nothing in this round and combine what they receive.
  const int decryptors = key.threshold();
  std::vector<PartialDecryptionBatch> partials(decryptors);
  std::vector<std::vector<uint8_t>> partial_payloads(n);
  if (me < decryptors) {
    if (proof_rng_ != nullptr) {
      ASSIGN_OR_RETURN(partials[me],
                       key_share_->PartialDecryptBatchWithProofs(masked, *proof_rng_, pool_));
    } else {
      ASSIGN_OR_RETURN(partials[me], key_share_->PartialDecryptBatch(masked, pool_));
    }
    const std::string partial_bytes =
        PartialDecryptionBatchToProto(key, partials[me]).SerializeAsString();
    for (int j = 0; j < n; ++j) {
      if (j != me) partial_payloads[j].assign(partial_bytes.begin(), partial_bytes.end());
    }
  }
  ASSIGN_OR_RETURN(received, engine.ExchangeWithAll(std::move(partial_payloads)));
  for (int j = 0; j < n; ++j) {
    if (j == me) continue;
    const std::string what = absl::StrCat("partial decryptions from party ", j);
    if (j >= decryptors) {
      if (!received[j].empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            what, ": unexpected (only parties 0..", decryptors - 1, " decrypt)"));
      }
      continue;
    }
    pplda::v1::PartialDecryptionBatch proto;
    RETURN_IF_ERROR(ParseProto(received[j], proto, what));
    ASSIGN_OR_RETURN(partials[j], PartialDecryptionBatchFromProto(key, proto, plaintexts));
    if (partials[j].party != j + 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, ": the batch is signed as Paillier party ", partials[j].party, ", expected ",
          j + 1));
    }
    if (proof_rng_ != nullptr) {
      absl::Status verified = combiner_.VerifyBatch(masked, partials[j], pool_);
      if (!verified.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(what, ": ", verified.message()));
      }
    }
  }
  ASSIGN_OR_RETURN(std::vector<mpz_class> opened, combiner_.CombineBatch(partials, pool_));
  ASSIGN_OR_RETURN(std::vector<mpz_class> slots, layout_->UnpackMasked(opened, count));
  // <d_i> = (d_i + sum_p R_{p,i}) - sum_p <r_{p,i}>.
  Shares out(count);
  for (size_t i = 0; i < count; ++i) out[i] = FieldElementFromMpz(slots[i]) - mask_sum[i];
  return out;
}

}  // namespace pplda::crypto

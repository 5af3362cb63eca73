#include "crypto/paillier/paillier_serialization.h"

#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"
#include "crypto/paillier/decryption_proof.h"

namespace pplda::crypto {
namespace {

namespace pb = ::pplda::v1;

std::string ElementBytes(const PaillierPublicKey& key, const mpz_class& x) {
  // Elements of Z*_{N^2} always fit ciphertext_bytes().
  return ToFixedBytes(x, key.ciphertext_bytes()).value();
}

// The value of an element's bytes, its length checked; the caller checks
// that it is in Z*_{N^2} (ParseElement, or ValidateCiphertexts for a batch).
absl::StatusOr<mpz_class> ParseElementBytes(const PaillierPublicKey& key,
                                            const std::string& bytes, const std::string& what) {
  if (bytes.size() != key.ciphertext_bytes()) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " has ", bytes.size(), " bytes, expected exactly ", key.ciphertext_bytes(),
        " for a ", key.modulus_bits(), "-bit key (truncated or oversized value)"));
  }
  return FromBytes(bytes);
}

absl::StatusOr<mpz_class> ParseElement(const PaillierPublicKey& key, const std::string& bytes,
                                       const std::string& what) {
  ASSIGN_OR_RETURN(mpz_class x, ParseElementBytes(key, bytes, what));
  RETURN_IF_ERROR(key.ValidateCiphertext(x, what));
  return x;
}

absl::Status CheckVersion(uint32_t version, std::string_view what) {
  if (version != kPaillierFormatVersion) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(what), ": format_version ",
                                                   version, " is not supported (expected ",
                                                   kPaillierFormatVersion, ")"));
  }
  return absl::OkStatus();
}

absl::Status CheckFingerprint(const ThresholdPublicKey& key, const std::string& fingerprint,
                              std::string_view what) {
  const auto& expected = key.fingerprint();
  if (fingerprint.size() != expected.size() ||
      std::memcmp(fingerprint.data(), expected.data(), expected.size()) != 0) {
    const std::string got = fingerprint.size() >= 8
                                ? absl::BytesToHexString(absl::string_view(fingerprint.data(), 8))
                                : std::string("(malformed)");
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(what), " is for key ", got, ", not for this key ", key.short_fingerprint()));
  }
  return absl::OkStatus();
}

absl::Status CheckCount(size_t got, size_t expected, std::string_view what) {
  if (expected == kAnyCount ? got > kMaxBatchValues : got != expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(what), " holds ", got, " values, expected ",
        expected == kAnyCount ? absl::StrCat("at most ", kMaxBatchValues)
                              : absl::StrCat(expected)));
  }
  return absl::OkStatus();
}

pb::SharingScheme SchemeToProto(SharingScheme s) {
  return s == SharingScheme::kAdditive ? pb::SHARING_SCHEME_ADDITIVE : pb::SHARING_SCHEME_SHAMIR;
}

pb::KeyOrigin OriginToProto(KeyOrigin o) {
  switch (o) {
    case KeyOrigin::kTrustedDealer:
      return pb::KEY_ORIGIN_TRUSTED_DEALER;
    case KeyOrigin::kDistributed:
      return pb::KEY_ORIGIN_DISTRIBUTED;
    case KeyOrigin::kUnspecified:
      break;
  }
  return pb::KEY_ORIGIN_UNSPECIFIED;
}

KeyOrigin OriginFromProto(pb::KeyOrigin o) {
  switch (o) {
    case pb::KEY_ORIGIN_TRUSTED_DEALER:
      return KeyOrigin::kTrustedDealer;
    case pb::KEY_ORIGIN_DISTRIBUTED:
      return KeyOrigin::kDistributed;
    default:
      return KeyOrigin::kUnspecified;
  }
}

}  // namespace

pb::ThresholdPaillierPublicKey ThresholdPublicKeyToProto(const ThresholdPublicKey& key) {
  pb::ThresholdPaillierPublicKey out;
  out.set_format_version(kPaillierFormatVersion);
  out.set_modulus(ToMinimalBytes(key.n()));
  out.set_scheme(SchemeToProto(key.scheme()));
  out.set_num_parties(static_cast<uint32_t>(key.num_parties()));
  out.set_threshold(static_cast<uint32_t>(key.threshold()));
  out.set_verification_base(ElementBytes(key.paillier(), key.verification_base()));
  for (int i = 1; i <= key.num_parties(); ++i) {
    out.add_verification_keys(ElementBytes(key.paillier(), key.verification_key(i)));
  }
  out.set_origin(OriginToProto(key.origin()));
  return out;
}

absl::StatusOr<ThresholdPublicKeyPtr> ThresholdPublicKeyFromProto(
    const pb::ThresholdPaillierPublicKey& proto) {
  RETURN_IF_ERROR(CheckVersion(proto.format_version(), "public key"));
  if (proto.modulus().size() > kMaxModulusBits / 8) {
    return absl::InvalidArgumentError(absl::StrCat("public key: modulus has ",
                                                   proto.modulus().size(),
                                                   " bytes, more than ", kMaxModulusBits / 8));
  }
  ASSIGN_OR_RETURN(PaillierPublicKey paillier, PaillierPublicKey::Create(FromBytes(proto.modulus())));
  SharingScheme scheme;
  if (proto.scheme() == pb::SHARING_SCHEME_ADDITIVE) {
    scheme = SharingScheme::kAdditive;
  } else if (proto.scheme() == pb::SHARING_SCHEME_SHAMIR) {
    scheme = SharingScheme::kShamir;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("public key: scheme ", static_cast<int>(proto.scheme()), " is unknown"));
  }
  if (proto.num_parties() > static_cast<uint32_t>(kMaxParties) ||
      proto.threshold() > static_cast<uint32_t>(kMaxParties)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "public key: num_parties = ", proto.num_parties(), ", threshold = ", proto.threshold(),
        " exceed ", kMaxParties));
  }
  ASSIGN_OR_RETURN(mpz_class v, ParseElement(paillier, proto.verification_base(),
                                             "public key: verification_base"));
  if (proto.verification_keys_size() != static_cast<int>(proto.num_parties())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "public key: ", proto.verification_keys_size(), " verification_keys for ",
        proto.num_parties(), " parties"));
  }
  std::vector<mpz_class> vks;
  for (int i = 0; i < proto.verification_keys_size(); ++i) {
    ASSIGN_OR_RETURN(mpz_class vk,
                     ParseElement(paillier, proto.verification_keys(i),
                                  absl::StrCat("public key: verification_keys[", i, "]")));
    vks.push_back(std::move(vk));
  }
  return ThresholdPublicKey::Create(std::move(paillier), scheme,
                                    static_cast<int>(proto.num_parties()),
                                    static_cast<int>(proto.threshold()), std::move(v),
                                    std::move(vks), OriginFromProto(proto.origin()));
}

pb::PaillierKeyShare KeyShareToProto(const PaillierKeyShare& share) {
  pb::PaillierKeyShare out;
  out.set_format_version(kPaillierFormatVersion);
  *out.mutable_public_key() = ThresholdPublicKeyToProto(*share.public_key());
  out.set_party_index(static_cast<uint32_t>(share.party()));
  std::string secret = ToMinimalBytes(share.secret_share());
  out.set_secret_share(secret);
  WipeString(secret);
  return out;
}

void WipeKeyShareProto(pb::PaillierKeyShare& proto) {
  WipeString(*proto.mutable_secret_share());
}

absl::StatusOr<PaillierKeyShare> KeyShareFromProto(const pb::PaillierKeyShare& proto) {
  RETURN_IF_ERROR(CheckVersion(proto.format_version(), "key share"));
  if (!proto.has_public_key()) {
    return absl::InvalidArgumentError("key share: public_key is missing");
  }
  ASSIGN_OR_RETURN(ThresholdPublicKeyPtr key, ThresholdPublicKeyFromProto(proto.public_key()));
  if (proto.secret_share().size() > key->paillier().ciphertext_bytes() + 16) {
    return absl::InvalidArgumentError(absl::StrCat(
        "key share: secret_share has ", proto.secret_share().size(), " bytes, more than ",
        key->paillier().ciphertext_bytes() + 16));
  }
  if (proto.party_index() > static_cast<uint32_t>(kMaxParties)) {
    return absl::InvalidArgumentError(
        absl::StrCat("key share: party_index ", proto.party_index(), " is out of range"));
  }
  SecretInt share(FromBytes(proto.secret_share()));
  return PaillierKeyShare::Create(std::move(key), static_cast<int>(proto.party_index()),
                                  std::move(share));
}

pb::CiphertextBatch CiphertextBatchToProto(const ThresholdPublicKey& key,
                                           absl::Span<const Ciphertext> ciphertexts) {
  pb::CiphertextBatch out;
  out.set_key_fingerprint(std::string(reinterpret_cast<const char*>(key.fingerprint().data()),
                                      key.fingerprint().size()));
  for (const Ciphertext& c : ciphertexts) {
    out.add_ciphertexts(ElementBytes(key.paillier(), c.value));
  }
  return out;
}

absl::StatusOr<std::vector<Ciphertext>> CiphertextBatchFromProto(
    const ThresholdPublicKey& key, const pb::CiphertextBatch& proto, size_t expected_count) {
  RETURN_IF_ERROR(CheckFingerprint(key, proto.key_fingerprint(), "ciphertext batch"));
  RETURN_IF_ERROR(CheckCount(static_cast<size_t>(proto.ciphertexts_size()), expected_count,
                             "ciphertext batch"));
  std::vector<Ciphertext> out(static_cast<size_t>(proto.ciphertexts_size()));
  // Lengths first, then membership of Z*_{N^2} in batches; the error is the
  // lowest bad index's either way.
  auto validate_first = [&](size_t count) {
    return key.paillier().ValidateCiphertexts(
        count, [&](size_t i) -> const mpz_class& { return out[i].value; },
        [](size_t i) { return absl::StrCat("ciphertext ", i); });
  };
  for (int i = 0; i < proto.ciphertexts_size(); ++i) {
    absl::StatusOr<mpz_class> x = ParseElementBytes(key.paillier(), proto.ciphertexts(i),
                                                    absl::StrCat("ciphertext ", i));
    if (!x.ok()) {
      RETURN_IF_ERROR(validate_first(static_cast<size_t>(i)));
      return x.status();
    }
    out[static_cast<size_t>(i)].value = *std::move(x);
  }
  RETURN_IF_ERROR(validate_first(out.size()));
  return out;
}

pb::PartialDecryptionBatch PartialDecryptionBatchToProto(const ThresholdPublicKey& key,
                                                         const PartialDecryptionBatch& batch) {
  pb::PartialDecryptionBatch out;
  out.set_key_fingerprint(std::string(reinterpret_cast<const char*>(key.fingerprint().data()),
                                      key.fingerprint().size()));
  out.set_party_index(static_cast<uint32_t>(batch.party));
  for (const mpz_class& v : batch.values) out.add_values(ElementBytes(key.paillier(), v));
  for (const DecryptionProof& p : batch.proofs) {
    pb::DecryptionProof* proof = out.add_proofs();
    proof->set_challenge(ToFixedBytes(p.challenge, kProofChallengeBits / 8).value());
    proof->set_response(ToMinimalBytes(p.response));
  }
  return out;
}

absl::StatusOr<PartialDecryptionBatch> PartialDecryptionBatchFromProto(
    const ThresholdPublicKey& key, const pb::PartialDecryptionBatch& proto,
    size_t expected_count) {
  const std::string who = absl::StrCat("partial decryption batch of party ",
                                       proto.party_index());
  RETURN_IF_ERROR(CheckFingerprint(key, proto.key_fingerprint(), who));
  if (proto.party_index() > static_cast<uint32_t>(kMaxParties)) {
    return absl::InvalidArgumentError(absl::StrCat(who, ": party is not in this key"));
  }
  PartialDecryptionBatch out;
  out.party = static_cast<int>(proto.party_index());
  RETURN_IF_ERROR(key.ValidateParty(out.party, who));
  RETURN_IF_ERROR(CheckCount(static_cast<size_t>(proto.values_size()), expected_count, who));
  if (proto.proofs_size() != 0 && proto.proofs_size() != proto.values_size()) {
    return absl::InvalidArgumentError(absl::StrCat(who, ": ", proto.proofs_size(),
                                                   " proofs for ", proto.values_size(),
                                                   " values"));
  }
  out.values.resize(static_cast<size_t>(proto.values_size()));
  auto validate_first = [&](size_t count) {
    return key.paillier().ValidateCiphertexts(
        count, [&](size_t i) -> const mpz_class& { return out.values[i]; },
        [&](size_t i) { return absl::StrCat(who, ": value ", i); });
  };
  for (int i = 0; i < proto.values_size(); ++i) {
    absl::StatusOr<mpz_class> x =
        ParseElementBytes(key.paillier(), proto.values(i), absl::StrCat(who, ": value ", i));
    if (!x.ok()) {
      RETURN_IF_ERROR(validate_first(static_cast<size_t>(i)));
      return x.status();
    }
    out.values[static_cast<size_t>(i)] = *std::move(x);
  }
  RETURN_IF_ERROR(validate_first(out.values.size()));
  const size_t max_response_bytes = key.paillier().ciphertext_bytes() + 128;
  for (int i = 0; i < proto.proofs_size(); ++i) {
    const pb::DecryptionProof& p = proto.proofs(i);
    if (p.challenge().size() != kProofChallengeBits / 8 ||
        p.response().size() > max_response_bytes) {
      return absl::InvalidArgumentError(
          absl::StrCat(who, ": proof ", i, " has a malformed challenge or response"));
    }
    out.proofs.push_back(DecryptionProof{FromBytes(p.challenge()), FromBytes(p.response())});
  }
  return out;
}

}  // namespace pplda::crypto

// Serialized forms: round trips and every rejection a receiver relies on.
#include "crypto/paillier/paillier_serialization.h"

#include <string>
#include <vector>

#include "crypto/arith/big_int.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::StatusIs;

const DealtKey& Key() {
  static const DealtKey key = MakeTestKey(1024, SharingScheme::kShamir, 3, 2, 51).value();
  return key;
}
const ThresholdPublicKey& Pk() { return *Key().public_key; }

std::vector<Ciphertext> SomeCiphertexts(int count) {
  static SeededRng rng(52);
  auto enc = PaillierEncryptor::Create(Pk().paillier(), rng).value();
  std::vector<Ciphertext> out;
  for (int i = 0; i < count; ++i) out.push_back(enc->Encrypt(mpz_class(i * 1000 + 7)).value());
  return out;
}

TEST(PublicKeySerializationTest, RoundTripsAndKeepsFingerprint) {
  auto proto = ThresholdPublicKeyToProto(Pk());
  EXPECT_EQ(proto.format_version(), 1u);
  EXPECT_EQ(proto.origin(), pplda::v1::KEY_ORIGIN_TRUSTED_DEALER);
  EXPECT_EQ(proto.verification_keys_size(), 3);
  std::string bytes;
  ASSERT_TRUE(proto.SerializeToString(&bytes));
  pplda::v1::ThresholdPaillierPublicKey parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  auto back = ThresholdPublicKeyFromProto(parsed);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ((*back)->fingerprint(), Pk().fingerprint());
  EXPECT_EQ((*back)->n(), Pk().n());
  EXPECT_EQ((*back)->threshold(), 2);
  EXPECT_EQ((*back)->scheme(), SharingScheme::kShamir);
  EXPECT_EQ((*back)->origin(), KeyOrigin::kTrustedDealer);
}

TEST(PublicKeySerializationTest, RejectsMalformedKeys) {
  const auto good = ThresholdPublicKeyToProto(Pk());
  auto p = good;
  p.set_format_version(2);
  EXPECT_THAT(ThresholdPublicKeyFromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument, "public key: format_version 2"));
  p = good;
  p.set_modulus(p.modulus().substr(0, 64));  // a 512-bit modulus
  EXPECT_THAT(ThresholdPublicKeyFromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument, "modulus of 512 bits is not supported"));
  p = good;
  p.set_modulus(std::string(2000, '\x01'));
  EXPECT_THAT(ThresholdPublicKeyFromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument, "modulus has 2000 bytes"));
  p = good;
  p.set_scheme(pplda::v1::SHARING_SCHEME_UNSPECIFIED);
  EXPECT_THAT(ThresholdPublicKeyFromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument, "scheme 0 is unknown"));
  p = good;
  p.set_threshold(4);
  EXPECT_THAT(ThresholdPublicKeyFromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument, "threshold = 4 is outside"));
  p = good;
  p.set_scheme(pplda::v1::SHARING_SCHEME_ADDITIVE);
  EXPECT_THAT(ThresholdPublicKeyFromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument, "needs threshold = num_parties"));
  p = good;
  p.mutable_verification_keys()->RemoveLast();
  EXPECT_THAT(ThresholdPublicKeyFromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument, "2 verification_keys for 3 parties"));
  p = good;
  p.set_verification_keys(1, p.verification_keys(1).substr(1));
  EXPECT_THAT(ThresholdPublicKeyFromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "verification_keys[1] has 255 bytes, expected exactly 256"));
  p = good;
  p.set_verification_base(std::string(256, '\0'));
  EXPECT_THAT(ThresholdPublicKeyFromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "verification_base is not in Z*_{N^2}: outside (0, N^2)"));
  p = good;
  p.set_num_parties(1000);
  EXPECT_THAT(ThresholdPublicKeyFromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument, "num_parties = 1000"));
}

TEST(KeyShareSerializationTest, RoundTripsAndChecksConsistency) {
  auto proto = KeyShareToProto(Key().shares[1]);
  EXPECT_EQ(proto.party_index(), 2u);
  auto back = KeyShareFromProto(proto);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->party(), 2);
  EXPECT_EQ(back->secret_share(), Key().shares[1].secret_share());

  auto wrong_party = proto;
  wrong_party.set_party_index(3);
  EXPECT_THAT(KeyShareFromProto(wrong_party),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "key share of party 3 does not match verification key 3"));
  auto tampered = proto;
  std::string secret = tampered.secret_share();
  secret.back() ^= 1;
  tampered.set_secret_share(secret);
  EXPECT_THAT(KeyShareFromProto(tampered),
              StatusIs(absl::StatusCode::kInvalidArgument, "does not match"));
  auto no_key = proto;
  no_key.clear_public_key();
  EXPECT_THAT(KeyShareFromProto(no_key),
              StatusIs(absl::StatusCode::kInvalidArgument, "public_key is missing"));
  auto huge = proto;
  huge.set_secret_share(std::string(400, '\x7f'));
  EXPECT_THAT(KeyShareFromProto(huge),
              StatusIs(absl::StatusCode::kInvalidArgument, "secret_share has 400 bytes"));
  auto version = proto;
  version.set_format_version(0);
  EXPECT_THAT(KeyShareFromProto(version),
              StatusIs(absl::StatusCode::kInvalidArgument, "key share: format_version 0"));

  WipeKeyShareProto(proto);
  EXPECT_TRUE(proto.secret_share().empty());
}

TEST(CiphertextBatchTest, RoundTripsWithFixedLengthEncoding) {
  const auto cts = SomeCiphertexts(4);
  auto proto = CiphertextBatchToProto(Pk(), cts);
  ASSERT_EQ(proto.ciphertexts_size(), 4);
  for (const std::string& c : proto.ciphertexts()) EXPECT_EQ(c.size(), 256u);
  auto back = CiphertextBatchFromProto(Pk(), proto, 4);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, cts);
  EXPECT_TRUE(CiphertextBatchFromProto(Pk(), proto, kAnyCount).ok());
}

TEST(CiphertextBatchTest, RejectsEveryMalformedValue) {
  const auto good = CiphertextBatchToProto(Pk(), SomeCiphertexts(3));
  auto p = good;
  p.set_ciphertexts(1, good.ciphertexts(1).substr(0, 255));
  EXPECT_THAT(CiphertextBatchFromProto(Pk(), p, 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "ciphertext 1 has 255 bytes, expected exactly 256 for a 1024-bit key "
                       "(truncated or oversized value)"));
  p = good;
  p.set_ciphertexts(2, good.ciphertexts(2) + "x");
  EXPECT_THAT(CiphertextBatchFromProto(Pk(), p, 3),
              StatusIs(absl::StatusCode::kInvalidArgument, "ciphertext 2 has 257 bytes"));
  p = good;
  p.set_ciphertexts(0, std::string(256, '\xff'));
  EXPECT_THAT(CiphertextBatchFromProto(Pk(), p, 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "ciphertext 0 is not in Z*_{N^2}: outside (0, N^2)"));
  p = good;
  p.set_ciphertexts(0, std::string(256, '\0'));
  EXPECT_THAT(CiphertextBatchFromProto(Pk(), p, 3),
              StatusIs(absl::StatusCode::kInvalidArgument, "outside (0, N^2)"));
  p = good;
  const mpz_class prime = TestSafePrimes(1024).value().second;
  p.set_ciphertexts(1, ToFixedBytes(prime * 3, 256).value());
  EXPECT_THAT(CiphertextBatchFromProto(Pk(), p, 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "ciphertext 1 is not in Z*_{N^2}: not coprime to N"));
  EXPECT_THAT(CiphertextBatchFromProto(Pk(), good, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, "holds 3 values, expected 2"));
  auto other = MakeTestKey(1024, SharingScheme::kShamir, 3, 2, 53).value();
  EXPECT_THAT(CiphertextBatchFromProto(*other.public_key, good, 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("ciphertext batch is for key ", Pk().short_fingerprint(),
                                    ", not for this key ",
                                    other.public_key->short_fingerprint())));
  p = good;
  p.set_key_fingerprint("short");
  EXPECT_THAT(CiphertextBatchFromProto(Pk(), p, 3),
              StatusIs(absl::StatusCode::kInvalidArgument, "is for key (malformed)"));
}

TEST(PartialDecryptionBatchTest, RoundTripsWithProofsAndCombines) {
  const auto cts = SomeCiphertexts(3);
  SeededRng rng(54);
  auto batch = Key().shares[2].PartialDecryptBatchWithProofs(cts, rng, nullptr).value();
  auto proto = PartialDecryptionBatchToProto(Pk(), batch);
  EXPECT_EQ(proto.party_index(), 3u);
  auto back = PartialDecryptionBatchFromProto(Pk(), proto, 3);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->values, batch.values);
  ASSERT_EQ(back->proofs.size(), 3u);
  PaillierCombiner combiner(Key().public_key);
  EXPECT_TRUE(combiner.VerifyBatch(cts, *back, nullptr).ok());
  auto first = Key().shares[0].PartialDecryptBatch(cts, nullptr).value();
  auto first_back =
      PartialDecryptionBatchFromProto(Pk(), PartialDecryptionBatchToProto(Pk(), first), 3);
  ASSERT_TRUE(first_back.ok());
  EXPECT_TRUE(first_back->proofs.empty());
  auto plain = combiner.CombineBatch({*first_back, *back}, nullptr);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(*plain, (std::vector<mpz_class>{7, 1007, 2007}));
}

TEST(PartialDecryptionBatchTest, RejectsForeignPartiesCountsAndProofs) {
  const auto cts = SomeCiphertexts(2);
  SeededRng rng(55);
  auto batch = Key().shares[0].PartialDecryptBatchWithProofs(cts, rng, nullptr).value();
  const auto good = PartialDecryptionBatchToProto(Pk(), batch);
  auto p = good;
  p.set_party_index(4);
  EXPECT_THAT(PartialDecryptionBatchFromProto(Pk(), p, 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "partial decryption batch of party 4: party 4 is not in this key"));
  p.set_party_index(4000000000u);
  EXPECT_THAT(PartialDecryptionBatchFromProto(Pk(), p, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, "party is not in this key"));
  EXPECT_THAT(PartialDecryptionBatchFromProto(Pk(), good, 3),
              StatusIs(absl::StatusCode::kInvalidArgument, "holds 2 values, expected 3"));
  p = good;
  p.mutable_proofs()->RemoveLast();
  EXPECT_THAT(PartialDecryptionBatchFromProto(Pk(), p, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, "1 proofs for 2 values"));
  p = good;
  p.mutable_proofs(0)->set_challenge("abc");
  EXPECT_THAT(PartialDecryptionBatchFromProto(Pk(), p, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, "proof 0 has a malformed challenge"));
  p = good;
  p.set_values(1, std::string(256, '\0'));
  EXPECT_THAT(PartialDecryptionBatchFromProto(Pk(), p, 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "partial decryption batch of party 1: value 1 is not in Z*_{N^2}"));
  p = good;
  p.set_key_fingerprint(std::string(32, 'k'));
  EXPECT_THAT(PartialDecryptionBatchFromProto(Pk(), p, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, "not for this key"));
}

}  // namespace
}  // namespace pplda::crypto

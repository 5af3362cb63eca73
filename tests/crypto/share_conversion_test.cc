#include "crypto/conversion/share_conversion.h"

#include "absl/status/status.h"
#include "crypto/mpc/mpc_testing.h"
#include "crypto/paillier/paillier_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

constexpr int kValueBits = 30;

class ShareConversionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // 1024-bit test key from fixed primes (fast; never for real use).
    dealt_ = std::make_unique<DealtKey>(MakeTestKey(1024, SharingScheme::kShamir, 3, 2, 5).value());
    PackingOptions options;
    options.value_bits = kValueBits;
    options.max_terms = 1;
    options.mask_parties = 3;
    layout_ = std::make_unique<PackingLayout>(
        PackingLayout::Create(options, dealt_->public_key->paillier()).value());
    encryptor_ = PaillierEncryptor::Create(dealt_->public_key->paillier(), rng_).value();
    bed_ = MpcTestbed::Create(3, 1, 9).value();
  }

  std::vector<Ciphertext> Encrypt(const std::vector<int64_t>& values) {
    auto packed = layout_->Pack(values).value();
    return encryptor_->EncryptBatch(packed, nullptr).value();
  }

  std::vector<CiphertextToShares> Converters(bool proofs = false) {
    std::vector<CiphertextToShares> out;
    for (int p = 0; p < 3; ++p) {
      out.push_back(CiphertextToShares::Create(dealt_->shares[p], *layout_, *encryptor_).value());
      if (proofs) out.back().EnableProofs(proof_rngs_[p]);
    }
    return out;
  }

  // Runs the conversion at every party (party p sees inputs[p]).
  absl::StatusOr<FieldVector> Convert(const std::vector<std::vector<Ciphertext>>& inputs,
                                      size_t count, bool proofs = false) {
    std::vector<CiphertextToShares> converters = Converters(proofs);
    std::vector<Shares> out(3);
    RETURN_IF_ERROR(bed_->Run([&](MpcEngine& e) -> absl::Status {
      ASSIGN_OR_RETURN(out[e.party_id()],
                       converters[e.party_id()].Convert(e, inputs[e.party_id()], count));
      return absl::OkStatus();
    }));
    return bed_->Reveal(out);
  }

  SeededRng rng_{17};
  SeededRng proof_rngs_[3] = {SeededRng(31), SeededRng(32), SeededRng(33)};
  std::unique_ptr<DealtKey> dealt_;
  std::unique_ptr<PackingLayout> layout_;
  std::unique_ptr<PaillierEncryptor> encryptor_;
  std::unique_ptr<MpcTestbed> bed_;
};

TEST_F(ShareConversionTest, SharesEqualThePackedValuesExactly) {
  const int64_t max = (int64_t{1} << kValueBits) - 1;
  std::vector<int64_t> values = {0, 1, -1, max, -max, 123456789, -987654, 42};
  SeededRng rng(3);
  // Enough values for several ciphertexts, with a partly filled last one.
  while (values.size() < 3 * layout_->slots() + 5) {
    values.push_back(static_cast<int64_t>(rng.UniformUint64(2 * max + 1)) - max);
  }
  const std::vector<Ciphertext> cts = Encrypt(values);
  ASSERT_EQ(cts.size(), 4u);
  auto got = Convert({cts, cts, cts}, values.size());
  ASSERT_TRUE(got.ok()) << got.status();
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ((*got)[i].ToSigned(), values[i]) << i;
  }
  // Two rounds: masks with shares, then partial decryptions.
  EXPECT_EQ(bed_->engine(0).rounds(), 2u);
}

TEST_F(ShareConversionTest, SlotSumsOfSeveralCiphertextsConvert) {
  // A homomorphic sum of packed vectors converts to the slot-wise sums.
  PackingOptions options;
  options.value_bits = 20;
  options.max_terms = 4;
  options.mask_parties = 3;
  layout_ = std::make_unique<PackingLayout>(
      PackingLayout::Create(options, dealt_->public_key->paillier()).value());
  const std::vector<int64_t> a = {5, -7, 1 << 19, 0, 3}, b = {-5, 100, (1 << 19) - 1, -2, 3};
  PaillierEvaluator evaluator(dealt_->public_key->paillier());
  std::vector<Ciphertext> sum =
      evaluator.AddBatch(Encrypt(a), Encrypt(b), nullptr).value();
  auto got = Convert({sum, sum, sum}, a.size());
  ASSERT_TRUE(got.ok()) << got.status();
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ((*got)[i].ToSigned(), a[i] + b[i]) << i;
}

TEST_F(ShareConversionTest, EmptyInputNeedsNoRounds) {
  auto got = Convert({{}, {}, {}}, 0);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(got->empty());
  EXPECT_EQ(bed_->engine(0).rounds(), 0u);
}

TEST_F(ShareConversionTest, WrongCiphertextCountIsRejected) {
  const std::vector<Ciphertext> cts = Encrypt({1, 2, 3});
  auto got = Convert({cts, cts, cts}, layout_->slots() + 1);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(got.status().message(), HasSubstr("need 2 packed ciphertexts"));
}

TEST_F(ShareConversionTest, InconsistentInputsAreDetected) {
  // Party 0 (Paillier party 1, whose partial decryptions every party uses)
  // holds a different ciphertext: the combination fails everywhere.
  const std::vector<Ciphertext> cts = Encrypt({1, 2, 3});
  const std::vector<Ciphertext> other = Encrypt({1, 2, 4});
  auto got = Convert({other, cts, cts}, 3);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(got.status().message(), HasSubstr("inconsistent partial decryptions"));
}

TEST_F(ShareConversionTest, VerifiedModeOpensTheSameValues) {
  const std::vector<int64_t> values = {5, -7, 0, 123456, -1};
  const std::vector<Ciphertext> cts = Encrypt(values);
  auto got = Convert({cts, cts, cts}, values.size(), /*proofs=*/true);
  ASSERT_TRUE(got.ok()) << got.status();
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ((*got)[i].ToSigned(), values[i]) << i;
  EXPECT_EQ(bed_->engine(0).rounds(), 2u);  // proofs ride in the same round
}

TEST_F(ShareConversionTest, VerifiedModeNamesThePartyWhosePartialsAreWrong) {
  // As above, party 0 holds other ciphertexts than parties 1 and 2; with
  // proofs each receiver names a party whose partials do not verify against
  // its own ciphertexts, before any combination.
  const std::vector<Ciphertext> cts = Encrypt({1, 2, 3});
  const std::vector<Ciphertext> other = Encrypt({1, 2, 4});
  auto got = Convert({other, cts, cts}, 3, /*proofs=*/true);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(got.status().message()),
              ::testing::MatchesRegex(".*partial decryptions from party [01]: .*proof.*"));
}

TEST_F(ShareConversionTest, CiphertextOutsideTheGroupIsRejected) {
  std::vector<Ciphertext> cts = Encrypt({1, 2, 3});
  cts[0].value = dealt_->public_key->n();  // gcd(N, N) != 1
  auto got = Convert({cts, cts, cts}, 3);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(got.status().message(), HasSubstr("conversion input ciphertext 0"));
}

TEST_F(ShareConversionTest, MalformedPeerMessageNamesTheParty) {
  std::vector<CiphertextToShares> converters = Converters();
  const std::vector<Ciphertext> cts = Encrypt({1, 2, 3});
  absl::Status status = bed_->Run([&](MpcEngine& e) -> absl::Status {
    if (e.party_id() == 0) {
      // Party 0 sends three garbage bytes instead of its masks.
      std::vector<std::vector<uint8_t>> garbage(3, std::vector<uint8_t>{1, 2, 3});
      return e.ExchangeWithAll(std::move(garbage)).status();
    }
    return converters[e.party_id()].Convert(e, cts, 3).status();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("conversion masks from party 0"));
}

TEST_F(ShareConversionTest, MismatchedConfigurationIsRejected) {
  PackingOptions no_masks;
  no_masks.value_bits = 20;
  PackingLayout plain = PackingLayout::Create(no_masks, dealt_->public_key->paillier()).value();
  auto c = CiphertextToShares::Create(dealt_->shares[0], plain, *encryptor_);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(c.status().message(), HasSubstr("mask_parties = 0"));

  // Party 0 holding Paillier share 2.
  auto swapped = CiphertextToShares::Create(dealt_->shares[1], *layout_, *encryptor_).value();
  absl::Status status = bed_->Run([&](MpcEngine& e) -> absl::Status {
    if (e.party_id() != 0) return absl::OkStatus();
    return swapped.Convert(e, {}, 0).status();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("MPC party 0 must hold Paillier key share 1"));

  PackingOptions two;
  two.value_bits = 20;
  two.mask_parties = 2;
  PackingLayout two_masks = PackingLayout::Create(two, dealt_->public_key->paillier()).value();
  auto converter = CiphertextToShares::Create(dealt_->shares[0], two_masks, *encryptor_).value();
  status = bed_->Run([&](MpcEngine& e) -> absl::Status {
    if (e.party_id() != 0) return absl::OkStatus();
    return converter.Convert(e, {}, 0).status();
  });
  EXPECT_THAT(status.message(), HasSubstr("reserves masks of 2 parties but 3"));
}

TEST(FieldElementFromMpzTest, ReducesSignedIntegers) {
  EXPECT_EQ(FieldElementFromMpz(mpz_class(-5)).ToSigned(), -5);
  EXPECT_EQ(FieldElementFromMpz(mpz_class(0)), FieldElement::Zero());
  const mpz_class p = (mpz_class(1) << 127) - 1;
  EXPECT_EQ(FieldElementFromMpz(p), FieldElement::Zero());
  EXPECT_EQ(FieldElementFromMpz(p * 7 + 12), FieldElement::FromUint64(12));
  EXPECT_EQ(FieldElementFromMpz(mpz_class(1) << 200), FieldElement::PowerOfTwo(200));
}

}  // namespace
}  // namespace pplda::crypto

#include "crypto/paillier/paillier_encryptor.h"

#include <sodium.h>

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"
#include "crypto/arith/parallel_batch.h"
#include "crypto/modexp/batch_modexp.h"

namespace pplda::crypto {
namespace {

// x = H(domain, N, counter) expanded to bits(N) + 128 bits, reduced mod N.
mpz_class HashToUnit(const mpz_class& n) {
  const std::string n_bytes = ToMinimalBytes(n);
  const size_t out_len = ByteLength(n) + 16;
  for (uint32_t counter = 0;; ++counter) {
    uint8_t key[crypto_stream_chacha20_KEYBYTES];
    crypto_generichash_state state;
    crypto_generichash_init(&state, nullptr, 0, sizeof(key));
    static constexpr char kDomain[] = "pplda/djn-base/v1";
    crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(kDomain),
                              sizeof(kDomain) - 1);
    crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(n_bytes.data()),
                              n_bytes.size());
    const uint8_t c[4] = {static_cast<uint8_t>(counter >> 24), static_cast<uint8_t>(counter >> 16),
                          static_cast<uint8_t>(counter >> 8), static_cast<uint8_t>(counter)};
    crypto_generichash_update(&state, c, sizeof(c));
    crypto_generichash_final(&state, key, sizeof(key));
    std::string stream(out_len, '\0');
    const uint8_t nonce[crypto_stream_chacha20_NONCEBYTES] = {0};
    crypto_stream_chacha20(reinterpret_cast<uint8_t*>(stream.data()), stream.size(), nonce,
                           key);
    mpz_class x = FromBytes(stream) % n;
    mpz_class g;
    mpz_gcd(g.get_mpz_t(), x.get_mpz_t(), n.get_mpz_t());
    if (x != 0 && g == 1) return x;
  }
}

// Batches are handed out in groups of kIfmaLanes elements (one kernel call).
size_t LaneGroups(size_t n) { return (n + kIfmaLanes - 1) / kIfmaLanes; }

}  // namespace

int DefaultWindowBits(size_t modulus_bits) { return modulus_bits <= 2048 ? 8 : 7; }

PaillierEncryptor::PaillierEncryptor(Token, PaillierPublicKey key, SecureRng& rng,
                                     mpz_class djn_base, FixedBaseTable table)
    : key_(std::move(key)),
      rng_(rng),
      djn_base_(std::move(djn_base)),
      exponent_bits_(table.exponent_bits()),
      table_(std::move(table)) {}

absl::StatusOr<std::unique_ptr<PaillierEncryptor>> PaillierEncryptor::Create(
    PaillierPublicKey key, SecureRng& rng, EncryptorOptions options) {
  const mpz_class& n = key.n();
  const mpz_class x = HashToUnit(n);
  const mpz_class h = n - (x * x % n);  // -x^2 mod N
  mpz_class djn_base;
  mpz_powm(djn_base.get_mpz_t(), h.get_mpz_t(), n.get_mpz_t(), key.n_squared().get_mpz_t());
  const size_t exponent_bits = (key.modulus_bits() + 1) / 2;
  const int window = options.window_bits == 0 ? DefaultWindowBits(key.modulus_bits())
                                              : options.window_bits;
  ASSIGN_OR_RETURN(FixedBaseTable table, FixedBaseTable::Create(djn_base, key.n_squared(),
                                                                exponent_bits, window));
  std::optional<IfmaFixedBaseTable> ifma_table;
  if (options.use_ifma && ActiveModExpPath() == ModExpPath::kIfma &&
      IfmaMontgomeryContext::SupportsModulus(key.n_squared())) {
    ASSIGN_OR_RETURN(ifma_table, IfmaFixedBaseTable::Create(djn_base, key.n_squared(),
                                                           exponent_bits));
  }
  auto enc = std::make_unique<PaillierEncryptor>(Token{}, std::move(key), rng,
                                                 std::move(djn_base), std::move(table));
  enc->ifma_table_ = std::move(ifma_table);
  if (options.pool_capacity > 0) {
    const PaillierEncryptor* self = enc.get();
    enc->pool_ = std::make_unique<RandomiserPool>(
        options.pool_capacity, [self] { return self->TableRandomiser(); });
  }
  return enc;
}

mpz_class PaillierEncryptor::TableRandomiser() const {
  SecretInt r(rng_.RandomBits(exponent_bits_));
  return table_.PowUnchecked(r.value());
}

mpz_class PaillierEncryptor::PowmRandomiser() const {
  SecretInt r(rng_.RandomBits(exponent_bits_));
  mpz_class out;
  mpz_powm(out.get_mpz_t(), djn_base_.get_mpz_t(), r.value().get_mpz_t(),
           key_.n_squared().get_mpz_t());
  return out;
}

mpz_class PaillierEncryptor::ClassicRandomiser() const {
  SecretInt r(rng_.UniformUnit(key_.n()));
  mpz_class out;
  mpz_powm(out.get_mpz_t(), r.value().get_mpz_t(), key_.n().get_mpz_t(),
           key_.n_squared().get_mpz_t());
  return out;
}

mpz_class PaillierEncryptor::NextRandomiser() const {
  return pool_ != nullptr ? pool_->Take() : TableRandomiser();
}

std::vector<mpz_class> PaillierEncryptor::NextRandomisers(size_t count) const {
  std::vector<mpz_class> out(count);
  if (pool_ == nullptr && ifma_table_.has_value() && count >= 1 && count <= kIfmaLanes) {
    std::vector<mpz_class> r(count);
    for (mpz_class& x : r) x = rng_.RandomBits(exponent_bits_);
    const absl::Status status = ifma_table_->Pow(r, absl::MakeSpan(out));
    for (mpz_class& x : r) Wipe(x);
    // Pow cannot fail here (1..8 exponents below 2^ell); were it to, the
    // table below still gives correct randomisers.
    if (status.ok()) return out;
  }
  for (mpz_class& x : out) x = NextRandomiser();
  return out;
}

Ciphertext PaillierEncryptor::Combine(const mpz_class& m, mpz_class randomiser) const {
  // (1 + m N) * randomiser mod N^2
  Ciphertext c;
  c.value = m * key_.n();
  c.value += 1;
  c.value *= randomiser;
  mpz_tdiv_r(c.value.get_mpz_t(), c.value.get_mpz_t(), key_.n_squared().get_mpz_t());
  Wipe(randomiser);
  return c;
}

absl::StatusOr<Ciphertext> PaillierEncryptor::Encrypt(const mpz_class& m) const {
  RETURN_IF_ERROR(key_.ValidatePlaintext(m, "plaintext"));
  return Combine(m, NextRandomiser());
}

absl::StatusOr<Ciphertext> PaillierEncryptor::EncryptSigned(const mpz_class& v) const {
  ASSIGN_OR_RETURN(mpz_class m, key_.EncodeSigned(v));
  return Combine(m, NextRandomiser());
}

absl::StatusOr<Ciphertext> PaillierEncryptor::EncryptClassic(const mpz_class& m) const {
  RETURN_IF_ERROR(key_.ValidatePlaintext(m, "plaintext"));
  return Combine(m, ClassicRandomiser());
}

absl::StatusOr<std::vector<Ciphertext>> PaillierEncryptor::EncryptBatch(
    absl::Span<const mpz_class> m, ThreadPool* pool) const {
  for (size_t i = 0; i < m.size(); ++i) {
    RETURN_IF_ERROR(key_.ValidatePlaintext(m[i], absl::StrCat("plaintext ", i)));
  }
  std::vector<Ciphertext> out(m.size());
  RETURN_IF_ERROR(RunBatch(pool, LaneGroups(m.size()), [&](size_t g, int) {
    const size_t begin = g * kIfmaLanes, end = std::min(m.size(), begin + kIfmaLanes);
    std::vector<mpz_class> randomisers = NextRandomisers(end - begin);
    for (size_t i = begin; i < end; ++i) out[i] = Combine(m[i], std::move(randomisers[i - begin]));
    return absl::OkStatus();
  }));
  return out;
}

Ciphertext PaillierEncryptor::Rerandomise(const Ciphertext& c) const {
  mpz_class randomiser = NextRandomiser();
  Ciphertext out;
  out.value = c.value * randomiser % key_.n_squared();
  Wipe(randomiser);
  return out;
}

std::vector<Ciphertext> PaillierEncryptor::RerandomiseBatch(absl::Span<const Ciphertext> c,
                                                            ThreadPool* pool) const {
  std::vector<Ciphertext> out(c.size());
  (void)RunBatch(pool, LaneGroups(c.size()), [&](size_t g, int) {
    const size_t begin = g * kIfmaLanes, end = std::min(c.size(), begin + kIfmaLanes);
    std::vector<mpz_class> randomisers = NextRandomisers(end - begin);
    for (size_t i = begin; i < end; ++i) {
      out[i].value = c[i].value * randomisers[i - begin] % key_.n_squared();
      Wipe(randomisers[i - begin]);
    }
    return absl::OkStatus();
  });
  return out;
}

}  // namespace pplda::crypto

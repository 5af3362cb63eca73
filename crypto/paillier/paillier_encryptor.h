// PaillierEncryptor: encryption and re-randomisation under a Paillier public
// key, with the Damgard-Jurik-Nielsen short-exponent randomiser, a fixed-base
// table and a background pool of precomputed randomisers.
//
// Scheme (Damgard, Jurik, Nielsen, "A generalization of Paillier's public-key
// system with applications to electronic voting", IJIS 9(6), 2010, s = 1):
//   h   = -x^2 mod N, with x = H("pplda/djn-base/v1", N) mod N (a public,
//         nothing-up-my-sleeve choice; x in Z*_N is checked),
//   h_N = h^N mod N^2                                   (djn_base()),
//   E(m) = (1 + m N) * h_N^r mod N^2,  r uniform in [0, 2^ell),
//   ell = ceil(bits(N) / 2)  (DJN's recommendation; exponent_bits()).
// (1 + N)^m = 1 + m N needs no exponentiation; h_N^r comes from the pool,
// or, in the batch calls on a CPU with AVX-512 IFMA, eight at a time from an
// IfmaFixedBaseTable over h_N (constant time; 4.3x faster at |N| =
// 2048), or from a FixedBaseTable over h_N (ceil(ell / w) - 1
// multiplications, see DefaultWindowBits).
//
// SECURITY ASSUMPTION (stated by DJN): besides the decisional composite
// residuosity assumption (DCRA) that Paillier rests on, semantic security
// needs h_N^r with a short r of ell = ceil(|N|/2) bits to be indistinguishable
// from a uniform element of the subgroup <h_N>; the best known attacks on
// such short exponents cost about 2^(ell/2) >= 2^512 operations at |N| = 2048.
// EncryptClassic() is the textbook E(m) = (1 + m N) r^N mod N^2 with r
// uniform in Z*_N, relying on DCRA alone (slower; for comparison).
//
// Rerandomise(c) = c * h_N^r mod N^2 (same plaintext, fresh randomness).
// Plaintexts: 0 <= m < N (InvalidArgument otherwise, naming the index for
// batches); EncryptSigned takes |v| <= (N - 1) / 2.
// Randomness: every r comes from the injected SecureRng, which must outlive
// the encryptor and be thread-safe (secure_rng.h); r and each randomiser
// are wiped after use.
// Thread-safety: all methods may be called concurrently. With a pool
// (options.pool_capacity > 0) one background thread computes randomisers;
// it is joined by the destructor.
#ifndef PPLDA_CRYPTO_PAILLIER_PAILLIER_ENCRYPTOR_H_
#define PPLDA_CRYPTO_PAILLIER_PAILLIER_ENCRYPTOR_H_

#include <gmpxx.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/thread_pool.h"
#include "crypto/ifma/ifma_fixed_base.h"
#include "crypto/modexp/fixed_base_table.h"
#include "crypto/paillier/paillier_ciphertext.h"
#include "crypto/paillier/paillier_public_key.h"
#include "crypto/paillier/randomiser_pool.h"
#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

struct EncryptorOptions {
  // Window of the fixed-base table (FixedBaseTable), in [1, 12]; 0 picks
  // DefaultWindowBits(modulus bits).
  int window_bits = 0;
  // Number of randomisers kept ready by a background thread; 0 = no pool,
  // no thread (every encryption computes its randomiser from the table).
  size_t pool_capacity = 0;
  // Batch calls take their randomisers eight at a time from the IFMA kernel
  // when BatchModExp's path is the kernel (the CPU has AVX-512 IFMA and
  // PPLDA_CRYPTO_PORTABLE is not set, batch_modexp.h) and N^2 has 1025..6144
  // bits (crypto/ifma/ifma_fixed_base.h); false forces the GMP table.
  bool use_ifma = true;
};

// 8 for moduli up to 2048 bits, 7 above. Table sizes: 4.2 MB (1024),
// 16.7 MB (2048), 21.4 MB (3072); ceil(ell / w) - 1 = 63, 127, 219
// multiplications mod N^2 per fresh randomiser.
int DefaultWindowBits(size_t modulus_bits);

class PaillierEncryptor {
 public:
  static absl::StatusOr<std::unique_ptr<PaillierEncryptor>> Create(
      PaillierPublicKey key, SecureRng& rng, EncryptorOptions options = {});

  const PaillierPublicKey& public_key() const { return key_; }
  const mpz_class& djn_base() const { return djn_base_; }
  size_t exponent_bits() const { return exponent_bits_; }
  const FixedBaseTable& table() const { return table_; }
  // Null when options.pool_capacity == 0.
  const RandomiserPool* pool() const { return pool_.get(); }
  // Null when the batch calls do not use the IFMA kernel.
  const IfmaFixedBaseTable* ifma_table() const {
    return ifma_table_.has_value() ? &*ifma_table_ : nullptr;
  }

  absl::StatusOr<Ciphertext> Encrypt(const mpz_class& m) const;
  absl::StatusOr<Ciphertext> EncryptSigned(const mpz_class& v) const;
  absl::StatusOr<std::vector<Ciphertext>> EncryptBatch(absl::Span<const mpz_class> m,
                                                       ThreadPool* pool) const;
  // Textbook Paillier randomiser r^N (one full exponentiation), no table.
  absl::StatusOr<Ciphertext> EncryptClassic(const mpz_class& m) const;

  Ciphertext Rerandomise(const Ciphertext& c) const;
  std::vector<Ciphertext> RerandomiseBatch(absl::Span<const Ciphertext> c,
                                           ThreadPool* pool) const;

  // h_N^r for a fresh r, from the pool when it has one, else from the table.
  mpz_class NextRandomiser() const;
  // h_N^r computed now from the table (pool bypassed).
  mpz_class TableRandomiser() const;
  // `count` (1..8) randomisers h_N^r for fresh r: from the pool when there
  // is one (NextRandomiser each), else from the IFMA table in one kernel
  // call when there is one, else from the table. Without a pool, the r of
  // one call are the next `count` draws of the rng, in order, on either
  // path (so one stream gives the same ciphertexts with and without IFMA).
  std::vector<mpz_class> NextRandomisers(size_t count) const;
  // h_N^r computed now with mpz_powm (no table, no pool).
  mpz_class PowmRandomiser() const;
  // r^N mod N^2, r uniform in Z*_N (textbook).
  mpz_class ClassicRandomiser() const;

 private:
  struct Token {};

 public:
  // Use Create(); public only so that std::make_unique can construct it.
  PaillierEncryptor(Token, PaillierPublicKey key, SecureRng& rng, mpz_class djn_base,
                    FixedBaseTable table);
  PaillierEncryptor(const PaillierEncryptor&) = delete;
  PaillierEncryptor& operator=(const PaillierEncryptor&) = delete;

 private:
  Ciphertext Combine(const mpz_class& m, mpz_class randomiser) const;

  PaillierPublicKey key_;
  SecureRng& rng_;
  mpz_class djn_base_;
  size_t exponent_bits_;
  FixedBaseTable table_;
  std::optional<IfmaFixedBaseTable> ifma_table_;
  std::unique_ptr<RandomiserPool> pool_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PAILLIER_ENCRYPTOR_H_

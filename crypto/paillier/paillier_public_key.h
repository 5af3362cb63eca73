// PaillierPublicKey: the modulus N of a Paillier key (Paillier, EUROCRYPT
// 1999) with generator g = N + 1, and the checks every received value goes
// through.
//
//   Plaintexts  m in Z_N = [0, N).
//   Ciphertexts c in Z*_{N^2}: 0 < c < N^2 and gcd(c, N) = 1.
//   E(m; r) = (1 + N)^m * r^N = (1 + m N) * r^N  mod N^2.
//   L(u) = (u - 1) / N for u = 1 mod N.
//   Signed values v with |v| <= (N - 1) / 2 are encoded as v mod N and
//   decoded from m as m if m <= (N - 1) / 2, else m - N.
//
// Modulus sizes (DESIGN.md section 3): 2048 bits by default, any even size
// in [2048, 8192]; exactly 1024 bits is accepted with a loud warning, for
// comparison with the literature only. Create() also rejects even moduli,
// perfect squares and moduli with a prime factor below 2^16.
// Immutable after Create(); thread-safe; cheap enough to copy (two integers).
#ifndef PPLDA_CRYPTO_PAILLIER_PAILLIER_PUBLIC_KEY_H_
#define PPLDA_CRYPTO_PAILLIER_PAILLIER_PUBLIC_KEY_H_

#include <gmpxx.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/thread_pool.h"

namespace pplda::crypto {

inline constexpr size_t kDefaultModulusBits = 2048;
inline constexpr size_t kLegacyModulusBits = 1024;
inline constexpr size_t kMaxModulusBits = 8192;

// OK for 1024 (with a warning logged once per process) and even sizes in
// [2048, 8192]; InvalidArgument otherwise.
absl::Status ValidateModulusBits(size_t bits);

class PaillierPublicKey {
 public:
  // InvalidArgument naming the defect if N is not an acceptable modulus.
  static absl::StatusOr<PaillierPublicKey> Create(const mpz_class& n);

  const mpz_class& n() const { return n_; }
  const mpz_class& n_squared() const { return n_squared_; }
  size_t modulus_bits() const { return modulus_bits_; }
  // Length of every encoded element of Z*_{N^2}: ceil(bits(N^2) / 8).
  size_t ciphertext_bytes() const { return ciphertext_bytes_; }

  // InvalidArgument "<what> is not in Z*_{N^2}: ..." unless 0 < c < N^2 and
  // gcd(c, N) = 1. The message never contains the value or the gcd.
  absl::Status ValidateCiphertext(const mpz_class& c, std::string_view what) const;
  // The same check for elements element(0), ..., element(count - 1), with
  // the error of the lowest bad index, named by name(i). Coprimality is
  // checked per chunk of kValidationChunk consecutive elements by one gcd of
  // their product mod N (a prime factor of N divides the product iff it
  // divides one of them): one gcd and 64 products mod N instead of 64
  // gcds; a chunk that fails is checked element by element. Chunks
  // run on `pool` when given (it must not be the pool of a running task).
  static constexpr size_t kValidationChunk = 64;
  absl::Status ValidateCiphertexts(size_t count,
                                   absl::FunctionRef<const mpz_class&(size_t)> element,
                                   absl::FunctionRef<std::string(size_t)> name,
                                   ThreadPool* pool = nullptr) const;
  // InvalidArgument unless 0 <= m < N.
  absl::Status ValidatePlaintext(const mpz_class& m, std::string_view what) const;

  // v mod N for |v| <= (N - 1) / 2; OutOfRange otherwise.
  absl::StatusOr<mpz_class> EncodeSigned(const mpz_class& v) const;
  // The signed value of m in [0, N) (see above).
  mpz_class DecodeSigned(const mpz_class& m) const;

  bool operator==(const PaillierPublicKey& other) const { return n_ == other.n_; }

 private:
  explicit PaillierPublicKey(const mpz_class& n);

  mpz_class n_;
  mpz_class n_squared_;
  mpz_class half_n_;  // (N - 1) / 2
  size_t modulus_bits_ = 0;
  size_t ciphertext_bytes_ = 0;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PAILLIER_PUBLIC_KEY_H_

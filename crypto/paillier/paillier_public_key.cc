#include "crypto/paillier/paillier_public_key.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"
#include "crypto/arith/parallel_batch.h"
#include "spdlog/spdlog.h"

namespace pplda::crypto {
namespace {

constexpr unsigned long kTrialDivisionBound = 1ul << 16;

const std::vector<unsigned long>& SmallPrimes() {
  static const std::vector<unsigned long> primes = [] {
    std::vector<bool> composite(kTrialDivisionBound, false);
    std::vector<unsigned long> out;
    for (unsigned long i = 2; i < kTrialDivisionBound; ++i) {
      if (composite[i]) continue;
      out.push_back(i);
      for (unsigned long j = i * i; j < kTrialDivisionBound; j += i) composite[j] = true;
    }
    return out;
  }();
  return primes;
}

// The smallest prime factor of n below kTrialDivisionBound, or 0.
unsigned long SmallFactor(const mpz_class& n) {
  for (unsigned long p : SmallPrimes()) {
    if (mpz_divisible_ui_p(n.get_mpz_t(), p) && n != p) return p;
  }
  return 0;
}

}  // namespace

absl::Status ValidateModulusBits(size_t bits) {
  if (bits == kLegacyModulusBits) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true)) {
      spdlog::warn(
          "INSECURE PARAMETERS: a 1024-bit Paillier modulus is in use. It is "
          "accepted only to compare with the literature; use 2048 bits or more "
          "for any real data.");
    }
    return absl::OkStatus();
  }
  if (bits < kDefaultModulusBits || bits > kMaxModulusBits || bits % 2 != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Paillier modulus of ", bits, " bits is not supported: use an even size in [",
        kDefaultModulusBits, ", ", kMaxModulusBits, "] (default ", kDefaultModulusBits,
        "), or exactly ", kLegacyModulusBits, " for literature comparisons"));
  }
  return absl::OkStatus();
}

PaillierPublicKey::PaillierPublicKey(const mpz_class& n)
    : n_(n),
      n_squared_(n * n),
      half_n_((n - 1) / 2),
      modulus_bits_(BitLength(n)),
      ciphertext_bytes_(ByteLength(n * n)) {}

absl::StatusOr<PaillierPublicKey> PaillierPublicKey::Create(const mpz_class& n) {
  if (n <= 0) return absl::InvalidArgumentError("Paillier modulus N must be positive");
  const absl::Status bits_ok = ValidateModulusBits(BitLength(n));
  if (!bits_ok.ok()) return bits_ok;
  if (mpz_even_p(n.get_mpz_t())) {
    return absl::InvalidArgumentError("Paillier modulus N must be odd");
  }
  if (mpz_perfect_square_p(n.get_mpz_t())) {
    return absl::InvalidArgumentError("Paillier modulus N must not be a perfect square");
  }
  if (const unsigned long f = SmallFactor(n); f != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Paillier modulus N has the small prime factor ", f,
                     ": not a product of two large primes"));
  }
  return PaillierPublicKey(n);
}

absl::Status PaillierPublicKey::ValidateCiphertext(const mpz_class& c,
                                                   std::string_view what) const {
  if (c <= 0 || c >= n_squared_) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(what), " is not in Z*_{N^2}: outside (0, N^2)"));
  }
  mpz_class g;
  mpz_gcd(g.get_mpz_t(), c.get_mpz_t(), n_.get_mpz_t());
  if (g != 1) {
    Wipe(g);  // a factor of N: never log or keep it
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(what), " is not in Z*_{N^2}: not coprime to N"));
  }
  return absl::OkStatus();
}

absl::Status PaillierPublicKey::ValidateCiphertexts(
    size_t count, absl::FunctionRef<const mpz_class&(size_t)> element,
    absl::FunctionRef<std::string(size_t)> name, ThreadPool* pool) const {
  const size_t chunks = (count + kValidationChunk - 1) / kValidationChunk;
  return RunBatch(pool, chunks, [&](size_t chunk, int) -> absl::Status {
    const size_t begin = chunk * kValidationChunk;
    const size_t end = std::min(count, begin + kValidationChunk);
    mpz_class product = 1;
    bool in_range = true;
    for (size_t i = begin; i < end && in_range; ++i) {
      const mpz_class& c = element(i);
      in_range = c > 0 && c < n_squared_;
      product *= c;
      product %= n_;
    }
    mpz_class g;
    mpz_gcd(g.get_mpz_t(), product.get_mpz_t(), n_.get_mpz_t());
    const bool valid = in_range && g == 1;
    Wipe(g);  // a factor of N when not coprime: never keep it
    Wipe(product);
    if (valid) return absl::OkStatus();
    // The chunk's lowest bad element, with its own message.
    for (size_t i = begin; i < end; ++i) RETURN_IF_ERROR(ValidateCiphertext(element(i), name(i)));
    return absl::InternalError("ciphertext batch: a chunk failed the gcd check, but none of its "
                               "elements did");
  });
}

absl::Status PaillierPublicKey::ValidatePlaintext(const mpz_class& m,
                                                  std::string_view what) const {
  if (m < 0 || m >= n_) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(what), " is not a Paillier plaintext: outside [0, N) for a ",
        modulus_bits_, "-bit N (encode signed values with EncodeSigned)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<mpz_class> PaillierPublicKey::EncodeSigned(const mpz_class& v) const {
  if (abs(v) > half_n_) {
    return absl::OutOfRangeError(absl::StrCat(
        "signed value of ", BitLength(v), " bits does not fit a ", modulus_bits_,
        "-bit Paillier plaintext (|v| must be <= (N-1)/2)"));
  }
  return v < 0 ? mpz_class(v + n_) : v;
}

mpz_class PaillierPublicKey::DecodeSigned(const mpz_class& m) const {
  return m > half_n_ ? mpz_class(m - n_) : m;
}

}  // namespace pplda::crypto

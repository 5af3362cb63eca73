// IfmaMontgomeryContext and IfmaModExp: eight modular exponentiations side by
// side in the lanes of 512-bit registers, with AVX-512 IFMA (vpmadd52luq /
// vpmadd52huq, 52 x 52 -> 104-bit multiply-accumulate).
//
// Representation. A residue x < 2^(52 L) is held as L limbs of 52 bits,
// x = sum_j x_j 2^(52 j); eight independent residues are "lane-transposed":
// register j holds limb j of all eight (lane k = number k). The modulus m is
// common to the eight lanes (Paillier has one N^2), so its limbs are
// broadcast. L is the smallest of 40, 60, 80, 120 with 52 L >= bits(m) + 2.
//
// Almost Montgomery multiplication (AMM; Gueron, "Efficient software
// implementations of modular exponentiation", J. Cryptogr. Eng. 2012,
// section 4). With R = 2^(52 L) >= 4 m and k0 = -m^-1 mod 2^52,
//   AMM(a, b) = (a b + U m) / R,  U < R chosen limb by limb (u_i = t_i k0
//   mod 2^52), so AMM(a, b) = a b R^-1 mod m and, for a, b < 2 m,
//   AMM(a, b) < (4 m^2 + R m) / R <= 2 m.
// Values therefore stay below 2 m < R between operations and are reduced to
// [0, m) only once, at the end. Each product is accumulated in 64-bit lanes
// without carries (every column stays below 4 L 2^52 <= 2^61); carries are
// normalised once per multiplication. Squaring computes each cross product
// a_i a_j (i < j) once, doubles the column sums and adds the diagonal
// (3 L^2 + L multiply-adds instead of 4 L^2).
//
// Exponentiation: fixed window of w bits (w from the exponent length, at
// most 5), table b^0 .. b^(2^w - 1) in Montgomery form, scanning from the
// most significant window: w squarings, then one multiplication by the table
// entry the window selects. CONSTANT TIME in the exponent: the same sequence
// of operations and memory addresses for every exponent of the same bit
// length; every table entry is loaded in full (plain 64-byte loads, never
// masked loads) for every window and the wanted one is kept in registers
// with a lane mask (vpcmpeqq, then a masked register move). The number of
// windows is ceil(max_k bits(e_k) / w) (the exponent's length is not
// hidden, like mpz_powm_sec). Per-lane exponents may differ; each lane
// selects its own entry.
//
// Inputs: bases of any sign and size (reduced mod m first, as mpz_powm does);
// exponents >= 0 (InvalidArgument otherwise). Results equal mpz_powm's
// exactly, in [0, m).
// Errors: IfmaMontgomeryContext::Create: InvalidArgument for an even modulus
// or one outside [2^1024 + 1, 2^6144) (bits 1025..6144). IfmaModExp*:
// FailedPrecondition when the CPU lacks AVX-512 IFMA (CpuHasAvx512Ifma(),
// crypto/arith/cpu_features.h) -- the kernel is never executed there;
// InvalidArgument for 0 or more than 8 bases, mismatched span lengths, a
// negative exponent.
// The code is compiled with __attribute__((target("avx512f,avx512ifma")))
// per function; the rest of the build needs no AVX-512 flags.
//
// Secrets: the kernel's copy of the exponent bits, its window indices and
// the scratch that held exponent-dependent values (accumulator, selected
// entry, product columns) are wiped (sodium_memzero) before returning; the
// per-thread scratch otherwise keeps only the table of powers 0..2^w - 1 of
// the bases. Thread-safety: the context is immutable and may be
// shared; IfmaModExp* may run concurrently (scratch is per call).
#ifndef PPLDA_CRYPTO_IFMA_IFMA_MODEXP_H_
#define PPLDA_CRYPTO_IFMA_IFMA_MODEXP_H_

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pplda::crypto {

// Eight lanes of one 52-bit limb position; the unit of the kernel's storage.
struct alignas(64) IfmaLimbLanes {
  uint64_t lane[8];
};

inline constexpr size_t kIfmaLanes = 8;
inline constexpr size_t kIfmaMinModulusBits = 1025;
inline constexpr size_t kIfmaMaxModulusBits = 6144;

class IfmaMontgomeryContext {
 public:
  // True when Create(modulus) succeeds: odd, bits in [1025, 6144].
  static bool SupportsModulus(const mpz_class& modulus);
  static absl::StatusOr<IfmaMontgomeryContext> Create(const mpz_class& modulus);

  const mpz_class& modulus() const { return modulus_; }
  // L: number of 52-bit limbs (40, 60, 80 or 120).
  int limbs() const { return limbs_; }
  // k0 = -m^-1 mod 2^52.
  uint64_t k0() const { return k0_; }
  // m, R mod m (Montgomery 1), R^2 mod m, each as L broadcast limb positions.
  const std::vector<IfmaLimbLanes>& modulus_limbs() const { return modulus_limbs_; }
  const std::vector<IfmaLimbLanes>& one() const { return one_; }
  const std::vector<IfmaLimbLanes>& r_squared() const { return r_squared_; }

 private:
  IfmaMontgomeryContext() = default;

  mpz_class modulus_;
  int limbs_ = 0;
  uint64_t k0_ = 0;
  std::vector<IfmaLimbLanes> modulus_limbs_;
  std::vector<IfmaLimbLanes> one_;
  std::vector<IfmaLimbLanes> r_squared_;
};

// out[k] = bases[k]^exponent mod m for k < bases.size() (1..8 bases; unused
// lanes are padded). out.size() == bases.size().
absl::Status IfmaModExp(const IfmaMontgomeryContext& ctx, absl::Span<const mpz_class> bases,
                        const mpz_class& exponent, absl::Span<mpz_class> out);

// out[k] = bases[k]^exponents[k] mod m; all three spans of equal length 1..8.
absl::Status IfmaModExpPerLane(const IfmaMontgomeryContext& ctx,
                               absl::Span<const mpz_class> bases,
                               absl::Span<const mpz_class> exponents,
                               absl::Span<mpz_class> out);

// The window the kernel uses for an exponent of `bits` bits (1..5; exposed
// for the benchmark and tests).
int IfmaWindowBits(size_t bits);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_IFMA_IFMA_MODEXP_H_

// BatchModExp: many independent modular exponentiations under one modulus,
// dispatched at run time to the AVX-512 IFMA 8-lane kernel
// (crypto/ifma/ifma_modexp.h) or to GMP, with identical results.
//
//   out[i] = bases[i]^e mod m        (one exponent for the batch)
//   out[i] = bases[i]^e_i mod m      (one exponent per element)
// Bases of any sign and size are reduced mod m (as mpz_powm does);
// exponents must be >= 0. Results are in [0, m) and equal mpz_powm's.
//
// Dispatch (ActiveModExpPath): the kernel is used when the CPU and OS
// support AVX-512F + AVX-512 IFMA (CpuHasAvx512Ifma) and the environment
// variable PPLDA_CRYPTO_PORTABLE is unset, empty or "0"; any other value
// forces the portable GMP path. The choice is made and logged once per
// process (spdlog info: "paillier: using AVX-512 IFMA 8-lane
// exponentiation" or "paillier: using the portable GMP exponentiation
// (<reason>)"). Tests and benchmarks may force a path with
// ScopedModExpPath (batch_modexp_testing.h).
// On the kernel path the batch is cut into groups of 8 consecutive elements
// (the unit of work spread over the ThreadPool); a group of fewer than
// kMinKernelLanes elements (only the last one can be) and moduli the kernel
// does not support (even, or outside 1025..6144 bits) use GMP.
//
// Timing: the kernel is constant time in the exponent bits for every call
// (see ifma_modexp.h; the exponent's length is not hidden). On the GMP path
// `constant_time` selects mpz_powm_sec (for secret exponents such as key
// shares, when the caller asks for it; needs an odd modulus, otherwise
// mpz_powm) instead of mpz_powm.
//
// Errors: InvalidArgument when out (or exponents) and bases differ in
// length, naming both lengths; InvalidArgument naming the index of a
// negative exponent; InvalidArgument for a modulus < 2;
// FailedPrecondition when the kernel path was forced on a CPU without IFMA.
// Thread-safety: ModExpContext is immutable and shareable; BatchModExp may
// be called concurrently (not from inside a task of the same pool, see
// parallel_batch.h).
#ifndef PPLDA_CRYPTO_MODEXP_BATCH_MODEXP_H_
#define PPLDA_CRYPTO_MODEXP_BATCH_MODEXP_H_

#include <gmpxx.h>

#include <cstddef>
#include <optional>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "base/thread_pool.h"
#include "crypto/ifma/ifma_modexp.h"

namespace pplda::crypto {

enum class ModExpPath { kPortableGmp, kIfma };

// The path BatchModExp takes in this process (decided and logged once,
// unless a ScopedModExpPath is active).
ModExpPath ActiveModExpPath();
const char* ModExpPathName(ModExpPath path);

// Trailing groups smaller than this go to GMP: a padded kernel call costs
// about 8 / (kernel speed-up) GMP exponentiations.
inline constexpr size_t kMinKernelLanes = 2;

// A modulus with its precomputed kernel context (R^2 mod m, k0, broadcast
// limbs) when the kernel supports it. Build once per modulus and keep
// (e.g. in a key); construction costs about one multiplication mod m.
class ModExpContext {
 public:
  explicit ModExpContext(mpz_class modulus);

  const mpz_class& modulus() const { return modulus_; }
  // Null when the kernel does not support this modulus.
  const IfmaMontgomeryContext* ifma() const { return ifma_ ? &*ifma_ : nullptr; }

 private:
  mpz_class modulus_;
  std::optional<IfmaMontgomeryContext> ifma_;
};

absl::Status BatchModExp(const ModExpContext& ctx, absl::Span<const mpz_class> bases,
                         const mpz_class& exponent, absl::Span<mpz_class> out,
                         ThreadPool* pool, bool constant_time);

absl::Status BatchModExp(const ModExpContext& ctx, absl::Span<const mpz_class> bases,
                         absl::Span<const mpz_class> exponents, absl::Span<mpz_class> out,
                         ThreadPool* pool, bool constant_time);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MODEXP_BATCH_MODEXP_H_

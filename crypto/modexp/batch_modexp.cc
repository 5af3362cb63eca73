#include "crypto/modexp/batch_modexp.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "crypto/arith/cpu_features.h"
#include "crypto/arith/parallel_batch.h"
#include "crypto/modexp/batch_modexp_testing.h"

namespace pplda::crypto {
namespace {

constexpr char kPortableEnv[] = "PPLDA_CRYPTO_PORTABLE";
constexpr int kNoOverride = -1;

std::atomic<int>& PathOverride() {
  static std::atomic<int> path{kNoOverride};
  return path;
}

bool PortableRequested() {
  const char* v = std::getenv(kPortableEnv);
  return v != nullptr && v[0] != '\0' && std::string(v) != "0";
}

// Decided once per process, with its log line.
ModExpPath ProcessPath() {
  static const ModExpPath path = [] {
    if (PortableRequested()) {
      spdlog::info("paillier: using the portable GMP exponentiation ({} is set)", kPortableEnv);
      return ModExpPath::kPortableGmp;
    }
    if (!CpuHasAvx512Ifma()) {
      spdlog::info(
          "paillier: using the portable GMP exponentiation (this CPU does not report "
          "AVX-512F and AVX-512 IFMA)");
      return ModExpPath::kPortableGmp;
    }
    spdlog::info("paillier: using AVX-512 IFMA 8-lane exponentiation");
    return ModExpPath::kIfma;
  }();
  return path;
}

// One exponent for every element, or one per element.
struct Exponents {
  const mpz_class* shared = nullptr;
  absl::Span<const mpz_class> each;
  const mpz_class& operator[](size_t i) const { return shared != nullptr ? *shared : each[i]; }
};

void GmpModExp(const mpz_class& base, const mpz_class& e, const mpz_class& m,
               bool constant_time, mpz_class& out) {
  if (constant_time && e > 0 && mpz_odd_p(m.get_mpz_t())) {
    mpz_class reduced;
    mpz_mod(reduced.get_mpz_t(), base.get_mpz_t(), m.get_mpz_t());
    mpz_powm_sec(out.get_mpz_t(), reduced.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());
  } else {
    mpz_powm(out.get_mpz_t(), base.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());
  }
}

// Elements [begin, begin + count) of the batch.
absl::Status RunGroup(const ModExpContext& ctx, absl::Span<const mpz_class> bases,
                      const Exponents& e, absl::Span<mpz_class> out, size_t begin,
                      size_t count, bool use_kernel, bool constant_time) {
  const auto b = bases.subspan(begin, count);
  const auto o = out.subspan(begin, count);
  if (use_kernel && count >= kMinKernelLanes) {
    if (e.shared != nullptr) return IfmaModExp(*ctx.ifma(), b, *e.shared, o);
    return IfmaModExpPerLane(*ctx.ifma(), b, e.each.subspan(begin, count), o);
  }
  for (size_t k = 0; k < count; ++k) {
    GmpModExp(b[k], e[begin + k], ctx.modulus(), constant_time, o[k]);
  }
  return absl::OkStatus();
}

absl::Status Run(const ModExpContext& ctx, absl::Span<const mpz_class> bases,
                 const Exponents& e, absl::Span<mpz_class> out, ThreadPool* pool,
                 bool constant_time) {
  if (out.size() != bases.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "batch exponentiation: ", bases.size(), " bases but ", out.size(), " outputs"));
  }
  if (ctx.modulus() < 2) {
    return absl::InvalidArgumentError("batch exponentiation: the modulus must be at least 2");
  }
  const size_t checks = e.shared != nullptr ? 1 : e.each.size();
  for (size_t i = 0; i < checks; ++i) {
    if (e[i] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("batch exponentiation: exponent ", i, " is negative"));
    }
  }
  const bool use_kernel = ctx.ifma() != nullptr && ActiveModExpPath() == ModExpPath::kIfma;
  const size_t group = use_kernel ? kIfmaLanes : 1;
  const size_t groups = (bases.size() + group - 1) / group;
  return RunBatch(pool, groups, [&](size_t g, int) {
    const size_t begin = g * group;
    return RunGroup(ctx, bases, e, out, begin, std::min(group, bases.size() - begin),
                    use_kernel, constant_time);
  });
}

}  // namespace

ModExpPath ActiveModExpPath() {
  const int forced = PathOverride().load(std::memory_order_relaxed);
  if (forced != kNoOverride) return static_cast<ModExpPath>(forced);
  return ProcessPath();
}

const char* ModExpPathName(ModExpPath path) {
  return path == ModExpPath::kIfma ? "AVX-512 IFMA" : "portable GMP";
}

ModExpContext::ModExpContext(mpz_class modulus) : modulus_(std::move(modulus)) {
  if (IfmaMontgomeryContext::SupportsModulus(modulus_)) {
    ifma_ = IfmaMontgomeryContext::Create(modulus_).value();
  }
}

absl::Status BatchModExp(const ModExpContext& ctx, absl::Span<const mpz_class> bases,
                         const mpz_class& exponent, absl::Span<mpz_class> out,
                         ThreadPool* pool, bool constant_time) {
  Exponents e;
  e.shared = &exponent;
  return Run(ctx, bases, e, out, pool, constant_time);
}

absl::Status BatchModExp(const ModExpContext& ctx, absl::Span<const mpz_class> bases,
                         absl::Span<const mpz_class> exponents, absl::Span<mpz_class> out,
                         ThreadPool* pool, bool constant_time) {
  if (exponents.size() != bases.size()) {
    return absl::InvalidArgumentError(absl::StrCat("batch exponentiation: ", bases.size(),
                                                   " bases but ", exponents.size(),
                                                   " exponents"));
  }
  Exponents e;
  e.each = exponents;
  return Run(ctx, bases, e, out, pool, constant_time);
}

ScopedModExpPath::ScopedModExpPath(ModExpPath path)
    : previous_(PathOverride().exchange(static_cast<int>(path))) {}

ScopedModExpPath::~ScopedModExpPath() { PathOverride().store(previous_); }

}  // namespace pplda::crypto

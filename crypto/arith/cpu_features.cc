#include "crypto/arith/cpu_features.h"

#include <atomic>
#include <cstdint>

#include "crypto/arith/cpu_features_testing.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace pplda::crypto {
namespace {

#if defined(__x86_64__) || defined(__i386__)

constexpr unsigned kLeaf1EcxOsxsave = 1u << 27;
constexpr unsigned kLeaf7EbxAvx512f = 1u << 16;
constexpr unsigned kLeaf7EbxAvx512Ifma = 1u << 21;
// XCR0: SSE (1), AVX (2), opmask (5), ZMM_Hi256 (6), Hi16_ZMM (7).
constexpr uint64_t kXcr0Avx512State = (1u << 1) | (1u << 2) | (1u << 5) | (1u << 6) | (1u << 7);

uint64_t ReadXcr0() {
  uint32_t eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<uint64_t>(edx) << 32) | eax;
}

bool Detect() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || (ecx & kLeaf1EcxOsxsave) == 0) return false;
  if ((ReadXcr0() & kXcr0Avx512State) != kXcr0Avx512State) return false;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  return (ebx & kLeaf7EbxAvx512f) != 0 && (ebx & kLeaf7EbxAvx512Ifma) != 0;
}

#else

bool Detect() { return false; }

#endif

std::atomic<bool> hidden_for_testing{false};

}  // namespace

bool CpuHasAvx512Ifma() {
  static const bool has = Detect();
  return has && !hidden_for_testing.load(std::memory_order_relaxed);
}

ScopedHideAvx512Ifma::ScopedHideAvx512Ifma()
    : previous_(hidden_for_testing.exchange(true, std::memory_order_relaxed)) {}

ScopedHideAvx512Ifma::~ScopedHideAvx512Ifma() {
  hidden_for_testing.store(previous_, std::memory_order_relaxed);
}

}  // namespace pplda::crypto

// CPU feature detection for the optional AVX-512 IFMA exponentiation kernel
// (crypto/ifma/ifma_modexp.h).
//
// CpuHasAvx512Ifma() is true only when both hold:
//   - the processor reports AVX-512 Foundation and AVX-512 IFMA (CPUID leaf 7,
//     sub-leaf 0: EBX bit 16 = AVX512F, EBX bit 21 = AVX512_IFMA), and OSXSAVE
//     (leaf 1 ECX bit 27), so that XGETBV may be executed;
//   - the operating system saves and restores the whole vector state: XCR0
//     bits 1 and 2 (SSE, AVX) and 5, 6, 7 (opmask, ZMM0-15 upper halves,
//     ZMM16-31) are all set.
// Always false on other architectures, and while a ScopedHideAvx512Ifma
// (cpu_features_testing.h, tests only) is alive. The detection runs once and
// is cached (thread-safe static initialisation); the function is cheap.
#ifndef PPLDA_CRYPTO_ARITH_CPU_FEATURES_H_
#define PPLDA_CRYPTO_ARITH_CPU_FEATURES_H_

namespace pplda::crypto {

bool CpuHasAvx512Ifma();

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_ARITH_CPU_FEATURES_H_

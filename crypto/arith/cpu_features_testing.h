// ScopedHideAvx512Ifma: for tests only. While one is alive,
// CpuHasAvx512Ifma() (crypto/arith/cpu_features.h) answers false, as on a CPU
// without the extension, so that the refusal paths of the IFMA kernel and of
// a forced kernel dispatch run on every machine, not only on old CPUs.
// Process-wide; create and destroy it while no batch is running. Not for
// daemons (use PPLDA_CRYPTO_PORTABLE).
#ifndef PPLDA_CRYPTO_ARITH_CPU_FEATURES_TESTING_H_
#define PPLDA_CRYPTO_ARITH_CPU_FEATURES_TESTING_H_

namespace pplda::crypto {

class ScopedHideAvx512Ifma {
 public:
  ScopedHideAvx512Ifma();
  ~ScopedHideAvx512Ifma();
  ScopedHideAvx512Ifma(const ScopedHideAvx512Ifma&) = delete;
  ScopedHideAvx512Ifma& operator=(const ScopedHideAvx512Ifma&) = delete;

 private:
  bool previous_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_ARITH_CPU_FEATURES_TESTING_H_

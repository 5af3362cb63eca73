// ScopedModExpPath: forces the path of BatchModExp (crypto/modexp/batch_modexp.h)
// for its lifetime, for tests and benchmarks that compare the kernel with
// GMP in one process. Forcing kIfma on a CPU without AVX-512 IFMA makes
// BatchModExp fail with FailedPrecondition (it never runs the kernel there);
// tests check CpuHasAvx512Ifma() first and skip.
// Not for daemons (use PPLDA_CRYPTO_PORTABLE). Process-wide; scopes nest
// (the destructor restores the previous setting); create and destroy them
// while no batch is running.
#ifndef PPLDA_CRYPTO_MODEXP_BATCH_MODEXP_TESTING_H_
#define PPLDA_CRYPTO_MODEXP_BATCH_MODEXP_TESTING_H_

#include "crypto/modexp/batch_modexp.h"

namespace pplda::crypto {

class ScopedModExpPath {
 public:
  explicit ScopedModExpPath(ModExpPath path);
  ~ScopedModExpPath();
  ScopedModExpPath(const ScopedModExpPath&) = delete;
  ScopedModExpPath& operator=(const ScopedModExpPath&) = delete;

 private:
  int previous_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MODEXP_BATCH_MODEXP_TESTING_H_

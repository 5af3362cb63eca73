#include "base/allocator_tuning.h"

#include <malloc.h>

#include <cstdlib>
#include <cstring>

namespace pplda {
namespace {

constexpr int kArenas = 1;
constexpr int kMmapThresholdBytes = 32 << 20;  // glibc's maximum on 64-bit
constexpr int kTrimThresholdBytes = 1 << 30;

bool OperatorTunedMalloc() {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables != nullptr && std::strstr(tunables, "glibc.malloc.") != nullptr;
}

}  // namespace

bool KeepFreedBuffersForReuse() {
  if (OperatorTunedMalloc()) return false;
  // mallopt returns 1 on success, 0 on error.
  return mallopt(M_ARENA_MAX, kArenas) == 1 &&
         mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes) == 1 &&
         mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes) == 1;
}

}  // namespace pplda

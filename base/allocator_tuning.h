// KeepFreedBuffersForReuse: tunes glibc's malloc for processes that allocate
// and free buffers of several megabytes in every MPC round (the engine's
// share vectors and messages). By default glibc serves such buffers from
// fresh mmap()s or from per-thread heaps that it unmaps again when they
// empty, so every round the kernel zeroes new pages: page faults were 10 to
// 15% of the CPU time of three party daemons (docs/performance.md). After
// this call: one arena, no mmap below 32 MiB, no trimming of less than
// 1 GiB of free heap, so a freed buffer is reused without a page fault.
// Cost: the process keeps its peak heap (it does not shrink after a run).
// Skipped when GLIBC_TUNABLES sets a glibc.malloc tunable: the operator's
// choice wins. Call first in main(), before any thread starts.
#ifndef PPLDA_BASE_ALLOCATOR_TUNING_H_
#define PPLDA_BASE_ALLOCATOR_TUNING_H_

namespace pplda {

// True when the tuning was applied, false when skipped or refused by malloc.
bool KeepFreedBuffersForReuse();

}  // namespace pplda

#endif  // PPLDA_BASE_ALLOCATOR_TUNING_H_

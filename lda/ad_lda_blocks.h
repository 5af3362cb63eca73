// AD-LDA (approximate distributed LDA) as the standard and mh samplers run
// it on threads: the documents in contiguous blocks, one per thread
// (DocumentBlockBoundaries); block 0 samples against the global counts,
// every other block against its own copy; after the parallel sweep each
// block's recorded moves are applied to every other block's copy, so all
// copies equal the counts of the new z between iterations.
#ifndef PPLDA_LDA_AD_LDA_BLOCKS_H_
#define PPLDA_LDA_AD_LDA_BLOCKS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "base/thread_pool.h"
#include "lda/term_topic_counts.h"

namespace pplda::lda {

// The counts one block samples against.
struct AdLdaCounts {
  TermTopicCounts local_counts;
  std::vector<int64_t> local_totals;
  TermTopicCounts* counts = nullptr;
  std::vector<int64_t>* totals = nullptr;

  // Block `index`: the global counts for block 0, a copy of them otherwise.
  void Bind(int index, TermTopicCounts& global_counts, std::vector<int64_t>& global_totals);
  // Another block moved an occurrence of term `t` from topic `from` to `to`.
  void Move(TermId t, int from, int to) {
    counts->Decrement(t, from);
    counts->Increment(t, to);
    --(*totals)[from];
    ++(*totals)[to];
  }
  // For tests: InternalError naming block `index` (> 0) and the first total,
  // count (or, with `compare_lists`, non-zero list) of its copy that differs
  // from the global one.
  absl::Status CheckCopy(size_t index, const TermTopicCounts& global_counts,
                         const std::vector<int64_t>& global_totals, bool compare_lists) const;
};

// What a sampler of `blocks` AD-LDA blocks reports as its parallel scheme:
// "sequential" for one block.
std::string_view AdLdaScheme(size_t blocks);

// One iteration: sweep(block) on every block (on `pool`, one task a block,
// when there are several), then each block's `moves` applied to every other
// block by apply(target, move).
template <typename Block, typename Sweep, typename Apply>
void RunAdLdaIteration(ThreadPool* pool, std::vector<std::unique_ptr<Block>>& blocks, Sweep sweep,
                       Apply apply) {
  const size_t n = blocks.size();
  if (n == 1) {
    sweep(*blocks[0]);
    return;
  }
  pool->ParallelForChunks(n, n, [&](size_t begin, size_t end, int) {
    for (size_t p = begin; p < end; ++p) sweep(*blocks[p]);
  });
  // Each block's copy already holds its own moves.
  pool->ParallelForChunks(n, n, [&](size_t begin, size_t end, int) {
    for (size_t p = begin; p < end; ++p) {
      for (size_t q = 0; q < n; ++q) {
        if (q == p) continue;
        for (const auto& move : blocks[q]->moves) apply(*blocks[p], move);
      }
    }
  });
}

}  // namespace pplda::lda

#endif  // PPLDA_LDA_AD_LDA_BLOCKS_H_

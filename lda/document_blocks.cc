#include "lda/document_blocks.h"

#include <algorithm>

namespace pplda::lda {

std::vector<int32_t> DocumentBlockBoundaries(const GibbsState& state, int parts) {
  std::vector<int32_t> bounds{0};
  int64_t seen = 0;
  int p = 1;
  for (int32_t m = 0; m < state.num_documents(); ++m) {
    seen += static_cast<int64_t>(state.tokens[m].size());
    while (p < parts && seen * parts >= state.num_tokens * p) {
      bounds.push_back(m + 1);
      ++p;
    }
  }
  while (static_cast<int>(bounds.size()) <= parts) bounds.push_back(state.num_documents());
  return bounds;
}

std::vector<std::vector<int32_t>> InterleavedDocumentSets(const GibbsState& state, int parts) {
  int64_t total = 0;
  for (const auto& doc : state.tokens) total += static_cast<int64_t>(doc.size());
  const int64_t run_tokens = total / (static_cast<int64_t>(parts) * kInterleavedRuns);
  std::vector<std::vector<int32_t>> sets(parts);
  std::vector<int64_t> tokens(parts, 0);
  int32_t run_begin = 0;
  int64_t run_length = 0;
  for (int32_t m = 0; m < state.num_documents(); ++m) {
    run_length += static_cast<int64_t>(state.tokens[m].size());
    if (run_length < run_tokens && m + 1 < state.num_documents()) continue;
    const auto fewest = std::min_element(tokens.begin(), tokens.end());
    for (int32_t d = run_begin; d <= m; ++d) sets[fewest - tokens.begin()].push_back(d);
    *fewest += run_length;
    run_begin = m + 1;
    run_length = 0;
  }
  return sets;
}

}  // namespace pplda::lda

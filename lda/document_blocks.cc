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
  std::vector<std::vector<int32_t>> sets(parts);
  std::vector<int64_t> tokens(parts, 0);
  for (int32_t m = 0; m < state.num_documents(); ++m) {
    const auto fewest = std::min_element(tokens.begin(), tokens.end());
    sets[fewest - tokens.begin()].push_back(m);
    *fewest += static_cast<int64_t>(state.tokens[m].size());
  }
  return sets;
}

}  // namespace pplda::lda

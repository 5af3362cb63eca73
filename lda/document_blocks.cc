#include "lda/document_blocks.h"

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

}  // namespace pplda::lda

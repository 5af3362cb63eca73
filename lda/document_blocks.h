// How the AD-LDA samplers (standard, mh) cut the documents into one block per
// thread: contiguous runs of documents with about equal token counts.
#ifndef PPLDA_LDA_DOCUMENT_BLOCKS_H_
#define PPLDA_LDA_DOCUMENT_BLOCKS_H_

#include <cstdint>
#include <vector>

#include "lda/gibbs_state.h"

namespace pplda::lda {

// parts + 1 boundaries b_0 = 0 <= b_1 <= ... <= b_parts = D: block p holds
// documents [b_p, b_{p+1}). parts >= 1.
std::vector<int32_t> DocumentBlockBoundaries(const GibbsState& state, int parts);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_DOCUMENT_BLOCKS_H_

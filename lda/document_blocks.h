// How the samplers split the documents between their threads: the AD-LDA
// samplers (standard, mh) into contiguous blocks of about equal tokens, the
// sparse sampler into interleaved sets of about equal tokens.
#ifndef PPLDA_LDA_DOCUMENT_BLOCKS_H_
#define PPLDA_LDA_DOCUMENT_BLOCKS_H_

#include <cstdint>
#include <vector>

#include "lda/gibbs_state.h"

namespace pplda::lda {

// parts + 1 boundaries b_0 = 0 <= b_1 <= ... <= b_parts = D: block p holds
// documents [b_p, b_{p+1}). parts >= 1.
std::vector<int32_t> DocumentBlockBoundaries(const GibbsState& state, int parts);

// parts sets of document indices, each in increasing order, together every
// document once: the corpus cut into runs of consecutive documents, each
// of at least 1/(parts x kInterleavedRuns) of the tokens (the last run: what
// is left), each run in corpus order to the set with the fewest tokens so
// far (ties: the lowest set). Each set then samples the whole corpus, so a corpus
// ordered by genre or date does not give one set its costlier part
// (contiguous halves of Brown differ by 5% in sampling cost). Long runs,
// not single documents or short runs: on SOTU's 35-token windows at K = 20
// single documents cost 26% and runs of 1/32 of a set's share up to 30% in
// some of the host's spells (the cause not found; docs/measurements.md);
// runs of 1/4 ran as fast as contiguous blocks there. The sets' token
// counts differ by at most the longest run's. parts >= 1.
inline constexpr int kInterleavedRuns = 4;
std::vector<std::vector<int32_t>> InterleavedDocumentSets(const GibbsState& state, int parts);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_DOCUMENT_BLOCKS_H_

// The sparse sampler's tokens laid out in the order its sweeps visit them
// (sparse_gibbs_sampler.h). Internal to the sampler.
//
// Invariant: document m's tokens of term range g are entries
// [segment[m (P + 1) + g], segment[m (P + 1) + g + 1]) of terms and z, most
// frequent term first (ties by term id), a term's tokens in reading order;
// a document's P ranges are contiguous, documents in order; position is
// each entry's index in its document.
#ifndef PPLDA_LDA_TOKEN_LAYOUT_H_
#define PPLDA_LDA_TOKEN_LAYOUT_H_

#include <cstdint>
#include <vector>

#include "lda/gibbs_state.h"

namespace pplda::lda {

struct TokenLayout {
  // state's tokens and assignments under P = term_bounds.size() - 1 term
  // ranges [term_bounds[g], term_bounds[g + 1]) covering every term id.
  // Linear in the tokens (one pass per term in visiting order, no sort).
  static TokenLayout Build(const GibbsState& state, const std::vector<TermId>& term_bounds);

  std::vector<int64_t> segment;  // D x (P + 1) offsets
  std::vector<TermId> terms;
  std::vector<int32_t> z;
  std::vector<int32_t> position;
};

// Each term's place in the visiting order: the most frequent term first,
// ties by term id.
std::vector<uint32_t> TermVisitRanks(const std::vector<int32_t>& frequency);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_TOKEN_LAYOUT_H_

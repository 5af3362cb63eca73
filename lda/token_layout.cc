#include "lda/token_layout.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace pplda::lda {

std::vector<uint32_t> TermVisitRanks(const std::vector<int32_t>& frequency) {
  std::vector<TermId> terms(frequency.size());
  std::iota(terms.begin(), terms.end(), TermId{0});
  std::sort(terms.begin(), terms.end(), [&](TermId a, TermId b) {
    return frequency[a] != frequency[b] ? frequency[a] > frequency[b] : a < b;
  });
  std::vector<uint32_t> rank(frequency.size());
  for (size_t r = 0; r < terms.size(); ++r) rank[terms[r]] = static_cast<uint32_t>(r);
  return rank;
}

namespace {

// Every token's (document, index) grouped by term: term t's are entries
// [begin[t], begin[t + 1]) of document and index, in reading order.
struct Occurrences {
  std::vector<int64_t> begin;
  std::vector<int32_t> document, index;
};

Occurrences OccurrencesByTerm(const GibbsState& state, const std::vector<int32_t>& frequency) {
  Occurrences out;
  out.begin.assign(frequency.size() + 1, 0);
  for (size_t t = 0; t < frequency.size(); ++t) out.begin[t + 1] = out.begin[t] + frequency[t];
  out.document.resize(static_cast<size_t>(state.num_tokens));
  out.index.resize(static_cast<size_t>(state.num_tokens));
  std::vector<int64_t> next(out.begin.begin(), out.begin.end() - 1);
  for (int32_t m = 0; m < state.num_documents(); ++m) {
    for (size_t i = 0; i < state.tokens[m].size(); ++i) {
      const int64_t slot = next[state.tokens[m][i]]++;
      out.document[slot] = m;
      out.index[slot] = static_cast<int32_t>(i);
    }
  }
  return out;
}

// D x (P + 1) offsets: document by document, range by range, the segment
// sizes summed; range_of[t] is term t's range.
std::vector<int64_t> SegmentOffsets(const GibbsState& state, const std::vector<int32_t>& range_of,
                                    int parts) {
  const size_t row = static_cast<size_t>(parts) + 1;
  std::vector<int64_t> size(static_cast<size_t>(state.num_documents()) * row, 0);
  for (int32_t m = 0; m < state.num_documents(); ++m) {
    for (const TermId t : state.tokens[m]) ++size[m * row + range_of[t]];
  }
  std::vector<int64_t> segment(size.size(), 0);
  int64_t offset = 0;
  for (int32_t m = 0; m < state.num_documents(); ++m) {
    for (int g = 0; g < parts; ++g) {
      segment[m * row + g] = offset;
      offset += size[m * row + g];
    }
    segment[m * row + parts] = offset;
  }
  return segment;
}

}  // namespace

TokenLayout TokenLayout::Build(const GibbsState& state, const std::vector<TermId>& term_bounds) {
  const int parts = static_cast<int>(term_bounds.size()) - 1;
  const size_t row = static_cast<size_t>(parts) + 1;
  std::vector<int32_t> range_of(static_cast<size_t>(state.num_terms), 0);
  for (int g = 0; g < parts; ++g) {
    std::fill(range_of.begin() + term_bounds[g], range_of.begin() + term_bounds[g + 1], g);
  }
  TokenLayout out;
  out.segment = SegmentOffsets(state, range_of, parts);
  // Terms in visiting order, each term's tokens into their segments.
  const std::vector<int32_t> frequency = state.TermFrequencies();
  const Occurrences occurrences = OccurrencesByTerm(state, frequency);
  const std::vector<uint32_t> rank = TermVisitRanks(frequency);
  std::vector<TermId> by_rank(rank.size());
  for (size_t t = 0; t < rank.size(); ++t) by_rank[rank[t]] = static_cast<TermId>(t);
  std::vector<int64_t> next(out.segment);  // each segment's next free entry
  out.terms.resize(static_cast<size_t>(state.num_tokens));
  out.z.resize(static_cast<size_t>(state.num_tokens));
  out.position.resize(static_cast<size_t>(state.num_tokens));
  for (const TermId t : by_rank) {
    for (int64_t o = occurrences.begin[t]; o < occurrences.begin[t + 1]; ++o) {
      const int32_t m = occurrences.document[o], i = occurrences.index[o];
      const int64_t slot = next[m * row + range_of[t]]++;
      out.terms[slot] = t;
      out.z[slot] = state.z[m][i];
      out.position[slot] = i;
    }
  }
  return out;
}

}  // namespace pplda::lda

#include "lda/ad_lda_blocks.h"

#include "absl/strings/str_cat.h"

namespace pplda::lda {

void AdLdaCounts::Bind(int index, TermTopicCounts& global_counts,
                       std::vector<int64_t>& global_totals) {
  if (index == 0) {
    counts = &global_counts;
    totals = &global_totals;
    return;
  }
  local_counts = global_counts;
  local_totals = global_totals;
  counts = &local_counts;
  totals = &local_totals;
}

absl::Status AdLdaCounts::CheckCopy(size_t index, const TermTopicCounts& global_counts,
                                    const std::vector<int64_t>& global_totals,
                                    bool compare_lists) const {
  if (local_totals != global_totals) {
    return absl::InternalError(absl::StrCat("block ", index, ": topic totals differ"));
  }
  for (TermId t = 0; t < global_counts.num_terms(); ++t) {
    for (int k = 0; k < global_counts.num_topics(); ++k) {
      if (local_counts.count(t, k) != global_counts.count(t, k)) {
        return absl::InternalError(
            absl::StrCat("block ", index, ": count of term ", t, " topic ", k, " differs"));
      }
    }
    if (compare_lists &&
        local_counts.nonzero_topics(t).size() != global_counts.nonzero_topics(t).size()) {
      return absl::InternalError(
          absl::StrCat("block ", index, ": non-zero list of term ", t, " differs"));
    }
  }
  return absl::OkStatus();
}

std::string_view AdLdaScheme(size_t blocks) {
  return blocks == 1 ? "sequential" : "AD-LDA (document blocks, count deltas merged per iteration)";
}

}  // namespace pplda::lda

// The privacy unit of a DP release and what group privacy gives for larger
// groups.
//
// Adjacency in pplda is add-or-remove-one-document, where a document is one
// document as pplda reads it: with `--split paragraphs` or `--split
// sentences` the reader cuts each source file into several documents
// (paragraphs, or windows of whole sentences of at most --window-words
// words), and each of those is a unit. The guarantee then protects one
// window, NOT the source file it came from.
//
// Group privacy (Dwork & Roth, "The Algorithmic Foundations of Differential
// Privacy", 2014, the group-privacy property of sec. 2.3; Vadhan, "The
// Complexity of Differential Privacy", 2017, Lemma 2.2): an (epsilon,
// delta)-DP mechanism is, for datasets that differ in g units,
//
//     (g epsilon, g e^((g-1) epsilon) delta)-DP
//
// (chain the definition through g neighbours: the deltas add up to
// delta (1 + e^epsilon + ... + e^((g-1) epsilon)) <= g e^((g-1) epsilon)
// delta). So a source file cut into g units is covered with that bound,
// which grows fast: it is vacuous (delta >= 1) from a modest g at the usual
// epsilons. GroupPrivacyVacuousFrom gives that g.
//
// Thread-safety: pure functions.
#ifndef PPLDA_PRIVACY_PRIVACY_UNIT_H_
#define PPLDA_PRIVACY_PRIVACY_UNIT_H_

#include <cstdint>
#include <string>

#include "lda/document_reader.h"
#include "nlohmann/json.hpp"

namespace pplda::privacy {

struct PrivacyUnit {
  std::string name;         // "document", "paragraph", "sentence window", "prepared document"
  std::string description;  // one sentence: what one unit is for this input
  bool part_of_a_file = false;  // true when source files are cut into several units
};

// The unit for documents read with `format` (already resolved or kAuto) and
// `split` (window_words is used by kSentences). `prepared` is true when the
// input is a folder written by `pplda prepare`, whose documents were cut when
// it was prepared.
PrivacyUnit DescribePrivacyUnit(lda::InputFormat format, lda::SplitMode split, int window_words,
                                bool prepared);

struct GroupBound {
  double epsilon = 0;
  double delta = 0;  // may exceed 1 (then the bound says nothing)
};

// (g epsilon, g e^((g-1) epsilon) delta) for g >= 1.
GroupBound GroupPrivacy(double epsilon, double delta, int64_t group_size);

// The smallest g >= 1 for which GroupPrivacy(epsilon, delta, g).delta >= 1
// (capped at 1,000,000).
int64_t GroupPrivacyVacuousFrom(double epsilon, double delta);

// The formula in words, with this epsilon and delta filled in.
std::string GroupPrivacyFormula(double epsilon, double delta);

// {"unit", "description", "adjacency", "group_privacy", "group_privacy_vacuous_from_units"}
// for a release that is (epsilon, delta)-DP in `unit`.
nlohmann::json PrivacyUnitJson(const PrivacyUnit& unit, double epsilon, double delta);

// One line for the CLI: the unit, and with split input what group privacy
// gives for a whole file.
std::string PrivacyUnitLine(const PrivacyUnit& unit, double epsilon, double delta);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_PRIVACY_UNIT_H_

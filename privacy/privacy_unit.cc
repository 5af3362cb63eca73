#include "privacy/privacy_unit.h"

#include <cmath>

#include "absl/strings/str_format.h"

namespace pplda::privacy {
namespace {

// The subject of the group-privacy sentence, with its verb.
std::string Group(const PrivacyUnit& unit) {
  return unit.part_of_a_file ? "A source file cut into g " + unit.name + "s is"
                             : std::string("g documents (e.g. of one author) are");
}

}  // namespace

PrivacyUnit DescribePrivacyUnit(lda::InputFormat format, lda::SplitMode split, int window_words,
                                bool prepared) {
  if (prepared) {
    return {"prepared document",
            "one document of the prepared folder, as `pplda prepare` cut it (with --split "
            "there, a paragraph or a sentence window, not the source file)",
            true};
  }
  switch (split) {
    case lda::SplitMode::kSentences:
      return {"sentence window",
              absl::StrFormat("one window of whole sentences of at most %d words (--split "
                              "sentences; a longer sentence is its own window), not the source "
                              "file it was cut from",
                              window_words),
              true};
    case lda::SplitMode::kParagraphs:
      return {"paragraph",
              "one blank-line-separated paragraph (--split paragraphs), not the source file it "
              "was cut from",
              true};
    case lda::SplitMode::kNone:
      break;
  }
  switch (format) {
    case lda::InputFormat::kFolder:
      return {"document", "one .txt file of the input folder (one document)", false};
    case lda::InputFormat::kLines:
      return {"document", "one line of the input file (one document)", false};
    case lda::InputFormat::kUci:
      return {"document", "one document (docID) of the UCI docword file", false};
    case lda::InputFormat::kAuto:
      break;
  }
  return {"document",
          "one input document (a .txt file of a folder, a line of a lines file, or a UCI "
          "document)",
          false};
}

GroupBound GroupPrivacy(double epsilon, double delta, int64_t group_size) {
  const double g = static_cast<double>(group_size);
  return {g * epsilon, g * std::exp((g - 1) * epsilon) * delta};
}

int64_t GroupPrivacyVacuousFrom(double epsilon, double delta) {
  constexpr int64_t kCap = 1'000'000;
  for (int64_t g = 1; g < kCap; ++g) {
    const double log_delta =
        std::log(static_cast<double>(g)) + static_cast<double>(g - 1) * epsilon + std::log(delta);
    if (log_delta >= 0) return g;
  }
  return kCap;
}

std::string GroupPrivacyFormula(double epsilon, double delta) {
  return absl::StrFormat("(g * %g, g * e^((g - 1) * %g) * %g)", epsilon, epsilon, delta);
}

nlohmann::json PrivacyUnitJson(const PrivacyUnit& unit, double epsilon, double delta) {
  return {{"unit", unit.name},
          {"description", unit.description},
          {"adjacency", "add or remove one " + unit.name},
          {"group_privacy",
           absl::StrFormat("%s covered only by group privacy: (g epsilon, g e^((g-1) "
                           "epsilon) delta)-DP, here %s",
                           Group(unit), GroupPrivacyFormula(epsilon, delta))},
          {"group_privacy_vacuous_from_units", GroupPrivacyVacuousFrom(epsilon, delta)}};
}

std::string PrivacyUnitLine(const PrivacyUnit& unit, double epsilon, double delta) {
  const GroupBound two = GroupPrivacy(epsilon, delta, 2);
  return absl::StrFormat(
      "privacy unit: %s. %s covered only by group privacy, %s-DP: (%g, %.3g) for g = 2, "
      "nothing (delta >= 1) from g = %d",
      unit.description, Group(unit), GroupPrivacyFormula(epsilon, delta), two.epsilon, two.delta,
      GroupPrivacyVacuousFrom(epsilon, delta));
}

}  // namespace pplda::privacy

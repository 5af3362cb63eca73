// The privacy unit and group privacy: the bound (g eps, g e^((g-1) eps)
// delta) against hand values, where it becomes vacuous, and the unit's
// description for each split mode and format (a window, not the file).
#include "privacy/privacy_unit.h"

#include <cmath>
#include <string>

#include "gtest/gtest.h"

namespace pplda::privacy {
namespace {

TEST(GroupPrivacy, MatchesTheFormula) {
  const GroupBound one = GroupPrivacy(2, 1e-5, 1);
  EXPECT_DOUBLE_EQ(one.epsilon, 2);
  EXPECT_DOUBLE_EQ(one.delta, 1e-5);
  const GroupBound two = GroupPrivacy(2, 1e-5, 2);
  EXPECT_DOUBLE_EQ(two.epsilon, 4);
  EXPECT_NEAR(two.delta, 2 * std::exp(2.0) * 1e-5, 1e-18);  // 1.478e-4
  const GroupBound ten = GroupPrivacy(0.5, 1e-6, 10);
  EXPECT_DOUBLE_EQ(ten.epsilon, 5);
  EXPECT_NEAR(ten.delta, 10 * std::exp(4.5) * 1e-6, 1e-15);
}

TEST(GroupPrivacy, VacuousFromTheFirstGroupWhoseDeltaReachesOne) {
  // epsilon 2, delta 1e-5: g e^(2(g-1)) 1e-5 is 0.016 at g = 4, 0.149 at
  // g = 5 and 1.32 at g = 6.
  EXPECT_EQ(GroupPrivacyVacuousFrom(2, 1e-5), 6);
  EXPECT_LT(GroupPrivacy(2, 1e-5, 5).delta, 1);
  EXPECT_GE(GroupPrivacy(2, 1e-5, 6).delta, 1);
  // Small epsilon: g e^((g-1) 0.01) 1e-5 >= 1 needs g around 707.
  const int64_t g = GroupPrivacyVacuousFrom(0.01, 1e-5);
  EXPECT_LT(GroupPrivacy(0.01, 1e-5, g - 1).delta, 1);
  EXPECT_GE(GroupPrivacy(0.01, 1e-5, g).delta, 1);
  EXPECT_EQ(GroupPrivacyVacuousFrom(1000, 0.4), 2);
}

TEST(PrivacyUnit, WithSplitTheUnitIsAPieceNotTheFile) {
  const PrivacyUnit w =
      DescribePrivacyUnit(lda::InputFormat::kFolder, lda::SplitMode::kSentences, 400, false);
  EXPECT_EQ(w.name, "sentence window");
  EXPECT_TRUE(w.part_of_a_file);
  EXPECT_NE(w.description.find("at most 400 words"), std::string::npos) << w.description;
  EXPECT_NE(w.description.find("not the source file"), std::string::npos) << w.description;
  const PrivacyUnit p =
      DescribePrivacyUnit(lda::InputFormat::kFolder, lda::SplitMode::kParagraphs, 100, false);
  EXPECT_EQ(p.name, "paragraph");
  EXPECT_TRUE(p.part_of_a_file);
  const PrivacyUnit f =
      DescribePrivacyUnit(lda::InputFormat::kFolder, lda::SplitMode::kNone, 100, false);
  EXPECT_EQ(f.name, "document");
  EXPECT_FALSE(f.part_of_a_file);
  EXPECT_NE(f.description.find(".txt file"), std::string::npos);
  EXPECT_NE(DescribePrivacyUnit(lda::InputFormat::kLines, lda::SplitMode::kNone, 100, false)
                .description.find("one line"),
            std::string::npos);
  EXPECT_TRUE(DescribePrivacyUnit(lda::InputFormat::kFolder, lda::SplitMode::kNone, 100, true)
                  .part_of_a_file);
}

TEST(PrivacyUnit, JsonAndLineStateTheGroupBound) {
  const PrivacyUnit w =
      DescribePrivacyUnit(lda::InputFormat::kFolder, lda::SplitMode::kSentences, 100, false);
  const nlohmann::json j = PrivacyUnitJson(w, 2, 1e-5);
  EXPECT_EQ(j["unit"], "sentence window");
  EXPECT_EQ(j["adjacency"], "add or remove one sentence window");
  EXPECT_EQ(j["group_privacy_vacuous_from_units"], 6);
  const std::string group = j["group_privacy"];
  EXPECT_NE(group.find("A source file cut into g sentence windows"), std::string::npos) << group;
  EXPECT_NE(group.find("(g epsilon, g e^((g-1) epsilon) delta)"), std::string::npos) << group;
  EXPECT_NE(group.find("(g * 2, g * e^((g - 1) * 2) * 1e-05)"), std::string::npos) << group;
  const std::string line = PrivacyUnitLine(w, 2, 1e-5);
  EXPECT_EQ(line.rfind("privacy unit: one window of whole sentences of at most 100 words", 0), 0u)
      << line;
  EXPECT_NE(line.find("(4, 0.000148) for g = 2"), std::string::npos) << line;
  EXPECT_NE(line.find("from g = 6"), std::string::npos) << line;
}

}  // namespace
}  // namespace pplda::privacy

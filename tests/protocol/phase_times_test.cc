// protocol/phase_times.h: the six phases named once, in the order their
// seconds are kept, added and subtracted phase by phase.
#include "protocol/phase_times.h"

#include "gtest/gtest.h"

namespace pplda::protocol {
namespace {

TEST(PhaseTimesTest, NamesAndSecondsAreInTheSameOrder) {
  const PartyPhaseTimes t{1, 2, 3, 4, 5, 6};
  const std::array<double, kNumPhases> seconds = t.Seconds();
  const nlohmann::json json = PhaseSecondsJson(t);
  ASSERT_EQ(json.size(), static_cast<size_t>(kNumPhases));
  for (int i = 0; i < kNumPhases; ++i) {
    EXPECT_DOUBLE_EQ(json.at(std::string(kPhaseNames[i])).get<double>(), seconds[i]);
    EXPECT_DOUBLE_EQ(seconds[i], i + 1.0);
  }
  EXPECT_EQ(kPhaseNames[0], "selection");
  EXPECT_EQ(kPhaseNames[5], "update");
  EXPECT_DOUBLE_EQ(t.Total(), 21);
}

TEST(PhaseTimesTest, SinceSubtractsAndPlusAddsPhaseByPhase) {
  PartyPhaseTimes before{1, 1, 1, 1, 1, 1};
  const PartyPhaseTimes after{2, 3, 4, 5, 6, 7};
  const PartyPhaseTimes spent = after.Since(before);
  EXPECT_EQ(spent.Seconds(), (std::array<double, kNumPhases>{1, 2, 3, 4, 5, 6}));
  before += spent;
  EXPECT_EQ(before.Seconds(), after.Seconds());
}

}  // namespace
}  // namespace pplda::protocol

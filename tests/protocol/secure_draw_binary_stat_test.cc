// Statistical test of the secure weighted draw, binary-search method: for fixed
// weight vectors (very skewed weights with weight-1 and zero-weight topics, K = 7), 10^5 draws per
// vector are compared with the
// exact distribution w / S by Pearson's chi-square test (cells with an
// expected count below 5 pooled), at significance alpha = 0.001 with fixed
// seeds: a correct implementation fails a given case with probability
// 0.001, and the seeds make each run deterministic. Zero-weight topics are
// checked exactly: they must never be drawn.
#include "tests/protocol/secure_draw_stat_util.h"

namespace pplda::protocol {
namespace {

using draw_stat::ExpectDrawsMatch;
using draw_stat::StatCase;

class SecureDrawBinaryStatTest : public ::testing::TestWithParam<StatCase> {};

TEST_P(SecureDrawBinaryStatTest, DrawsMatchTheExactDistribution) {
  ExpectDrawsMatch(GetParam(), 1000 + GetParam().weights.size());
}

INSTANTIATE_TEST_SUITE_P(
    WeightVectors, SecureDrawBinaryStatTest,
    ::testing::Values(
        // K = 7, very skewed with a zero weight and weight-1 topics:
        // expected counts from 0.003 to 97,000.
        StatCase{"skewed_k7", 3, DrawMethod::kBinarySearch, 32,
                 {1, 1LL << 30, 3, 0, 1LL << 25, 1, 7LL << 20}}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace pplda::protocol

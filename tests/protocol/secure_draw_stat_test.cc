// Statistical test of the secure weighted draw, parallel-tree method: for fixed
// weight vectors (graded and near-uniform weights, K = 5 and K = 3), 10^5 draws per vector are
// compared with the
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

class SecureDrawParallelStatTest : public ::testing::TestWithParam<StatCase> {};

TEST_P(SecureDrawParallelStatTest, DrawsMatchTheExactDistribution) {
  ExpectDrawsMatch(GetParam(), 1000 + GetParam().weights.size());
}

INSTANTIATE_TEST_SUITE_P(
    WeightVectors, SecureDrawParallelStatTest,
    ::testing::Values(
        // K = 5, graded weights.
        StatCase{"graded_k5", 3, DrawMethod::kParallelTree, 32,
                 {1 << 20, 2 << 20, 3 << 20, 4 << 20, 5 << 20}},
        // K = 3 (not a power of two), near-uniform small weights, the
        // smallest weight budget.
        StatCase{"small_k3", 3, DrawMethod::kParallelTree, 4, {3, 4, 5}}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace pplda::protocol

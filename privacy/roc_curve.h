// The receiver operating characteristic of a membership score: for every
// threshold c, TPR(c) = #members with score >= c / #members and FPR(c) =
// #non-members with score >= c / #non-members. The curve has one vertex per
// distinct score (from the highest down), starting at (0, 0) and ending at
// (1, 1); tied scores move both rates in one step, so a tie is never split.
//
// Figures (as in Carlini et al. 2022 and Manzonelli et al. 2024):
//   TprAtFpr(f): the largest TPR of a vertex with FPR <= f (the attacker picks
//     the best threshold that stays within the false-positive budget);
//   AreaUnderCurve: trapezoid rule over the vertices, which equals
//     Pr[score(member) > score(non-member)] + Pr[tie] / 2;
//   BestBalancedAccuracy: max over vertices of (TPR + 1 - FPR) / 2.
// A rate of f is only resolved when there are at least 1/f non-members;
// callers report `negatives` alongside.
//
// Thread-safety: pure functions over values.
#ifndef PPLDA_PRIVACY_ROC_CURVE_H_
#define PPLDA_PRIVACY_ROC_CURVE_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"

namespace pplda::privacy {

struct RocPoint {
  double fpr = 0;
  double tpr = 0;
};

struct RocCurve {
  std::vector<RocPoint> points;  // vertices, FPR and TPR non-decreasing
  int64_t positives = 0;         // members
  int64_t negatives = 0;         // non-members
};

// InvalidArgument when the spans differ in length, a score is NaN or
// infinite (naming its index), or there is no member or no non-member.
absl::StatusOr<RocCurve> ComputeRocCurve(std::span<const double> scores,
                                         std::span<const uint8_t> is_member);

double TprAtFpr(const RocCurve& curve, double max_fpr);
double AreaUnderCurve(const RocCurve& curve);
double BestBalancedAccuracy(const RocCurve& curve);

// The curve as a step function sampled at FPR values spaced evenly on a log
// scale, `per_decade` per factor of ten, from `min_fpr` (> 0) up to 1; each
// sample is (f, TprAtFpr(f)). For plots and CSV files of bounded size.
std::vector<RocPoint> SampleLogSpaced(const RocCurve& curve, double min_fpr, int per_decade);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_ROC_CURVE_H_

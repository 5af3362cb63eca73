#include "privacy/roc_curve.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/strings/str_format.h"

namespace pplda::privacy {
namespace {

// Rates computed as count / total may differ from a budget like 0.001 in the
// last bit; a vertex within this relative slack of the budget is inside it.
constexpr double kRateSlack = 1e-12;

}  // namespace

absl::StatusOr<RocCurve> ComputeRocCurve(std::span<const double> scores,
                                         std::span<const uint8_t> is_member) {
  if (scores.size() != is_member.size()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "ROC: %d scores but %d membership labels", scores.size(), is_member.size()));
  }
  RocCurve curve;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (!std::isfinite(scores[i])) {
      return absl::InvalidArgumentError(
          absl::StrFormat("ROC: score %d is not a finite number (%g)", i, scores[i]));
    }
    (is_member[i] ? curve.positives : curve.negatives) += 1;
  }
  if (curve.positives == 0 || curve.negatives == 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "ROC needs members and non-members; got %d members and %d non-members",
        curve.positives, curve.negatives));
  }
  std::vector<size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
  curve.points.push_back({0.0, 0.0});
  int64_t tp = 0, fp = 0;
  for (size_t i = 0; i < order.size();) {
    const double threshold = scores[order[i]];
    for (; i < order.size() && scores[order[i]] == threshold; ++i) {
      (is_member[order[i]] ? tp : fp) += 1;
    }
    curve.points.push_back({static_cast<double>(fp) / curve.negatives,
                            static_cast<double>(tp) / curve.positives});
  }
  return curve;
}

double TprAtFpr(const RocCurve& curve, double max_fpr) {
  const double limit = max_fpr * (1 + kRateSlack);
  double best = 0;
  for (const RocPoint& p : curve.points) {
    if (p.fpr > limit) break;
    best = std::max(best, p.tpr);
  }
  return best;
}

double AreaUnderCurve(const RocCurve& curve) {
  double area = 0;
  for (size_t i = 1; i < curve.points.size(); ++i) {
    const RocPoint& a = curve.points[i - 1];
    const RocPoint& b = curve.points[i];
    area += (b.fpr - a.fpr) * (a.tpr + b.tpr) / 2;
  }
  return area;
}

double BestBalancedAccuracy(const RocCurve& curve) {
  double best = 0;
  for (const RocPoint& p : curve.points) best = std::max(best, (p.tpr + 1 - p.fpr) / 2);
  return best;
}

std::vector<RocPoint> SampleLogSpaced(const RocCurve& curve, double min_fpr, int per_decade) {
  std::vector<RocPoint> samples;
  if (!(min_fpr > 0) || min_fpr >= 1 || per_decade < 1) return samples;
  const int steps = static_cast<int>(std::ceil(-std::log10(min_fpr) * per_decade - 1e-9));
  for (int i = 0; i <= steps; ++i) {
    const double f = i == steps ? 1.0 : min_fpr * std::pow(10.0, static_cast<double>(i) / per_decade);
    samples.push_back({f, TprAtFpr(curve, f)});
  }
  return samples;
}

}  // namespace pplda::privacy

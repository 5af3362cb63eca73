// ROC curves on log-log axes as a small, self-contained SVG image (no
// scripts, no external fonts): both axes run from `min_rate` to 1 with a
// grid line and label at every power of ten, the chance line TPR = FPR is
// dashed, and each series is a polyline with its label in a legend.
// Log axes show what matters for membership inference: the TPR at low FPR
// (Carlini et al. 2022, sec. III-B).
//
// Points with a rate below min_rate are drawn on the axis (clamped), since 0
// has no place on a log scale. Labels and the title are XML-escaped.
// Thread-safety: pure function.
#ifndef PPLDA_PRIVACY_ROC_PLOT_H_
#define PPLDA_PRIVACY_ROC_PLOT_H_

#include <string>
#include <vector>

#include "privacy/roc_curve.h"

namespace pplda::privacy {

struct RocSeries {
  std::string label;
  std::string color;  // an SVG colour, e.g. "#1f77b4"
  std::vector<RocPoint> points;
};

// The power of ten at or below 1 / negatives (at most 1e-1): the smallest
// FPR a curve over `negatives` non-members can resolve, as an axis limit.
double LogAxisMinimum(int64_t negatives);

// The SVG document. Requires 0 < min_rate < 1.
std::string RenderLogLogRocSvg(const std::vector<RocSeries>& series, const std::string& title,
                               double min_rate);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_ROC_PLOT_H_

#include "privacy/roc_plot.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace pplda::privacy {
namespace {

constexpr double kWidth = 640, kHeight = 560;
constexpr double kLeft = 78, kRight = 24, kTop = 44, kBottom = 150;
constexpr double kPlotW = kWidth - kLeft - kRight;
constexpr double kPlotH = kHeight - kTop - kBottom;

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Position of a rate on an axis of `decades` powers of ten below 1, in [0, 1].
double Fraction(double rate, double min_rate) {
  const double r = std::clamp(rate, min_rate, 1.0);
  return 1.0 - std::log10(r) / std::log10(min_rate);
}

double X(double fpr, double min_rate) { return kLeft + Fraction(fpr, min_rate) * kPlotW; }
double Y(double tpr, double min_rate) { return kTop + (1 - Fraction(tpr, min_rate)) * kPlotH; }

// "10<sup>-3</sup>" as SVG text.
std::string PowerLabel(int exponent) {
  if (exponent == 0) return "1";
  return absl::StrFormat("10<tspan dy=\"-7\" font-size=\"10\">%d</tspan>", exponent);
}

std::string Axes(double min_rate) {
  std::string svg;
  const int decades = static_cast<int>(std::lround(-std::log10(min_rate)));
  for (int e = -decades; e <= 0; ++e) {
    const double r = std::pow(10.0, e);
    const double x = X(r, min_rate), y = Y(r, min_rate);
    absl::StrAppendFormat(&svg,
                          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n",
                          x, kTop, x, kTop + kPlotH);
    absl::StrAppendFormat(&svg,
                          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n",
                          kLeft, y, kLeft + kPlotW, y);
    absl::StrAppendFormat(&svg, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", x,
                          kTop + kPlotH + 22, PowerLabel(e));
    absl::StrAppendFormat(&svg, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                          kLeft - 8, y + 5, PowerLabel(e));
  }
  absl::StrAppendFormat(&svg,
                        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"frame\"/>\n",
                        kLeft, kTop, kPlotW, kPlotH);
  absl::StrAppendFormat(&svg,
                        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"chance\"/>\n",
                        X(min_rate, min_rate), Y(min_rate, min_rate), X(1, min_rate), Y(1, min_rate));
  absl::StrAppendFormat(&svg,
                        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">false-positive rate</text>\n",
                        kLeft + kPlotW / 2, kTop + kPlotH + 48);
  absl::StrAppendFormat(&svg,
                        "<text transform=\"translate(20 %.1f) rotate(-90)\" text-anchor=\"middle\">"
                        "true-positive rate</text>\n",
                        kTop + kPlotH / 2);
  return svg;
}

std::string Series(const RocSeries& s, int index, double min_rate) {
  std::string points;
  for (const RocPoint& p : s.points) {
    absl::StrAppendFormat(&points, "%.2f,%.2f ", X(p.fpr, min_rate), Y(p.tpr, min_rate));
  }
  std::string svg = absl::StrFormat(
      "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", points,
      Escape(s.color));
  const double ly = kTop + kPlotH + 74 + 22 * index;
  absl::StrAppendFormat(&svg,
                        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                        "stroke-width=\"3\"/>\n",
                        kLeft, ly - 5, kLeft + 28, ly - 5, Escape(s.color));
  absl::StrAppendFormat(&svg, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", kLeft + 36, ly,
                        Escape(s.label));
  return svg;
}

}  // namespace

double LogAxisMinimum(int64_t negatives) {
  if (negatives <= 10) return 0.1;
  return std::pow(10.0, std::floor(-std::log10(static_cast<double>(negatives))));
}

std::string RenderLogLogRocSvg(const std::vector<RocSeries>& series, const std::string& title,
                               double min_rate) {
  std::string svg = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
      "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"13\">\n",
      kWidth, kHeight, kWidth, kHeight);
  svg +=
      "<style>.grid{stroke:#e3e3e3;stroke-width:1}.frame{fill:none;stroke:#444;stroke-width:1}"
      ".chance{stroke:#888;stroke-width:1;stroke-dasharray:5 4}</style>\n";
  absl::StrAppendFormat(&svg, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", kWidth,
                        kHeight);
  absl::StrAppendFormat(&svg,
                        "<text x=\"%.1f\" y=\"26\" text-anchor=\"middle\" font-size=\"15\">%s</text>\n",
                        kWidth / 2, Escape(title));
  svg += Axes(min_rate);
  for (size_t i = 0; i < series.size(); ++i) svg += Series(series[i], static_cast<int>(i), min_rate);
  const double ly = kTop + kPlotH + 74 + 22 * series.size();
  absl::StrAppendFormat(&svg,
                        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"chance\"/>\n",
                        kLeft, ly - 5, kLeft + 28, ly - 5);
  absl::StrAppendFormat(&svg, "<text x=\"%.1f\" y=\"%.1f\">chance (TPR = FPR)</text>\n",
                        kLeft + 36, ly);
  svg += "</svg>\n";
  return svg;
}

}  // namespace pplda::privacy

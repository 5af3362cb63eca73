#include "report/svg_chart.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace pplda::report {
namespace {

std::string Open(const std::string& name, const std::string& title, double w, double h,
                 bool show_title = true) {
  std::string svg = absl::StrFormat(
      "<svg class=\"chart\" data-chart=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
      "font-family=\"sans-serif\" font-size=\"12\"><title>%s</title>\n"
      "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n",
      EscapeHtml(name), w, h, w, h, EscapeHtml(title), w, h);
  if (show_title) {
    absl::StrAppendFormat(&svg,
                          "<text x=\"%.1f\" y=\"18\" text-anchor=\"middle\" "
                          "font-size=\"14\">%s</text>\n",
                          w / 2, EscapeHtml(title));
  }
  return svg;
}

// "1.5", "-0.25", "1e+03": short tick labels.
std::string Tick(double v) { return absl::StrFormat("%.3g", v); }

// Five "nice" ticks spanning [lo, hi].
std::vector<double> Ticks(double lo, double hi) {
  std::vector<double> t;
  for (int i = 0; i <= 4; ++i) t.push_back(lo + (hi - lo) * i / 4);
  return t;
}

}  // namespace

std::string EscapeHtml(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string HorizontalBarChart(const std::vector<Bar>& bars, const BarChartOptions& o) {
  const double top = o.show_title ? 30 : 6, bottom = 12, value_room = 70;
  const double h = top + bottom + o.bar_height * std::max<size_t>(bars.size(), 1) * 1.25;
  std::string svg = Open(o.name, o.title, o.width, h, o.show_title);
  if (bars.empty()) {
    absl::StrAppendFormat(&svg, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>",
                          o.width / 2, top + o.bar_height);
    return svg + "</svg>\n";
  }
  double lo = 0, hi = 0;
  for (const Bar& b : bars) {
    lo = std::min(lo, b.value);
    hi = std::max(hi, b.value);
  }
  if (hi - lo <= 0) hi = lo + 1;
  const double x0 = o.label_width + (lo < 0 ? value_room : 0);
  const double plot_w = o.width - x0 - value_room;
  auto X = [&](double v) { return x0 + (v - lo) / (hi - lo) * plot_w; };
  const double zero = X(0);
  for (size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double y = top + i * o.bar_height * 1.25;
    const double x = std::min(zero, X(b.value));
    const double w = std::max(std::abs(X(b.value) - zero), 0.5);
    absl::StrAppendFormat(&svg,
                          "<g><title>%s</title><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s"
                          "</text><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                          "fill=\"%s\"/>",
                          EscapeHtml(b.tooltip.empty() ? b.label : b.tooltip),
                          x0 - 6 - (lo < 0 ? value_room : 0), y + o.bar_height * 0.75,
                          EscapeHtml(b.label), x, y, w, o.bar_height, EscapeHtml(o.color));
    const bool left = b.value < 0;
    absl::StrAppendFormat(
        &svg, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"#333\">%s</text></g>\n",
        left ? x - 4 : x + w + 4, y + o.bar_height * 0.75, left ? "end" : "start",
        EscapeHtml(b.value_text));
  }
  absl::StrAppendFormat(&svg,
                        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
                        zero, top - 4, zero, h - bottom);
  return svg + "</svg>\n";
}

std::string LineChart(const std::vector<LinePoint>& points, const LineChartOptions& o) {
  const double left = 80, right = 20, top = 32, bottom = 48;
  std::string svg = Open(o.name, o.title, o.width, o.height);
  if (points.empty()) {
    absl::StrAppendFormat(&svg, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>",
                          o.width / 2, o.height / 2);
    return svg + "</svg>\n";
  }
  double xlo = points[0].x, xhi = xlo, ylo = points[0].y, yhi = ylo;
  for (const LinePoint& p : points) {
    xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x);
    ylo = std::min(ylo, p.y), yhi = std::max(yhi, p.y);
  }
  if (xhi - xlo <= 0) xlo -= 1, xhi += 1;
  if (yhi - ylo <= 0) {
    const double pad = std::max(std::abs(ylo) * 0.05, 1e-9);
    ylo -= pad, yhi += pad;
  }
  const double pw = o.width - left - right, ph = o.height - top - bottom;
  auto X = [&](double v) { return left + (v - xlo) / (xhi - xlo) * pw; };
  auto Y = [&](double v) { return top + ph - (v - ylo) / (yhi - ylo) * ph; };
  for (double t : Ticks(xlo, xhi)) {
    absl::StrAppendFormat(
        &svg,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>"
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
        X(t), top, X(t), top + ph, X(t), top + ph + 16, Tick(t));
  }
  for (double t : Ticks(ylo, yhi)) {
    absl::StrAppendFormat(
        &svg,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>"
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
        left, Y(t), left + pw, Y(t), left - 6, Y(t) + 4, Tick(t));
  }
  absl::StrAppendFormat(&svg,
                        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                        "stroke=\"#444\"/>\n",
                        left, top, pw, ph);
  absl::StrAppendFormat(&svg, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                        left + pw / 2, o.height - 8, EscapeHtml(o.x_label));
  absl::StrAppendFormat(&svg,
                        "<text transform=\"translate(14 %.1f) rotate(-90)\" text-anchor=\"middle\">"
                        "%s</text>\n",
                        top + ph / 2, EscapeHtml(o.y_label));
  std::string line;
  for (const LinePoint& p : points) absl::StrAppendFormat(&line, "%.2f,%.2f ", X(p.x), Y(p.y));
  absl::StrAppendFormat(
      &svg, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", line,
      EscapeHtml(o.color));
  for (const LinePoint& p : points) {
    absl::StrAppendFormat(
        &svg,
        "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" fill=\"%s\"><title>%s: %s</title>"
        "</circle>\n",
        X(p.x), Y(p.y), EscapeHtml(o.color), Tick(p.x), absl::StrFormat("%.6g", p.y));
  }
  return svg + "</svg>\n";
}

std::string BubbleMap(const std::vector<Bubble>& bubbles, const BubbleMapOptions& o) {
  const double pad = o.max_radius + 10, top = 28;
  const double s = o.size;
  std::string svg = Open(o.name, o.title, s, s + top);
  double extent = 0, max_area = 0;
  for (const Bubble& b : bubbles) {
    extent = std::max({extent, std::abs(b.x), std::abs(b.y)});
    max_area = std::max(max_area, b.area);
  }
  if (extent <= 0) extent = 1;
  const double half = s / 2 - pad;
  const double cx = s / 2, cy = top + s / 2;
  auto X = [&](double v) { return cx + v / extent * half; };
  auto Y = [&](double v) { return cy - v / extent * half; };
  absl::StrAppendFormat(&svg,
                        "<rect x=\"1\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                        "stroke=\"#444\"/>\n"
                        "<line x1=\"1\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\"/>"
                        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\"/>\n"
                        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#666\">%s</text>"
                        "<text x=\"%.1f\" y=\"%.1f\" fill=\"#666\">%s</text>\n",
                        top, s - 2, s - 2, cy, s - 1, cy, cx, top, cx, top + s - 2, s - 6, cy - 6,
                        EscapeHtml(o.x_label), cx + 6, top + 14, EscapeHtml(o.y_label));
  // Largest first, so that small bubbles stay visible on top.
  std::vector<size_t> order(bubbles.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return bubbles[a].area > bubbles[b].area; });
  for (size_t i : order) {
    const Bubble& b = bubbles[i];
    const double r =
        std::max(3.0, max_area > 0 ? o.max_radius * std::sqrt(std::max(b.area, 0.0) / max_area)
                                   : o.max_radius / 2);
    absl::StrAppendFormat(&svg,
                          "<g class=\"bubble\" data-topic=\"%s\"><title>%s</title>"
                          "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"#1f5fa8\" "
                          "fill-opacity=\"0.35\" stroke=\"#1f5fa8\"/>"
                          "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text></g>\n",
                          EscapeHtml(b.label), EscapeHtml(b.tooltip), X(b.x), Y(b.y), r, X(b.x),
                          Y(b.y) + 4, EscapeHtml(b.label));
  }
  return svg + "</svg>\n";
}

}  // namespace pplda::report

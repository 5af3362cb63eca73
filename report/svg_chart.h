// Small, self-contained SVG charts for the HTML report (report/html_report.h):
// no script, no external font or style, every label escaped, so a chart is
// correct inline in HTML and as a stand-alone image. Each chart is one
// <svg class="chart" data-chart="NAME"> element with a <title> for screen
// readers; its size is fixed by width and height (viewBox alike).
//
// Thread-safety: pure functions.
#ifndef PPLDA_REPORT_SVG_CHART_H_
#define PPLDA_REPORT_SVG_CHART_H_

#include <string>
#include <string_view>
#include <vector>

namespace pplda::report {

// `s` with & < > " ' replaced by character references: safe as HTML or XML
// text and inside a double- or single-quoted attribute.
std::string EscapeHtml(std::string_view s);

// One bar: `label` on the left, `value` as its length, `tooltip` shown on
// hover (SVG <title>), `value_text` printed at the bar's end.
struct Bar {
  std::string label;
  double value = 0;
  std::string value_text;
  std::string tooltip;
};

struct BarChartOptions {
  std::string name;        // data-chart attribute
  std::string title;       // drawn above the bars (and the <title> of the chart)
  bool show_title = true;  // false: only in <title>, the bars move up
  std::string color = "#1f5fa8";
  double width = 640;
  double bar_height = 18;
  double label_width = 150;  // room for labels left of the axis
};

// Horizontal bars from a zero axis: positive values to the right, negative
// to the left (the axis sits where 0 falls between the smallest and largest
// value). An empty `bars` gives a chart that says "no data".
std::string HorizontalBarChart(const std::vector<Bar>& bars, const BarChartOptions& options);

struct LinePoint {
  double x = 0;
  double y = 0;
};

struct LineChartOptions {
  std::string name;
  std::string title;
  std::string x_label;
  std::string y_label;
  std::string color = "#1f5fa8";
  double width = 640;
  double height = 320;
};

// A polyline with dots at the points, linear axes with 5 ticks spanning the
// data (padded when all values are equal). Needs at least one point.
std::string LineChart(const std::vector<LinePoint>& points, const LineChartOptions& options);

// A labelled circle of the bubble map.
struct Bubble {
  double x = 0;
  double y = 0;
  double area = 0;  // relative: the largest bubble gets max_radius
  std::string label;
  std::string tooltip;
};

struct BubbleMapOptions {
  std::string name;
  std::string title;
  std::string x_label = "PC1";
  std::string y_label = "PC2";
  double size = 520;  // square
  double max_radius = 40;
};

// Circles at (x, y) with area proportional to `area`, on equal scales in x
// and y (distances on the map are comparable in both directions), with the
// two axes through the origin.
std::string BubbleMap(const std::vector<Bubble>& bubbles, const BubbleMapOptions& options);

}  // namespace pplda::report

#endif  // PPLDA_REPORT_SVG_CHART_H_

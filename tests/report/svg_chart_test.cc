// report/svg_chart.h: escaping, and the geometry of each chart read back
// from its SVG text.
#include "report/svg_chart.h"

#include <regex>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The numbers of attribute `name` on every <tag ...> in `svg`.
std::vector<double> Attributes(const std::string& svg, const std::string& tag,
                               const std::string& name) {
  std::vector<double> out;
  const std::regex element("<" + tag + "\\b[^>]*>");
  const std::regex attribute("\\s" + name + "=\"([-0-9.]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), element);
       it != std::sregex_iterator(); ++it) {
    std::smatch m;
    const std::string text = it->str();
    if (std::regex_search(text, m, attribute)) out.push_back(std::stod(m[1]));
  }
  return out;
}

TEST(EscapeHtmlTest, EveryMarkupCharacter) {
  EXPECT_EQ(EscapeHtml("<a href='x'>\"&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(EscapeHtml("plain words é"), "plain words é");
}

TEST(HorizontalBarChartTest, BarLengthsProportionalToValues) {
  BarChartOptions o;
  o.name = "n";
  o.title = "T <1>";
  const std::string svg = HorizontalBarChart({{"a", 1, "1", ""}, {"b", 3, "3", "tip <b>"}}, o);
  EXPECT_THAT(svg, HasSubstr("data-chart=\"n\""));
  EXPECT_THAT(svg, HasSubstr("T &lt;1&gt;"));
  EXPECT_THAT(svg, HasSubstr("<title>tip &lt;b&gt;</title>"));
  const std::vector<double> widths = Attributes(svg, "rect", "width");
  ASSERT_EQ(widths.size(), 3u);  // background, two bars
  EXPECT_NEAR(widths[2] / widths[1], 3.0, 0.01);
}

TEST(HorizontalBarChartTest, NegativeBarsGrowLeftOfTheZeroAxis) {
  BarChartOptions o;
  const std::string svg = HorizontalBarChart({{"a", -2, "", ""}, {"b", -1, "", ""}}, o);
  const std::vector<double> x = Attributes(svg, "rect", "x");
  const std::vector<double> w = Attributes(svg, "rect", "width");
  ASSERT_EQ(x.size(), 2u);  // the background has no x
  // Both bars end at the zero axis; a's is twice as long.
  EXPECT_NEAR(x[0] + w[1], x[1] + w[2], 0.2);
  EXPECT_NEAR(w[1] / w[2], 2.0, 0.01);
  const std::vector<double> axis = Attributes(svg, "line", "x1");
  ASSERT_EQ(axis.size(), 1u);
  EXPECT_NEAR(axis[0], x[0] + w[1], 0.2);
}

TEST(HorizontalBarChartTest, NoBars) {
  EXPECT_THAT(HorizontalBarChart({}, BarChartOptions()), HasSubstr("no data"));
}

TEST(HorizontalBarChartTest, HiddenTitleStaysInTitleElement) {
  BarChartOptions o;
  o.title = "only for readers";
  o.show_title = false;
  const std::string svg = HorizontalBarChart({{"a", 1, "", ""}}, o);
  EXPECT_THAT(svg, HasSubstr("<title>only for readers</title>"));
  EXPECT_THAT(svg, Not(HasSubstr(">only for readers</text>")));
}

TEST(LineChartTest, PointsSpanThePlot) {
  LineChartOptions o;
  o.width = 500;
  o.height = 300;
  const std::string svg = LineChart({{1, -7}, {2, -6.5}, {3, -6}}, o);
  const std::vector<double> cx = Attributes(svg, "circle", "cx");
  const std::vector<double> cy = Attributes(svg, "circle", "cy");
  ASSERT_EQ(cx.size(), 3u);
  EXPECT_NEAR(cx[1] - cx[0], cx[2] - cx[1], 0.02);            // evenly spaced in x
  EXPECT_GT(cy[0], cy[2]);                                    // larger y is higher up
  EXPECT_THAT(LineChart({{5, 1}}, o), HasSubstr("<circle"));  // one point: padded axes
  EXPECT_THAT(LineChart({}, o), HasSubstr("no data"));
}

TEST(BubbleMapTest, EqualScalesAndAreaProportionalRadii) {
  BubbleMapOptions o;
  const std::string svg =
      BubbleMap({{1, 0, 4, "0", ""}, {0, 1, 1, "1", ""}, {-1, -1, 1, "2", ""}}, o);
  const std::vector<double> cx = Attributes(svg, "circle", "cx");
  const std::vector<double> cy = Attributes(svg, "circle", "cy");
  const std::vector<double> r = Attributes(svg, "circle", "r");
  ASSERT_EQ(r.size(), 3u);
  // Drawn largest first: bubble 0 (area 4) has twice the radius of the others.
  EXPECT_NEAR(r[0], 2 * r[1], 1e-6);
  // One unit is the same length in x and y.
  const double unit_x = cx[0] - cx[1], unit_y = cy[2] - cy[1];
  EXPECT_NEAR(unit_x, unit_y / 2, 0.02);
}

}  // namespace
}  // namespace pplda::report

#include "report/html_report.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "privacy/roc_plot.h"
#include "report/svg_chart.h"
#include "report/topic_map.h"

namespace pplda::report {
namespace {

using nlohmann::json;

constexpr char kStyle[] = R"css(
body{font-family:sans-serif;margin:0 auto;max-width:1100px;padding:16px 24px;color:#222}
h1{font-size:24px;margin-bottom:4px}h2{border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:32px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top;font-size:13px}
th{background:#f3f3f3}.num{text-align:right;font-variant-numeric:tabular-nums}
.note{color:#555;font-size:13px}.warn{background:#fff4e0;border-left:4px solid #d0661c;padding:6px 10px}
.ok{background:#eaf4ea;border-left:4px solid #2e7d32;padding:6px 10px}
.cards{display:flex;flex-wrap:wrap;gap:12px}.card{border:1px solid #ddd;padding:6px;border-radius:4px}
.card.selected{border-color:#d0661c;box-shadow:0 0 0 3px #f6c89a}.card h3{font-size:14px;margin:2px 0 4px}
.bubble{cursor:pointer}.row{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}.row>div{max-width:530px}svg{display:block;max-width:100%;height:auto}
)css";

// Highlights a topic's card when its bubble on the map is clicked.
constexpr char kScript[] = R"js(
document.querySelectorAll('.bubble').forEach(function (b) {
  b.addEventListener('click', function () {
    document.querySelectorAll('.card.selected').forEach(function (c) { c.classList.remove('selected'); });
    var card = document.getElementById('topic-' + b.getAttribute('data-topic'));
    if (card) { card.classList.add('selected'); card.scrollIntoView({block: 'nearest'}); }
  });
});
)js";

// The model's metadata, or an empty object when it is not one (a model
// built in code may hold anything; json::value() throws on non-objects).
const json& ObjectOrEmpty(const json& metadata) {
  static const json* const kEmpty = new json(json::object());
  return metadata.is_object() ? metadata : *kEmpty;
}

std::string Num(double v) { return absl::StrFormat("%.6g", v); }
std::string Percent(double v) { return absl::StrFormat("%.2f%%", 100 * v); }

// A JSON value as table text: strings as they are, numbers %.6g, arrays of
// scalars joined, anything else compact JSON.
std::string ValueText(const json& v) {
  if (v.is_null()) return "(none)";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_number_integer()) return absl::StrCat(v.get<int64_t>());
  if (v.is_number()) return Num(v.get<double>());
  if (v.is_array() &&
      std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_primitive(); })) {
    std::string out;
    for (const json& e : v) absl::StrAppend(&out, out.empty() ? "" : ", ", ValueText(e));
    return out;
  }
  return v.dump();
}

// Rows "prefix.key" -> value for every scalar under `v` (objects flattened;
// keys in `skip` left out at the top level).
void Flatten(const json& v, const std::string& prefix, const std::vector<std::string>& skip,
             std::vector<std::pair<std::string, std::string>>* rows) {
  if (!v.is_object()) {
    rows->push_back({prefix, ValueText(v)});
    return;
  }
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (prefix.empty() && std::find(skip.begin(), skip.end(), it.key()) != skip.end()) continue;
    Flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), {}, rows);
  }
}

std::string KeyValueTable(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::string html = "<table>\n";
  for (const auto& [k, v] : rows) {
    absl::StrAppend(&html, "<tr><th>", EscapeHtml(k), "</th><td>", EscapeHtml(v), "</td></tr>\n");
  }
  return html + "</table>\n";
}

std::string Text(const json& object, const char* key) {
  return object.is_object() && object.contains(key) && object[key].is_string()
             ? object[key].get<std::string>()
             : "";
}

std::string RunSection(const ReportInputs& in, const std::vector<int64_t>& totals) {
  const lda::LdaModel& m = *in.model;
  const json& meta = ObjectOrEmpty(m.metadata);
  const int64_t tokens = std::accumulate(totals.begin(), totals.end(), int64_t{0});
  std::string html = "<section id=\"run\"><h2>Run parameters</h2>\n";
  std::vector<std::pair<std::string, std::string>> rows = {
      {"model file", in.model_path},
      {"pplda version", Text(meta, "pplda_version")},
      {"created", Text(meta, "created")},
      {"topics (K)", absl::StrCat(m.num_topics)},
      {"vocabulary (V)", absl::StrCat(m.num_terms())},
      {"alpha", Num(m.alpha)},
      {"beta", Num(m.beta)},
      {"tokens in the topic-term counts", absl::StrCat(tokens)}};
  html += KeyValueTable(rows);
  for (const char* part : {"training", "evaluation", "corpus"}) {
    if (!meta.contains(part) || !meta[part].is_object()) continue;
    std::vector<std::pair<std::string, std::string>> params;
    Flatten(meta[part], "", {"log_likelihood_per_token_trace", "phase_seconds_party0"}, &params);
    // The corpus's many preprocessing figures are collapsed.
    const bool open = std::string(part) != "corpus";
    absl::StrAppend(&html, "<details", open ? " open" : "", "><summary>", part, "</summary>\n",
                    KeyValueTable(params), "</details>\n");
  }
  return html + "</section>\n";
}

std::string PrivacySection(const json& meta) {
  std::string html = "<section id=\"privacy\"><h2>Privacy</h2>\n";
  const json p = meta.is_object() ? meta.value("privacy", json()) : json();
  if (!p.is_object()) {
    return html +
           "<p class=\"warn\">The model records no privacy statement: no privacy option was "
           "recorded, so assume exact counts and no differential-privacy guarantee.</p>\n"
           "</section>\n";
  }
  const json dp = p.value("differential_privacy", json());
  if (dp.is_object() && dp.value("epsilon", json()).is_number() &&
      dp.value("delta", json()).is_number()) {
    const bool whole = p.value("model_differentially_private", json()) == true;
    absl::StrAppend(
        &html, "<p class=\"ok\"><b>Differential privacy: (&epsilon; = ",
        EscapeHtml(Num(dp["epsilon"].get<double>())),
        ", &delta; = ", EscapeHtml(Num(dp["delta"].get<double>())), ")</b>",
        whole ? " for the whole model"
              : " &mdash; the model as a whole is NOT differentially private",
        Text(dp, "covers").empty() ? "" : ", covering " + EscapeHtml(Text(dp, "covers")), ".");
    const json unit = dp.value("privacy_unit", json());
    if (unit.is_object() && unit.value("unit", json()).is_string()) {
      absl::StrAppend(&html, " Privacy unit: one ", EscapeHtml(unit["unit"].get<std::string>()),
                      ".");
    }
    html += "</p>\n";
  } else {
    html +=
        "<p class=\"warn\"><b>No differential-privacy budget recorded:</b> the model has no "
        "DP guarantee.</p>\n";
  }
  for (const auto& [key, title] :
       std::vector<std::pair<const char*, const char*>>{{"setting", "Setting"},
                                                        {"leakage", "Leakage"},
                                                        {"hiding", "What is hidden"},
                                                        {"key", "Key"},
                                                        {"randomness", "Randomness"}}) {
    const std::string text = Text(p, key);
    if (!text.empty()) {
      absl::StrAppend(
          &html, "<p",
          std::string(key) == "randomness" || std::string(key) == "key" ? " class=\"warn\"" : "",
          "><b>", title, ":</b> ", EscapeHtml(text), "</p>\n");
    }
  }
  std::vector<std::pair<std::string, std::string>> rows;
  Flatten(p, "", {}, &rows);
  absl::StrAppend(&html, "<details><summary>Every field of the privacy statement</summary>\n",
                  KeyValueTable(rows), "</details>\n</section>\n");
  return html;
}

std::string TopicLabel(int k) { return absl::StrCat("topic ", k); }

std::string TopicsSection(const ReportInputs& in, const std::vector<double>& prevalence,
                          const std::vector<std::vector<std::pair<lda::TermId, double>>>& top) {
  const lda::LdaModel& m = *in.model;
  std::string html = "<section id=\"topics\"><h2>Topics</h2>\n";
  std::vector<Bar> bars;
  for (int k = 0; k < m.num_topics; ++k) {
    std::string words;
    for (size_t i = 0; i < std::min<size_t>(top[k].size(), 5); ++i) {
      absl::StrAppend(&words, i ? " " : "", m.vocabulary.term(top[k][i].first));
    }
    bars.push_back(
        {TopicLabel(k), prevalence[k], Percent(prevalence[k]),
         absl::StrCat(TopicLabel(k), ": ", Percent(prevalence[k]), " of tokens; ", words)});
  }
  BarChartOptions prevalence_options;
  prevalence_options.name = "prevalence";
  prevalence_options.title = "Topic prevalence (share of tokens)";
  prevalence_options.width = 480;
  prevalence_options.label_width = 80;
  html += "<div class=\"row\"><div><h3>Inter-topic distance map</h3>\n";
  if (m.num_topics > kMaxMapTopics) {
    absl::StrAppend(&html, "<p class=\"note\">Not drawn: the map is computed for at most ",
                    kMaxMapTopics, " topics.</p>\n");
  } else {
    const std::vector<double> phi = m.PhiMatrix();
    absl::StatusOr<std::vector<MapPoint>> map = TopicMap(phi, m.num_terms());
    if (!map.ok()) {
      absl::StrAppend(&html, "<p class=\"note\">Not drawn: ",
                      EscapeHtml(std::string(map.status().message())), "</p>\n");
    } else {
      std::vector<Bubble> bubbles;
      for (int k = 0; k < m.num_topics; ++k) {
        bubbles.push_back(
            {(*map)[k].x, (*map)[k].y, prevalence[k], absl::StrCat(k), bars[k].tooltip});
      }
      BubbleMapOptions map_options;
      map_options.name = "topic-map";
      map_options.title = "Topics by Jensen-Shannon divergence, classical MDS (area = prevalence)";
      html +=
          "<p class=\"note\">As in LDAvis / pyLDAvis: Jensen-Shannon divergence between "
          "the topics' term distributions,<br>projected to two dimensions by classical "
          "multidimensional scaling (PCoA).<br>Click a topic to find its words below.</p>\n";
      html += BubbleMap(bubbles, map_options);
    }
  }
  html += "</div><div><h3>Prevalence</h3>\n" + HorizontalBarChart(bars, prevalence_options) +
          "</div></div>\n";

  absl::StrAppend(&html,
                  "<h3>Top words</h3>\n<p class=\"note\">phi(k, t) = (n_k(t) + beta) / "
                  "(n_k + V beta): the weight of term t in topic k.</p>\n<div class=\"cards\">\n");
  for (int k = 0; k < m.num_topics; ++k) {
    std::vector<Bar> words;
    for (const auto& [t, p] : top[k]) {
      words.push_back(
          {m.vocabulary.term(t), p, absl::StrFormat("%.4f", p),
           absl::StrCat(m.vocabulary.term(t), ": phi ", Num(p), ", count ", m.count(k, t))});
    }
    BarChartOptions o;
    o.name = absl::StrCat("topic-words-", k);
    o.title = absl::StrCat(TopicLabel(k), " top words");
    o.show_title = false;  // the card's heading says it
    o.width = 330;
    o.label_width = 110;
    o.bar_height = 14;
    std::string heading = absl::StrCat(TopicLabel(k), " &middot; ", Percent(prevalence[k]));
    if (in.coherence != nullptr) {
      absl::StrAppend(&heading, " &middot; coherence ",
                      absl::StrFormat("%.2f", in.coherence->per_topic[k]));
    }
    absl::StrAppend(&html, "<div class=\"card\" id=\"topic-", k, "\"><h3>", heading, "</h3>\n",
                    HorizontalBarChart(words, o), "</div>\n");
  }
  return html + "</div>\n</section>\n";
}

std::string CoherenceSection(const ReportInputs& in) {
  std::string html = "<section id=\"coherence\"><h2>Coherence</h2>\n";
  const json& meta = ObjectOrEmpty(in.model->metadata);
  if (in.coherence == nullptr) {
    html +=
        "<p class=\"note\">Not computed: pass <code>--corpus PREPARED</code> (the prepared "
        "folder the model was trained on) for the UMass coherence of every topic.";
    const json evaluation = meta.value("evaluation", json());
    if (evaluation.is_object() && evaluation.value("umass_coherence_top10", json()).is_number()) {
      absl::StrAppend(&html, " At training, the mean UMass coherence (top 10 words) was ",
                      EscapeHtml(Num(evaluation["umass_coherence_top10"].get<double>())), ".");
    }
    return html + "</p>\n</section>\n";
  }
  absl::StrAppend(&html,
                  "<p>UMass coherence (Mimno et al. 2011) of each topic's top 10 words "
                  "over the training documents of ",
                  EscapeHtml(in.coherence_source), "; mean ",
                  absl::StrFormat("%.3f", in.coherence->mean),
                  ". Closer to 0 is more coherent.</p>\n");
  std::vector<Bar> bars;
  for (size_t k = 0; k < in.coherence->per_topic.size(); ++k) {
    const double c = in.coherence->per_topic[k];
    bars.push_back({TopicLabel(static_cast<int>(k)), c, absl::StrFormat("%.2f", c), ""});
  }
  BarChartOptions o;
  o.name = "coherence";
  o.title = "UMass coherence per topic";
  o.color = "#2e7d32";
  return html + HorizontalBarChart(bars, o) + "</section>\n";
}

std::string TraceSection(const json& meta) {
  std::string html = "<section id=\"trace\"><h2>Training trace</h2>\n";
  const json training = meta.value("training", json());
  const json trace =
      training.is_object() ? training.value("log_likelihood_per_token_trace", json()) : json();
  std::vector<LinePoint> points;
  if (trace.is_array()) {
    for (const json& p : trace) {
      if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number()) {
        points.push_back({p[0].get<double>(), p[1].get<double>()});
      }
    }
  }
  if (points.empty()) {
    return html +
           "<p class=\"note\">The model records no training trace (secure and DP runs "
           "record none: it is an exact statistic of the documents).</p>\n</section>\n";
  }
  LineChartOptions o;
  o.name = "trace";
  o.title = "Log-likelihood per token during training";
  o.x_label = "iteration";
  o.y_label = "log-likelihood / token";
  return html + LineChart(points, o) + "</section>\n";
}

std::string TimingSection(const json& meta) {
  const json training = meta.value("training", json());
  if (!training.is_object()) return "";
  const json phases = training.value("phase_seconds_party0", json());
  std::vector<std::pair<std::string, std::string>> rows;
  for (const char* key :
       {"key_dealing_seconds", "init_seconds", "iteration_seconds", "publication_seconds"}) {
    if (training.value(key, json()).is_number()) {
      rows.push_back({key, absl::StrFormat("%.2f", training[key].get<double>())});
    }
  }
  if (!phases.is_object() && rows.empty()) return "";
  std::string html = "<section id=\"timing\"><h2>Secure run timing</h2>\n";
  if (!rows.empty()) html += KeyValueTable(rows);
  if (phases.is_object()) {
    std::vector<Bar> bars;
    for (auto it = phases.begin(); it != phases.end(); ++it) {
      if (!it.value().is_number()) continue;
      const double s = it.value().get<double>();
      bars.push_back({it.key(), s, absl::StrFormat("%.2f s", s), ""});
    }
    BarChartOptions o;
    o.name = "phase-timing";
    o.title = "Seconds per protocol phase (party 0, whole run)";
    o.color = "#7b4fa0";
    html += HorizontalBarChart(bars, o);
  }
  return html + "</section>\n";
}

std::string AuditSection(const AuditSummary& a) {
  std::string html = absl::StrCat(
      "<section id=\"audit\"><h2>Membership-inference audit</h2>\n<p>LiRA audit of the "
      "training pipeline from <code>",
      EscapeHtml(a.dir),
      "</code>: the true-positive rate an attacker reaches at a low false-positive rate "
      "(Carlini et al. 2022). A rate of f is resolved only with at least 1/f non-members.</p>\n"
      "<table><tr><th>variant</th><th>TPR at 0.1% FPR</th><th>TPR at 1% FPR</th><th>AUC</th>"
      "<th>members</th><th>non-members</th></tr>\n");
  const char* colors[] = {"#1f5fa8", "#d0661c"};
  std::vector<privacy::RocSeries> series;
  int64_t negatives = 0;
  for (size_t i = 0; i < a.variants.size(); ++i) {
    const AuditVariant& v = a.variants[i];
    absl::StrAppendFormat(&html,
                          "<tr><td>%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
                          "<td class=\"num\">%.4f</td><td class=\"num\">%d</td>"
                          "<td class=\"num\">%d</td></tr>\n",
                          EscapeHtml(v.name), Percent(v.tpr_at_0_1_percent_fpr),
                          Percent(v.tpr_at_1_percent_fpr), v.auc, v.members, v.non_members);
    series.push_back(
        {absl::StrFormat("%s LiRA: TPR %s at 0.1%% FPR, %s at 1%% FPR", v.name,
                         Percent(v.tpr_at_0_1_percent_fpr), Percent(v.tpr_at_1_percent_fpr)),
         colors[i % 2], v.roc});
    negatives = std::max(negatives, v.non_members);
  }
  html += "</table>\n<div class=\"chart-box\" data-chart=\"roc\">\n";
  html += privacy::RenderLogLogRocSvg(series, "ROC of the audit (log-log)",
                                      privacy::LogAxisMinimum(negatives));
  html += "</div>\n";
  std::vector<std::pair<std::string, std::string>> rows;
  Flatten(json{{"parameters", a.parameters}, {"corpus", a.corpus}, {"trainer", a.trainer}}, "", {},
          &rows);
  absl::StrAppend(&html, "<details><summary>Audit parameters</summary>\n", KeyValueTable(rows),
                  "</details>\n</section>\n");
  return html;
}

}  // namespace

absl::StatusOr<std::string> BuildHtmlReport(const ReportInputs& in) {
  if (in.model == nullptr) return absl::InvalidArgumentError("report: no model");
  const lda::LdaModel& m = *in.model;
  RETURN_IF_ERROR(m.Validate());
  if (in.top_words < 1 || in.top_words > 100) {
    return absl::InvalidArgumentError(
        absl::StrFormat("report: %d top words per topic is not in [1, 100]", in.top_words));
  }
  if (in.coherence != nullptr &&
      in.coherence->per_topic.size() != static_cast<size_t>(m.num_topics)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("report: coherence for %d topics, the model has %d",
                        in.coherence->per_topic.size(), m.num_topics));
  }
  const std::vector<int64_t> totals = m.topic_totals();
  const std::vector<double> prevalence = lda::TopicPrevalence(m);
  const auto top = lda::TopWords(m, in.top_words);

  std::string html = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>pplda report: ",
      EscapeHtml(in.model_path), "</title>\n<style>", kStyle, "</style>\n</head>\n<body>\n",
      "<h1>pplda model report</h1>\n<p class=\"note\">", EscapeHtml(in.model_path),
      " &middot; K = ", m.num_topics, " topics &middot; V = ", m.num_terms(),
      " terms &middot; made by <code>pplda report</code>; this page loads nothing from the "
      "network.</p>\n<nav class=\"note\"><a href=\"#topics\">topics</a> &middot; <a "
      "href=\"#coherence\">coherence</a> &middot; <a href=\"#trace\">trace</a> &middot; <a "
      "href=\"#privacy\">privacy</a>");
  const json& meta = ObjectOrEmpty(m.metadata);
  const std::string timing = TimingSection(meta);
  if (!timing.empty()) html += " &middot; <a href=\"#timing\">timing</a>";
  if (in.audit != nullptr) html += " &middot; <a href=\"#audit\">audit</a>";
  html += " &middot; <a href=\"#run\">run</a></nav>\n";
  html += TopicsSection(in, prevalence, top);
  html += CoherenceSection(in);
  html += TraceSection(meta);
  html += PrivacySection(meta);
  html += timing;
  if (in.audit != nullptr) html += AuditSection(*in.audit);
  html += RunSection(in, totals);
  absl::StrAppend(&html, "<script>", kScript, "</script>\n</body>\n</html>\n");
  return html;
}

}  // namespace pplda::report

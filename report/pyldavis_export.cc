#include "report/pyldavis_export.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "lda/metrics.h"
#include "report/topic_map.h"

namespace pplda::report {
namespace {

double Round4(double v) { return std::round(v * 1e4) / 1e4; }

// The ids of the `r` largest entries of `score` (ties: lower id first), in
// decreasing order.
std::vector<int> TopIds(const std::vector<double>& score, int r) {
  std::vector<int> ids(score.size());
  std::iota(ids.begin(), ids.end(), 0);
  auto better = [&](int a, int b) {
    return score[a] > score[b] || (score[a] == score[b] && a < b);
  };
  std::partial_sort(ids.begin(), ids.begin() + r, ids.end(), better);
  ids.resize(r);
  return ids;
}

}  // namespace

absl::StatusOr<nlohmann::json> PyLdavisPreparedData(const lda::LdaModel& model,
                                                    const PyLdavisOptions& options) {
  RETURN_IF_ERROR(model.Validate());
  if (options.relevant_terms < 1 || options.relevant_terms > 1000) {
    return absl::InvalidArgumentError(
        absl::StrFormat("pyLDAvis export: R = %d is not in [1, 1000]", options.relevant_terms));
  }
  if (!(options.lambda_step >= 0.001 && options.lambda_step <= 1)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "pyLDAvis export: lambda step %g is not in [0.001, 1]", options.lambda_step));
  }
  const int k_count = model.num_topics;
  const int v = model.num_terms();
  if (k_count > kMaxMapTopics) {
    return absl::InvalidArgumentError(
        absl::StrFormat("pyLDAvis export: %d topics; the topic map is computed for at most %d",
                        k_count, kMaxMapTopics));
  }
  const int r = std::min(options.relevant_terms, v);

  // Topic order: by decreasing share (ties: lower topic first).
  const std::vector<double> share_by_topic = lda::TopicPrevalence(model);
  const std::vector<int64_t> totals = model.topic_totals();
  const bool no_tokens =
      std::all_of(totals.begin(), totals.end(), [](int64_t n) { return n == 0; });
  std::vector<int> order(k_count);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return share_by_topic[a] > share_by_topic[b]; });

  const std::vector<double> phi_original = model.PhiMatrix();
  std::vector<double> phi(phi_original.size());  // renumbered rows
  std::vector<double> share(k_count), topic_freq(k_count);
  for (int i = 0; i < k_count; ++i) {
    const int k = order[i];
    std::copy_n(phi_original.begin() + static_cast<size_t>(k) * v, v,
                phi.begin() + static_cast<size_t>(i) * v);
    share[i] = share_by_topic[k];
    topic_freq[i] = no_tokens ? share_by_topic[k] : static_cast<double>(totals[k]);
  }
  auto at = [v](const std::vector<double>& m, int k, int t) {
    return m[static_cast<size_t>(k) * v + t];
  };
  std::vector<double> term_topic_freq(phi.size());
  std::vector<double> term_frequency(v, 0.0), phi_column_sum(v, 0.0);
  for (int k = 0; k < k_count; ++k) {
    for (int t = 0; t < v; ++t) {
      const double f = at(phi, k, t) * topic_freq[k];
      term_topic_freq[static_cast<size_t>(k) * v + t] = f;
      term_frequency[t] += f;
      phi_column_sum[t] += at(phi, k, t);
    }
  }
  const double frequency_sum = std::accumulate(term_frequency.begin(), term_frequency.end(), 0.0);
  std::vector<double> term_proportion(v);
  for (int t = 0; t < v; ++t) term_proportion[t] = term_frequency[t] / frequency_sum;

  nlohmann::json term = nlohmann::json::array(), freq = nlohmann::json::array(),
                 total = nlohmann::json::array(), category = nlohmann::json::array(),
                 logprob = nlohmann::json::array(), loglift = nlohmann::json::array();
  std::vector<char> in_tinfo(v, 0);

  // Default view: the R most salient terms.
  std::vector<double> saliency(v, 0.0);
  for (int t = 0; t < v; ++t) {
    double distinctiveness = 0;
    for (int k = 0; k < k_count; ++k) {
      if (share[k] <= 0) continue;  // a topic without tokens (pyLDAvis: infinite)
      const double p = at(phi, k, t) / phi_column_sum[t];
      distinctiveness += p * std::log(p / share[k]);
    }
    saliency[t] = term_proportion[t] * distinctiveness;
  }
  const std::vector<int> salient = TopIds(saliency, r);
  for (int i = 0; i < r; ++i) {
    const int t = salient[i];
    in_tinfo[t] = 1;
    term.push_back(model.vocabulary.term(t));
    freq.push_back(std::floor(term_frequency[t]));
    total.push_back(std::floor(term_frequency[t]));
    category.push_back("Default");
    logprob.push_back(r - i);
    loglift.push_back(r - i);
  }

  // Per topic: every term in the top R by relevance for some lambda.
  const int steps = static_cast<int>(std::floor(1.0 / options.lambda_step + 1e-9));
  std::vector<double> log_phi(v), log_lift(v), relevance(v);
  for (int k = 0; k < k_count; ++k) {
    for (int t = 0; t < v; ++t) {
      log_phi[t] = std::log(at(phi, k, t));
      log_lift[t] = std::log(at(phi, k, t) / term_proportion[t]);
    }
    std::vector<int> terms;
    std::vector<char> seen(v, 0);
    for (int s = 0; s <= steps; ++s) {
      const double lambda = std::min(1.0, s * options.lambda_step);
      for (int t = 0; t < v; ++t) relevance[t] = lambda * log_phi[t] + (1 - lambda) * log_lift[t];
      for (int t : TopIds(relevance, r)) {
        if (!seen[t]) seen[t] = 1, terms.push_back(t);
      }
    }
    const std::string name = absl::StrCat("Topic", k + 1);
    for (int t : terms) {
      in_tinfo[t] = 1;
      term.push_back(model.vocabulary.term(t));
      freq.push_back(at(term_topic_freq, k, t));
      total.push_back(term_frequency[t]);
      category.push_back(name);
      logprob.push_back(Round4(log_phi[t]));
      loglift.push_back(Round4(log_lift[t]));
    }
  }

  // Token table: terms of tinfo by term, then topic.
  std::vector<int> table_terms;
  for (int t = 0; t < v; ++t) {
    if (in_tinfo[t]) table_terms.push_back(t);
  }
  std::stable_sort(table_terms.begin(), table_terms.end(), [&](int a, int b) {
    return model.vocabulary.term(a) < model.vocabulary.term(b);
  });
  nlohmann::json tt_topic = nlohmann::json::array(), tt_freq = nlohmann::json::array(),
                 tt_term = nlohmann::json::array();
  for (int t : table_terms) {
    for (int k = 0; k < k_count; ++k) {
      const double f = at(term_topic_freq, k, t);
      if (f < 0.5) continue;
      tt_topic.push_back(k + 1);
      tt_freq.push_back(std::round(f) / term_frequency[t]);
      tt_term.push_back(model.vocabulary.term(t));
    }
  }

  ASSIGN_OR_RETURN(std::vector<MapPoint> map, TopicMap(phi, v));
  nlohmann::json x = nlohmann::json::array(), y = nlohmann::json::array(),
                 topics = nlohmann::json::array(), cluster = nlohmann::json::array(),
                 topic_share = nlohmann::json::array(), topic_order = nlohmann::json::array();
  for (int i = 0; i < k_count; ++i) {
    x.push_back(map[i].x);
    y.push_back(map[i].y);
    topics.push_back(i + 1);
    cluster.push_back(1);
    topic_share.push_back(100 * share[i]);
    topic_order.push_back(order[i] + 1);
  }
  return nlohmann::json{
      {"mdsDat",
       {{"x", x}, {"y", y}, {"topics", topics}, {"cluster", cluster}, {"Freq", topic_share}}},
      {"tinfo",
       {{"Term", term},
        {"Freq", freq},
        {"Total", total},
        {"Category", category},
        {"logprob", logprob},
        {"loglift", loglift}}},
      {"token.table", {{"Topic", tt_topic}, {"Freq", tt_freq}, {"Term", tt_term}}},
      {"R", r},
      {"lambda.step", options.lambda_step},
      {"plot.opts", {{"xlab", "PC1"}, {"ylab", "PC2"}}},
      {"topic.order", topic_order}};
}

}  // namespace pplda::report

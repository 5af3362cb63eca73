// Small models and audit files shared by the report tests.
#ifndef PPLDA_TESTS_REPORT_REPORT_TEST_UTIL_H_
#define PPLDA_TESTS_REPORT_REPORT_TEST_UTIL_H_

#include <string>
#include <vector>

#include "lda/lda_model.h"
#include "nlohmann/json.hpp"

namespace pplda::report::testing {

// A valid model over `terms` with K = counts.size() topics.
inline lda::LdaModel MakeModel(const std::vector<std::string>& terms,
                               const std::vector<std::vector<int64_t>>& counts) {
  lda::LdaModel m;
  m.vocabulary = *lda::Vocabulary::FromTerms(terms);
  m.num_topics = static_cast<int>(counts.size());
  m.alpha = 0.1;
  m.beta = 0.01;
  for (const auto& row : counts)
    m.topic_term_counts.insert(m.topic_term_counts.end(), row.begin(), row.end());
  return m;
}

// Three topics over eight terms: topic 2 is the largest, topics 0 and 1
// share "river" and "boat".
inline lda::LdaModel ThreeTopicModel() {
  return MakeModel(
      {"river", "boat", "water", "vote", "senate", "law", "war", "army"},
      {{30, 20, 25, 0, 1, 0, 0, 2}, {10, 12, 0, 0, 0, 0, 15, 14}, {0, 1, 0, 40, 35, 30, 2, 0}});
}

// audit.json as `pplda audit` writes it (privacy/audit_report.h), with one
// or two variants.
inline nlohmann::json AuditJsonFixture(bool offline = true) {
  auto variant = [](double tpr_low, double tpr_1, double auc) {
    nlohmann::json roc = nlohmann::json::array();
    for (double f : {0.001, 0.01, 0.1, 0.5, 1.0}) {
      roc.push_back({f, std::min(1.0, f == 0.001 ? tpr_low : (f == 0.01 ? tpr_1 : f * 1.5))});
    }
    return nlohmann::json{{"tpr_at_fpr", {{"0.001", tpr_low}, {"0.01", tpr_1}, {"0.1", 0.3}}},
                          {"auc", auc},
                          {"best_balanced_accuracy", 0.6},
                          {"members", 1000},
                          {"non_members", 1000},
                          {"smallest_resolved_fpr", 0.001},
                          {"roc_fpr_tpr", roc}};
  };
  nlohmann::json figures = {{"online", variant(0.05, 0.12, 0.71)}};
  if (offline) figures["offline"] = variant(0.02, 0.08, 0.66);
  return {{"format", "pplda-lira-audit"},
          {"version", 1},
          {"figures", figures},
          {"parameters", {{"shadows_per_target", 16}, {"seed", 1}}},
          {"corpus", {{"documents", 40}, {"tokens", 4000}, {"vocabulary_size", 300}}},
          {"trainer", {{"topics", 3}}}};
}

}  // namespace pplda::report::testing

#endif  // PPLDA_TESTS_REPORT_REPORT_TEST_UTIL_H_

// `pplda report`: one self-contained HTML page about a model, readable
// offline. Everything is inline: the style, the charts (hand-written SVG,
// report/svg_chart.h and privacy/roc_plot.h) and a few lines of script that
// only highlight a topic's card when its bubble is clicked. A
// Content-Security-Policy meta tag forbids every fetch (default-src 'none'),
// so the page cannot load anything even if a string slipped through.
// Every string from the model, the audit or the caller is HTML-escaped
// (terms are user data).
//
// Sections, in order:
//   topics       the inter-topic map (report/topic_map.h: JSD + classical
//                MDS, bubble area = prevalence; omitted with a note beyond
//                kMaxMapTopics) beside prevalence (n_k / sum n_k) as bars;
//                each topic's top words with phi as bars, and its UMass
//                coherence when given;
//   coherence    UMass coherence per topic as bars (when given; else the
//                training's mean from metadata.evaluation, if recorded);
//   trace        log-likelihood per token by iteration, from
//                metadata.training.log_likelihood_per_token_trace
//                ([[iteration, value], ...]) when the model has one;
//   privacy      the (epsilon, delta) budget and what it covers where
//                metadata.privacy.differential_privacy records one, else a
//                plain "no DP guarantee"; the leakage and hiding statements;
//                every field of metadata.privacy in a collapsed table;
//   timing       the secure run's phase timing (party 0's seconds per
//                phase from metadata.training.phase_seconds_party0, and the
//                init / iteration / publication seconds) when present;
//   audit        the audit's ROC on log-log axes with TPR at 0.1% and 1%
//                FPR and AUC per variant (when an audit is given);
//   run          model path, pplda version, creation time, K, V, alpha,
//                beta, tokens; the run's parameters (metadata.training,
//                metadata.evaluation, and metadata.corpus collapsed).
// Each chart is an <svg> element; the ROC sits in a <div data-chart="roc">.
//
// Thread-safety: pure function of its inputs.
#ifndef PPLDA_REPORT_HTML_REPORT_H_
#define PPLDA_REPORT_HTML_REPORT_H_

#include <string>

#include "absl/status/statusor.h"
#include "lda/lda_model.h"
#include "lda/metrics.h"
#include "report/audit_summary.h"

namespace pplda::report {

struct ReportInputs {
  const lda::LdaModel* model = nullptr;  // required
  std::string model_path;                // shown as given
  const AuditSummary* audit = nullptr;   // optional
  // UMass coherence (lda/metrics.h) over `coherence_source`, optional;
  // per_topic must have num_topics entries.
  const lda::CoherenceResult* coherence = nullptr;
  std::string coherence_source;
  int top_words = 10;  // per topic, in [1, 100]
};

// InvalidArgument when the model is missing or invalid (LdaModel::Validate),
// top_words is out of range, or coherence has the wrong number of topics.
absl::StatusOr<std::string> BuildHtmlReport(const ReportInputs& inputs);

}  // namespace pplda::report

#endif  // PPLDA_REPORT_HTML_REPORT_H_

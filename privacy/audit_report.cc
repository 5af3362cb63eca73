#include "privacy/audit_report.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/atomic_file.h"
#include "base/status_macros.h"
#include "privacy/roc_plot.h"

namespace pplda::privacy {
namespace {

namespace fs = std::filesystem;

constexpr int kCsvPointsPerDecade = 20;

struct Variant {
  const char* name;
  const char* title;
  const char* color;
  const VariantEvaluation* evaluation;
};

std::vector<Variant> Variants(const AuditResult& r, const AuditReportOptions& o) {
  std::vector<Variant> v;
  if (o.online) v.push_back({"online", "online LiRA", "#1f5fa8", &r.evaluation.online});
  if (o.offline) v.push_back({"offline", "offline LiRA", "#d0661c", &r.evaluation.offline});
  return v;
}

int64_t Negatives(const AuditResult& r) { return r.evaluation.online.roc.negatives; }

std::string CsvQuote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string Percent(double x) { return absl::StrFormat("%.2f%%", 100 * x); }

nlohmann::json VariantJson(const VariantEvaluation& v, double min_fpr) {
  nlohmann::json roc = nlohmann::json::array();
  for (const RocPoint& p : SampleLogSpaced(v.roc, min_fpr, kCsvPointsPerDecade)) {
    roc.push_back({p.fpr, p.tpr});
  }
  return {{"tpr_at_fpr",
           {{"0.001", v.tpr_at_0_1_percent_fpr},
            {"0.01", v.tpr_at_1_percent_fpr},
            {"0.1", v.tpr_at_10_percent_fpr}}},
          {"auc", v.auc},
          {"best_balanced_accuracy", v.best_balanced_accuracy},
          {"members", v.roc.positives},
          {"non_members", v.roc.negatives},
          {"smallest_resolved_fpr", 1.0 / static_cast<double>(v.roc.negatives)},
          {"roc_fpr_tpr", roc}};
}

std::string FiguresTable(const AuditResult& r, const AuditReportOptions& o) {
  std::string md =
      "| variant | TPR at 0.1% FPR | TPR at 1% FPR | TPR at 10% FPR | AUC | best balanced accuracy |\n"
      "| --- | ---: | ---: | ---: | ---: | ---: |\n";
  for (const Variant& v : Variants(r, o)) {
    const VariantEvaluation& e = *v.evaluation;
    absl::StrAppendFormat(&md, "| %s | %s | %s | %s | %.4f | %s |\n", v.title,
                          Percent(e.tpr_at_0_1_percent_fpr), Percent(e.tpr_at_1_percent_fpr),
                          Percent(e.tpr_at_10_percent_fpr), e.auc, Percent(e.best_balanced_accuracy));
  }
  return md;
}

std::string MostExposed(const AuditResult& r, const lda::Corpus& corpus, int count) {
  std::vector<int32_t> order(r.exposures.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return r.exposures[a].separation > r.exposures[b].separation;
  });
  order.resize(std::min<size_t>(order.size(), std::max(0, count)));
  std::string md =
      "| document | tokens | mean zeta in | mean zeta out | separation |\n"
      "| --- | ---: | ---: | ---: | ---: |\n";
  for (int32_t d : order) {
    const DocumentExposure& e = r.exposures[d];
    std::string name = corpus.documents[d].name;
    std::replace(name.begin(), name.end(), '|', '/');
    absl::StrAppendFormat(&md, "| %s | %d | %.2f | %.2f | %.2f |\n", name,
                          corpus.documents[d].tokens.size(), e.in.mean, e.out.mean, e.separation);
  }
  return md;
}

}  // namespace

const std::vector<std::string>& AuditOutputFiles() {
  static const std::vector<std::string> kFiles = {"audit.json", "roc.csv", "roc.svg",
                                                  "documents.csv", "report.md"};
  return kFiles;
}

nlohmann::json AuditJson(const AuditResult& r, const AuditReportOptions& o) {
  nlohmann::json figures = nlohmann::json::object();
  for (const Variant& v : Variants(r, o)) {
    figures[v.name] = VariantJson(*v.evaluation, LogAxisMinimum(Negatives(r)));
  }
  const LiraEvaluation& e = r.evaluation;
  return {
      {"format", kAuditFormat},
      {"version", kAuditFormatVersion},
      {"figures", figures},
      {"parameters",
       {{"shadows_per_target", e.shadows_per_target},
        {"models_trained", e.targets},
        {"targets", e.targets},
        {"seed", r.parameters.seed},
        {"membership", "each model trains on a random half; halves drawn in complementary pairs"},
        {"evaluation", "leave-one-out: each model in turn is the target, the others its shadows"},
        {"variance_mode", VarianceModeName(r.parameters.variance)},
        {"per_document_variance", e.per_document_variance},
        {"variance_fallbacks", e.variance_fallbacks},
        {"zeta_tolerance_nats", r.parameters.zeta.tolerance},
        {"zeta_max_iterations", r.parameters.zeta.max_iterations}}},
      {"corpus",
       {{"documents", r.num_documents},
        {"tokens", r.num_tokens},
        {"vocabulary_size", r.vocabulary_size}}},
      {"trainer", r.trainer},
      {"zeta",
       {{"documents_scored", r.convergence.documents_scored},
        {"not_converged", r.convergence.not_converged},
        {"max_certified_gap_nats", r.convergence.max_gap},
        {"mean_objective_evaluations", r.convergence.mean_iterations}}},
      {"timing",
       {{"wall_seconds", r.timing.wall_seconds},
        {"threads", r.timing.threads},
        {"train_seconds_summed", r.timing.train_seconds},
        {"score_seconds_summed", r.timing.score_seconds},
        {"evaluate_seconds", r.timing.evaluate_seconds}}},
      {"run", o.run_info}};
}

std::string RocCsv(const AuditResult& r, const AuditReportOptions& o) {
  const std::vector<Variant> variants = Variants(r, o);
  std::string csv = "fpr";
  std::vector<std::vector<RocPoint>> samples;
  for (const Variant& v : variants) {
    absl::StrAppend(&csv, ",tpr_", v.name);
    samples.push_back(SampleLogSpaced(v.evaluation->roc, LogAxisMinimum(Negatives(r)),
                                      kCsvPointsPerDecade));
  }
  csv += "\n";
  const size_t rows = samples.empty() ? 0 : samples[0].size();
  for (size_t i = 0; i < rows; ++i) {
    absl::StrAppendFormat(&csv, "%.6g", samples[0][i].fpr);
    for (const auto& s : samples) absl::StrAppendFormat(&csv, ",%.6g", s[i].tpr);
    csv += "\n";
  }
  return csv;
}

std::string RocSvg(const AuditResult& r, const AuditReportOptions& o) {
  const double min_rate = LogAxisMinimum(Negatives(r));
  std::vector<RocSeries> series;
  for (const Variant& v : Variants(r, o)) {
    series.push_back({absl::StrFormat("%s: TPR %s at 0.1%% FPR, AUC %.3f", v.title,
                                      Percent(v.evaluation->tpr_at_0_1_percent_fpr),
                                      v.evaluation->auc),
                      v.color, SampleLogSpaced(v.evaluation->roc, min_rate, 40)});
  }
  const std::string title = absl::StrFormat(
      "LiRA on LDA: %d documents, K = %s, %d shadows", r.num_documents,
      r.trainer.contains("topics") ? r.trainer["topics"].dump() : "?",
      r.evaluation.shadows_per_target);
  return RenderLogLogRocSvg(series, title, min_rate);
}

std::string DocumentsCsv(const AuditResult& r, const lda::Corpus& corpus) {
  std::string csv =
      "document,tokens,in_models,mean_in,sd_in,out_models,mean_out,sd_out,separation\n";
  for (size_t d = 0; d < r.exposures.size(); ++d) {
    const DocumentExposure& e = r.exposures[d];
    absl::StrAppendFormat(&csv, "%s,%d,%d,%.6f,%.6f,%d,%.6f,%.6f,%.4f\n",
                          CsvQuote(corpus.documents[d].name), corpus.documents[d].tokens.size(),
                          e.in.n, e.in.mean, std::sqrt(e.in.variance), e.out.n, e.out.mean,
                          std::sqrt(e.out.variance), e.separation);
  }
  return csv;
}

// What the models' privacy mechanisms were and what they guarantee (or that
// there were none). Says plainly that the final-count noise carries no DP
// guarantee: the audit measures its effect, it does not certify it.
std::string DpSummary(const nlohmann::json& trainer) {
  const auto it = trainer.find("privacy_mechanisms");
  if (it == trainer.end() || !it->is_object()) {
    return "**Privacy mechanisms.** None: the models are the exact counts.";
  }
  std::string out =
      "**Privacy mechanisms.** Every model went through the pipeline `pplda train` runs with "
      "these options:";
  const nlohmann::json& vocabulary = it->value("dp_vocabulary", nlohmann::json());
  const nlohmann::json& noise = it->value("final_count_noise", nlohmann::json());
  const nlohmann::json& training = it->value("dp_training", nlohmann::json());
  if (vocabulary.is_object()) {
    absl::StrAppendFormat(&out,
                          " vocabulary chosen by DP set union, (%g, %g)-DP for the list of terms%s;",
                          vocabulary["epsilon"].get<double>(), vocabulary["delta"].get<double>(),
                          training.is_object() ? " (part of the run's budget below)"
                                               : " only (not for the counts)");
  } else {
    out += " vocabulary NOT private (chosen by the preprocessing options, the same for every "
           "model);";
  }
  if (training.is_object()) {
    absl::StrAppendFormat(
        &out,
        " counts trained with DP for the whole run (discrete Gaussian noise on the counts at %s "
        "iterations, documents capped at %d tokens and %d per term), the run (%g, %g)-DP%s;",
        training.value("noisy_iterations", 0) == 0
            ? std::string("all")
            : std::to_string(training.value("noisy_iterations", 0)) + " noisy",
        training.value("max_tokens_per_document", 0), training.value("max_tokens_per_term", 0),
        training.value("epsilon", 0.0), training.value("delta", 0.0),
        vocabulary.is_object() ? " for the whole model"
                               : " for the counts given the vocabulary");
  } else if (noise.is_object()) {
    absl::StrAppendFormat(&out,
                          " discrete Gaussian noise of sigma %g added once to the final counts, "
                          "a heuristic with NO differential-privacy guarantee (no epsilon holds "
                          "for it: the final counts of a Gibbs chain have unbounded "
                          "sensitivity);",
                          noise["sigma"].get<double>());
  } else {
    out += " counts exact (no noise);";
  }
  out.back() = '.';
  out += " The figures below measure what an attacker gains against these models empirically; "
         "they are not a privacy guarantee.";
  return out;
}

std::string ReportMarkdown(const AuditResult& r, const lda::Corpus& corpus,
                           const AuditReportOptions& o) {
  const LiraEvaluation& e = r.evaluation;
  std::string md = "# Membership-inference audit (LiRA)\n\n";
  if (o.run_info.contains("command")) {
    absl::StrAppend(&md, "Command: `", o.run_info["command"].get<std::string>(), "`\n\n");
  }
  absl::StrAppendFormat(&md,
                        "**Corpus.** %d documents, %d tokens, %d terms.\n\n"
                        "**Models.** %d models, each trained on a random half of the documents "
                        "with the same pipeline as the real run: `%s`.\n\n",
                        r.num_documents, r.num_tokens, r.vocabulary_size, e.targets,
                        r.trainer.dump());
  absl::StrAppend(&md, DpSummary(r.trainer), "\n\n");
  absl::StrAppendFormat(
      &md,
      "**Attack.** Statistic zeta(Phi, d) = max over theta of log p(d | theta, Phi), computed to "
      "within %g nats (largest certified gap %.2g, %d of %d scores not converged). Each model in "
      "turn is the target and the other %d are its shadows; the Gaussians of each document are "
      "fitted with %s variances (%d fallbacks to the pooled variance).\n\n",
      r.parameters.zeta.tolerance, r.convergence.max_gap, r.convergence.not_converged,
      r.convergence.documents_scored, e.shadows_per_target,
      e.per_document_variance ? "per-document" : "pooled (global)", e.variance_fallbacks);
  md += "## Figures\n\n" + FiguresTable(r, o);
  absl::StrAppendFormat(&md,
                        "\nOver %d member and %d non-member scores: false-positive rates below "
                        "%.2g are not resolved. Random guessing gives TPR = FPR.\n\n",
                        e.online.roc.positives, Negatives(r),
                        1.0 / static_cast<double>(Negatives(r)));
  md += "![ROC on log-log axes](roc.svg)\n\n";
  md +=
      "A TPR of t at 0.1% FPR means that an attacker holding the published model and a corpus "
      "like this one could name a fraction t of the training documents as members while "
      "wrongly naming only 1 in 1,000 non-members.\n\n";
  md += "## Most exposed documents\n\nSeparation = (mean zeta in - mean zeta out) / pooled sd, "
        "over all models (`documents.csv` lists every document).\n\n";
  md += MostExposed(r, corpus, o.most_exposed);
  absl::StrAppendFormat(&md,
                        "\n## Timing\n\n%.1f s wall clock on %d threads (training %.1f s and "
                        "zeta %.1f s summed over models, evaluation %.1f s).\n",
                        r.timing.wall_seconds, r.timing.threads, r.timing.train_seconds,
                        r.timing.score_seconds, r.timing.evaluate_seconds);
  return md;
}

absl::Status CheckAuditOutputDir(const std::string& dir) {
  for (const std::string& name : AuditOutputFiles()) {
    std::error_code ec;
    if (fs::exists(fs::path(dir) / name, ec)) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "%s already exists; choose another --out folder or move it away (nothing is "
          "overwritten)",
          (fs::path(dir) / name).string()));
    }
  }
  return absl::OkStatus();
}

absl::Status WriteAuditOutputs(const AuditResult& r, const lda::Corpus& corpus,
                               const AuditReportOptions& o, const std::string& dir) {
  RETURN_IF_ERROR(CheckAuditOutputDir(dir));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return absl::PermissionDeniedError("cannot create folder " + dir + ": " + ec.message());
  const fs::path base(dir);
  RETURN_IF_ERROR(WriteFileAtomically(base / "audit.json", AuditJson(r, o).dump(2) + "\n"));
  RETURN_IF_ERROR(WriteFileAtomically(base / "roc.csv", RocCsv(r, o)));
  RETURN_IF_ERROR(WriteFileAtomically(base / "roc.svg", RocSvg(r, o)));
  RETURN_IF_ERROR(WriteFileAtomically(base / "documents.csv", DocumentsCsv(r, corpus),
                                      FileMode::kPrivate));
  RETURN_IF_ERROR(WriteFileAtomically(base / "report.md", ReportMarkdown(r, corpus, o)));
  return absl::OkStatus();
}

}  // namespace pplda::privacy

// `pplda report`: one self-contained HTML page about a model (and,
// optionally, its audit and its coherence on a prepared corpus) that works
// offline; report/html_report.h says what it shows. Outputs are checked
// before any work (cli/output_paths.h): --out may not be one of the inputs.
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/atomic_file.h"
#include "base/status_macros.h"
#include "cli/command.h"
#include "cli/number_flags.h"
#include "cli/output_paths.h"
#include "lda/metrics.h"
#include "lda/model_file.h"
#include "lda/prepared_corpus.h"
#include "report/audit_summary.h"
#include "report/html_report.h"

namespace pplda::cli {
namespace {

struct ReportFlags {
  std::string model;
  std::string audit;
  std::string corpus;
  std::string out;
  int top = 10;
};

// `status` with its message prefixed by "FLAG PATH: ".
absl::Status Prefixed(const absl::Status& status, const std::string& flag,
                      const std::string& path) {
  return absl::Status(status.code(), absl::StrCat(flag, " ", path, ": ", status.message()));
}

absl::Status RunReport(const ReportFlags& f) {
  OutputPaths outputs;
  outputs.AddInput("--model", f.model);
  if (!f.audit.empty()) outputs.AddInput("--audit", f.audit);
  if (!f.corpus.empty()) outputs.AddInput("--corpus", f.corpus);
  RETURN_IF_ERROR(outputs.AddFile("--out", f.out));

  ASSIGN_OR_RETURN(lda::LdaModel model, lda::ReadModelFile(f.model));
  std::optional<report::AuditSummary> audit;
  if (!f.audit.empty()) {
    absl::StatusOr<report::AuditSummary> read = report::ReadAuditSummary(f.audit);
    if (!read.ok()) return Prefixed(read.status(), "--audit", f.audit);
    audit = *std::move(read);
  }
  std::optional<lda::CoherenceResult> coherence;
  if (!f.corpus.empty()) {
    absl::StatusOr<lda::PreparedCorpus> prepared = lda::ReadPreparedCorpus(f.corpus);
    if (!prepared.ok()) return Prefixed(prepared.status(), "--corpus", f.corpus);
    absl::StatusOr<lda::CoherenceResult> c = lda::UMassCoherence(model, prepared->train, 10);
    if (!c.ok()) {
      return Prefixed(c.status(), "--corpus",
                      f.corpus +
                          " (coherence needs the prepared folder "
                          "the model was trained on)");
    }
    coherence = *std::move(c);
  }
  report::ReportInputs inputs;
  inputs.model = &model;
  inputs.model_path = f.model;
  inputs.audit = audit ? &*audit : nullptr;
  inputs.coherence = coherence ? &*coherence : nullptr;
  inputs.coherence_source = f.corpus;
  inputs.top_words = f.top;
  ASSIGN_OR_RETURN(std::string html, report::BuildHtmlReport(inputs));
  RETURN_IF_ERROR(WriteFileAtomically(f.out, html));
  std::printf(
      "report written to %s%s (one self-contained HTML file: open it in a browser, "
      "works offline)\n",
      f.out.c_str(), outputs.ReplacedNote(f.out).c_str());
  return absl::OkStatus();
}

}  // namespace

void AddReportCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run) {
  auto flags = std::make_shared<ReportFlags>();
  CLI::App* app = root.add_subcommand(
      "report", "A self-contained HTML report of a model (topics, map, trace, privacy, audit)");
  app->add_option("--model,-m", flags->model, "Model file (JSON)")->required();
  app->add_option("--audit", flags->audit,
                  "Output folder of `pplda audit` (adds its ROC and figures)");
  app->add_option("--corpus", flags->corpus,
                  "Prepared folder the model was trained on (adds coherence per topic)");
  app->add_option("--out,-o", flags->out, "HTML file to write")->required();
  app->add_option("--top", flags->top, "Words shown per topic")
      ->capture_default_str()
      ->check(NumberIn<int>(1, 100));
  app->callback([flags, run] { *run = [flags] { return RunReport(*flags); }; });
  (void)globals;
}

}  // namespace pplda::cli

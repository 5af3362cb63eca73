// The files a LiRA audit writes into its output folder:
//   audit.json     figures (TPR at 0.1%, 1% and 10% FPR, AUC, best balanced
//                  accuracy, member / non-member counts, and the ROC as
//                  [fpr, tpr] pairs sampled as in roc.csv) per variant, with
//                  the parameters, corpus, trainer, zeta convergence, timing
//                  and the caller's run information;
//   roc.csv        the ROC sampled at 20 log-spaced FPR values per decade:
//                  fpr, then one tpr column per variant;
//   roc.svg        the same curves on log-log axes (privacy/roc_plot.h);
//   documents.csv  per document: name, tokens, in and out fits of zeta over
//                  all models, separation (privacy/lira_evaluation.h);
//                  mode 0600 (exact per-document figures);
//   report.md      a short human-readable report: what was done, the
//                  figures, the plot, the most exposed documents, timing.
// JSON format: {"format": "pplda-lira-audit", "version": 1, ...}.
//
// Nothing already there is lost: CheckAuditOutputDir refuses (FailedPrecondition,
// naming the file) a folder that already holds any of these files, and is
// meant to be called before the audit runs; WriteAuditOutputs creates the
// folder, writes each file atomically (base/atomic_file.h), and
// returns the first I/O error naming the path.
// Thread-safety: no shared state.
#ifndef PPLDA_PRIVACY_AUDIT_REPORT_H_
#define PPLDA_PRIVACY_AUDIT_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "lda/corpus.h"
#include "nlohmann/json.hpp"
#include "privacy/lira_audit.h"

namespace pplda::privacy {

inline constexpr char kAuditFormat[] = "pplda-lira-audit";
inline constexpr int kAuditFormatVersion = 1;

struct AuditReportOptions {
  bool online = true;   // report the online variant
  bool offline = true;  // report the offline variant
  // Free-form: input path, preprocessing, the command line. Kept under "run".
  nlohmann::json run_info = nlohmann::json::object();
  int most_exposed = 10;  // documents listed in report.md
};

// The output file names above.
const std::vector<std::string>& AuditOutputFiles();

nlohmann::json AuditJson(const AuditResult& result, const AuditReportOptions& options);
std::string RocCsv(const AuditResult& result, const AuditReportOptions& options);
std::string RocSvg(const AuditResult& result, const AuditReportOptions& options);
std::string DocumentsCsv(const AuditResult& result, const lda::Corpus& corpus);
std::string ReportMarkdown(const AuditResult& result, const lda::Corpus& corpus,
                           const AuditReportOptions& options);

absl::Status CheckAuditOutputDir(const std::string& dir);
absl::Status WriteAuditOutputs(const AuditResult& result, const lda::Corpus& corpus,
                               const AuditReportOptions& options, const std::string& dir);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_AUDIT_REPORT_H_

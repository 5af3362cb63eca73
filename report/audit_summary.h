// What the HTML report shows of a membership-inference audit: read back from
// the audit.json that `pplda audit` writes into its output folder
// (privacy/audit_report.h, format "pplda-lira-audit" version 1).
//
// ReadAuditSummary(dir) errors, each naming the folder or file:
//   NotFound          the folder does not exist, or holds no audit.json;
//   InvalidArgument   the path is not a folder; audit.json is not JSON, not
//                     format "pplda-lira-audit" version 1, has no "figures"
//                     object, or a variant lacks a number in
//                     tpr_at_fpr."0.001" / "0.01", auc, members, non_members,
//                     or its roc_fpr_tpr is not a list of [fpr, tpr] pairs
//                     in [0, 1].
// Thread-safety: no shared state.
#ifndef PPLDA_REPORT_AUDIT_SUMMARY_H_
#define PPLDA_REPORT_AUDIT_SUMMARY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "privacy/roc_curve.h"

namespace pplda::report {

struct AuditVariant {
  std::string name;  // "online", "offline"
  double tpr_at_0_1_percent_fpr = 0;
  double tpr_at_1_percent_fpr = 0;
  double auc = 0;
  int64_t members = 0;
  int64_t non_members = 0;
  std::vector<privacy::RocPoint> roc;  // sampled curve, as in roc.csv
};

struct AuditSummary {
  std::string dir;
  std::vector<AuditVariant> variants;  // at least one
  nlohmann::json parameters;           // audit.json "parameters" (may be null)
  nlohmann::json corpus;               // audit.json "corpus" (may be null)
  nlohmann::json trainer;              // audit.json "trainer" (may be null)
};

absl::StatusOr<AuditSummary> ReadAuditSummary(const std::string& dir);
// The same from audit.json's contents; `where` names the file in errors.
absl::StatusOr<AuditSummary> AuditSummaryFromJson(const nlohmann::json& json,
                                                  const std::string& where);

}  // namespace pplda::report

#endif  // PPLDA_REPORT_AUDIT_SUMMARY_H_

#include "report/csv_export.h"

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "base/status_macros.h"
#include "lda/metrics.h"

namespace pplda::report {
namespace {

std::string Field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  return "\"" + absl::StrReplaceAll(s, {{"\"", "\"\""}}) + "\"";
}

}  // namespace

absl::StatusOr<std::string> TopicTermCsv(const lda::LdaModel& model, int top_terms) {
  RETURN_IF_ERROR(model.Validate());
  if (top_terms < 0) {
    return absl::InvalidArgumentError(absl::StrFormat("CSV export: top_terms %d < 0", top_terms));
  }
  const int n = top_terms == 0 ? model.num_terms() : top_terms;
  const auto top = lda::TopWords(model, n);
  std::string csv = "topic,rank,term,count,phi\n";
  for (int k = 0; k < model.num_topics; ++k) {
    int rank = 0;
    for (const auto& [t, phi] : top[k]) {
      absl::StrAppendFormat(&csv, "%d,%d,%s,%d,%.8g\n", k, ++rank, Field(model.vocabulary.term(t)),
                            model.count(k, t), phi);
    }
  }
  return csv;
}

}  // namespace pplda::report

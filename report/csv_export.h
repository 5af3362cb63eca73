// A model's topic-term weights as plain CSV, for spreadsheets, R and pandas:
//
//   topic,rank,term,count,phi
//   0,1,war,412,0.0312
//
// One row per (topic, term) pair: topics 0..K-1 as pplda numbers them, each
// topic's terms by decreasing phi(k, t) (ties: lower term id first, as
// lda::TopWords), rank 1-based, count = n_k(t) and phi = (n_k(t) + beta) /
// (n_k + V beta) with 8 significant digits. Every term is listed unless
// top_terms > 0 limits each topic to its first top_terms rows. Terms are
// quoted (RFC 4180) when they hold a comma, quote, CR or LF.
// Thread-safety: pure function.
#ifndef PPLDA_REPORT_CSV_EXPORT_H_
#define PPLDA_REPORT_CSV_EXPORT_H_

#include <string>

#include "absl/status/statusor.h"
#include "lda/lda_model.h"

namespace pplda::report {

// InvalidArgument for an invalid model or top_terms < 0.
absl::StatusOr<std::string> TopicTermCsv(const lda::LdaModel& model, int top_terms = 0);

}  // namespace pplda::report

#endif  // PPLDA_REPORT_CSV_EXPORT_H_

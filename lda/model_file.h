// The model file: an LdaModel as one JSON object (also the published model
// format of the secure runs).
//
//   {"format": "pplda-model", "version": 1,
//    "vocabulary": ["term", ...],                 // V distinct non-empty strings
//    "alpha": a, "beta": b,                        // in [1e-6, 1e6]
//    "num_topics": K,
//    "topic_term_counts": [[n_0(0), ..., n_0(V-1)], ... K rows],
//    "metadata": {...}}                            // any JSON object
//
// Reading rules (ModelFromJson / ReadModelFile):
// - Required: "vocabulary", "alpha", "beta", "topic_term_counts".
//   Optional: "format" (must be "pplda-model"), "version" (must be 1),
//   "num_topics" (must equal the number of rows), "metadata" (an object).
//   Other top-level keys are ignored (forward compatibility).
// - Counts must be integers >= 0 and <= 2^53, and each topic's counts must
//   add up to at most 2^53 (LdaModel::Validate). A JSON number with a zero
//   fractional part (e.g. 12.0, as numpy writes) is accepted as that integer;
//   a fractional or negative count is rejected. Published DP-noised counts
//   must therefore be rounded and clamped at 0 before they are written
//   (post-processing, which does not change the DP guarantee).
// Every rejection is InvalidArgument naming the field (and row/column or
// term); ReadModelFile adds the path, and for text that is not JSON the
// line and column (a number beyond a double's range, e.g. 1e400 anywhere in
// the file, is text that is not JSON). A missing file is NotFound.
//
// Writing: WriteModelFile writes compact JSON atomically (base/atomic_file.h:
// a temporary file in the same folder, fsync, rename), so an existing file
// is replaced only by a complete one.
// The model is validated first (LdaModel::Validate).
#ifndef PPLDA_LDA_MODEL_FILE_H_
#define PPLDA_LDA_MODEL_FILE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lda/lda_model.h"
#include "nlohmann/json.hpp"

namespace pplda::lda {

inline constexpr char kModelFormatName[] = "pplda-model";
inline constexpr int kModelFormatVersion = 1;

nlohmann::json ModelToJson(const LdaModel& model);
absl::StatusOr<LdaModel> ModelFromJson(const nlohmann::json& json);

absl::Status WriteModelFile(const LdaModel& model, const std::string& path);
absl::StatusOr<LdaModel> ReadModelFile(const std::string& path);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_MODEL_FILE_H_

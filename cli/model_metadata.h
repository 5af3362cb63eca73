// The metadata every model file written by the CLI carries: version, time,
// training run parameters, corpus statistics, preprocessing used, and the
// privacy statement (leakage and DP budget; plaintext runs spend none).
#ifndef PPLDA_CLI_MODEL_METADATA_H_
#define PPLDA_CLI_MODEL_METADATA_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "lda/corpus.h"

#include "cli/input_flags.h"
#include "lda/metrics.h"
#include "nlohmann/json.hpp"

namespace pplda::cli {

// Preprocessing options and what they kept, as recorded in the model file.
nlohmann::json PreprocessingInfo(const InputFlags& flags, const lda::PreprocessReport& report);

// The input and preprocessing options alone (format, split, window words,
// preprocessing), no figure computed from the documents: what a model file
// from a run with privacy options records about its corpus.
nlohmann::json InputOptionsInfo(const InputFlags& flags);

// Merges pplda's version, the creation time, `training`, `corpus` and the
// plaintext privacy statement into *metadata (keeps keys already there).
void AddStandardMetadata(nlohmann::json* metadata, const nlohmann::json& training,
                         const nlohmann::json& corpus);

// One line describing the held-out perplexity estimator with its parameters.
std::string PerplexityMethod(const lda::PerplexityOptions& options);

// `s` quoted for a CSV field when it needs to be.
std::string CsvField(const std::string& s);

// Writes each document's topic mixture as CSV: a header "document,topic_0,...",
// then one row per document of `corpus` (theta[m] is document m's mixture).
absl::Status WriteTopicMixturesCsv(const std::vector<std::vector<double>>& theta,
                                   const lda::Corpus& corpus, const std::string& path);

}  // namespace pplda::cli

#endif  // PPLDA_CLI_MODEL_METADATA_H_

// The privacy a model file records, as `pplda topics` and `pplda run result`
// show it: PrivacySummary(metadata) picks from metadata.privacy
// {"recorded", "differentially_private", "setting", "epsilon", "delta",
// "covers", "unit", "mechanism", "noisy_iterations", "iterations", "sigma",
// "rho_total", "conversion", ...} (null fields where the model records none);
// PrintPrivacySummary prints it for a reader: the (epsilon, delta) and what
// it covers only where the model records one, and says so plainly when the
// model has no DP guarantee.
#ifndef PPLDA_CLI_PRIVACY_SUMMARY_H_
#define PPLDA_CLI_PRIVACY_SUMMARY_H_

#include "nlohmann/json.hpp"

namespace pplda::cli {

nlohmann::json PrivacySummary(const nlohmann::json& metadata);
void PrintPrivacySummary(const nlohmann::json& summary);

}  // namespace pplda::cli

#endif  // PPLDA_CLI_PRIVACY_SUMMARY_H_

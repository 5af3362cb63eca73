// How `pplda` subcommands plug into the CLI: each Add*Command registers a
// CLI11 subcommand whose parse callback stores the command to run in *run.
// Commands report failure as absl::Status; main maps it to exit code 1.
#ifndef PPLDA_CLI_COMMAND_H_
#define PPLDA_CLI_COMMAND_H_

#include <functional>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "base/progress.h"

namespace pplda::cli {

struct GlobalFlags {
  bool quiet = false;    // no progress, only results and errors
  bool verbose = false;  // debug logs
  ProgressReporter::Mode progress_mode() const {
    return quiet ? ProgressReporter::Mode::kQuiet : ProgressReporter::Mode::kAuto;
  }
};

using CommandFn = std::function<absl::Status()>;

void AddPrepareCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run);
void AddTrainCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run);
void AddEvaluateCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run);
void AddTopicsCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run);
void AddAuditCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run);
void AddSimulateCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run);
void AddKeysCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run);
void AddRunCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run);
void AddVocabCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run);
void AddReportCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run);

}  // namespace pplda::cli

#endif  // PPLDA_CLI_COMMAND_H_

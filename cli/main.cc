// pplda: the command-line tool. Thin over the libraries: each subcommand
// lives in its own *_command.cc; errors print one line and exit 1.
#include <cstdio>

#include "CLI/CLI.hpp"
#include "base/allocator_tuning.h"
#include "cli/command.h"
#include "spdlog/sinks/stdout_color_sinks.h"
#include "spdlog/spdlog.h"

int main(int argc, char** argv) {
  pplda::KeepFreedBuffersForReuse();  // before any thread starts
  using namespace pplda::cli;
  CLI::App app{"pplda: privacy-preserving LDA topic modelling", "pplda"};
  app.require_subcommand(1);
  GlobalFlags globals;
  app.add_flag("--quiet,-q", globals.quiet, "Only results and errors (no progress or info)");
  app.add_flag("--verbose,-v", globals.verbose, "Debug logging");
  app.set_version_flag("--version", std::string(PPLDA_VERSION));
  CommandFn run;
  AddPrepareCommand(app, globals, &run);
  AddTrainCommand(app, globals, &run);
  AddEvaluateCommand(app, globals, &run);
  AddTopicsCommand(app, globals, &run);
  AddAuditCommand(app, globals, &run);
  AddSimulateCommand(app, globals, &run);
  AddKeysCommand(app, globals, &run);
  AddRunCommand(app, globals, &run);
  // Options may follow the subcommand (pplda train --quiet ...): allow both.
  for (CLI::App* sub : app.get_subcommands({})) sub->fallthrough();

  auto logger = spdlog::stderr_color_mt("pplda");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%^%l%$: %v");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  spdlog::set_level(globals.verbose ? spdlog::level::debug
                                    : (globals.quiet ? spdlog::level::warn : spdlog::level::info));
  if (!run) return 2;
  absl::Status status = run();
  if (!status.ok()) {
    std::fprintf(stderr, "pplda: error: %s\n", std::string(status.message()).c_str());
    return 1;
  }
  return 0;
}

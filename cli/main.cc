// pplda: the command-line tool. Thin over the libraries: each subcommand
// lives in its own *_command.cc; errors print one line and exit 1.
#include <cstdio>
#include <string>

#include "CLI/CLI.hpp"
#include "base/allocator_tuning.h"
#include "cli/command.h"
#include "spdlog/sinks/stdout_color_sinks.h"
#include "spdlog/spdlog.h"

namespace {

// CLI11 answers "A subcommand is required" to `pplda frobnicate`: name the
// unknown subcommand and list the known ones instead (and likewise for
// `pplda run frobnicate`). Before a subcommand only flags without values
// appear (--quiet, --verbose, --help, --version), so the first word not
// starting with '-' must name a subcommand. Returns the message, or "".
std::string UnknownSubcommand(CLI::App& app, int argc, char** argv) {
  CLI::App* level = &app;
  std::string path = "pplda";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') {
      // Root flags take no value; below the root an option may take one
      // (the word after it is then no subcommand): leave that to CLI11.
      if (level == &app) continue;
      return "";
    }
    const std::vector<CLI::App*> subs = level->get_subcommands({});
    if (subs.empty()) return "";
    CLI::App* found = nullptr;
    std::string known;
    for (CLI::App* sub : subs) {
      if (sub->check_name(word)) found = sub;
      known += (known.empty() ? "" : ", ") + sub->get_name();
    }
    if (found == nullptr) {
      return path + ": unknown subcommand '" + word + "' (one of: " + known + "; " + path +
             " --help lists them)";
    }
    level = found;
    path += " " + word;
    // Past a subcommand without subcommands of its own, words are values.
    if (found->get_subcommands({}).empty()) return "";
  }
  return "";
}

}  // namespace

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
  AddVocabCommand(app, globals, &run);
  AddReportCommand(app, globals, &run);
  // Options may follow the subcommand (pplda train --quiet ...): allow both.
  for (CLI::App* sub : app.get_subcommands({})) sub->fallthrough();

  auto logger = spdlog::stderr_color_mt("pplda");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%^%l%$: %v");
  if (const std::string unknown = UnknownSubcommand(app, argc, argv); !unknown.empty()) {
    std::fprintf(stderr, "%s\n", unknown.c_str());
    return static_cast<int>(CLI::ExitCodes::ExtrasError);
  }
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

// `pplda prepare`: raw documents to a prepared folder (vocabulary, train and
// test documents as term ids, statistics), split by a deterministic rule.
#include "base/status_macros.h"
#include "cli/command.h"
#include "cli/input_flags.h"
#include "cli/output_paths.h"
#include "cli/number_flags.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {
namespace {

struct PrepareFlags {
  InputFlags input;
  lda::SplitOptions split;
  std::string out;
};

absl::Status RunPrepare(const PrepareFlags& f, const GlobalFlags& g) {
  OutputPaths outputs;
  AddInputPaths(f.input, &outputs);
  RETURN_IF_ERROR(outputs.AddFolder("--out", f.out, OutputPaths::FolderUse::kNewOrEmpty));
  if (IsPreparedInput(f.input)) {
    return absl::InvalidArgumentError(
        "--input " + f.input.input + " is already a prepared folder; prepare reads raw documents");
  }
  ASSIGN_OR_RETURN(lda::RawCorpus raw, ReadInput(f.input, g.quiet));
  lda::PreprocessReport report;
  ASSIGN_OR_RETURN(lda::PreparedCorpus prepared,
                   lda::PrepareCorpus(raw, PreprocessOptionsFrom(f.input), f.split, &report));
  LogPreprocessReport(report, g.quiet);
  prepared.stats["input"] = f.input.input;
  RETURN_IF_ERROR(lda::WritePreparedCorpus(prepared, f.out));
  std::printf(
      "prepared %s: %d training documents (%lld tokens), %d test documents (%lld tokens), "
      "%d terms\n",
      f.out.c_str(), prepared.train.num_documents(),
      static_cast<long long>(prepared.train.num_tokens()), prepared.test.num_documents(),
      static_cast<long long>(prepared.test.num_tokens()), prepared.train.vocabulary.size());
  return absl::OkStatus();
}

}  // namespace

void AddPrepareCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run) {
  auto flags = std::make_shared<PrepareFlags>();
  CLI::App* app = root.add_subcommand(
      "prepare", "Preprocess raw documents into a prepared folder with a train/test split");
  AddInputFlags(app, &flags->input);
  app->add_option("--out,-o", flags->out, "Folder to write (created; must not hold files)")
      ->required();
  app->add_option("--test-every", flags->split.test_every,
                  "Document i (0-based, reading order) is held out when i % N == N-1 "
                  "(0 = no test set)")
      ->capture_default_str()
      ->check(NumberIn<int>(0, 1 << 30));
  app->callback(
      [flags, &globals, run] { *run = [flags, &globals] { return RunPrepare(*flags, globals); }; });
}

}  // namespace pplda::cli

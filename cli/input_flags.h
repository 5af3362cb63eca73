// The input and preprocessing options shared by every subcommand that reads
// documents (--input, --format, --split, --no-preprocess, ...), and loading a
// corpus from them with a summary of what was read, skipped and dropped.
#ifndef PPLDA_CLI_INPUT_FLAGS_H_
#define PPLDA_CLI_INPUT_FLAGS_H_

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "cli/output_paths.h"
#include "lda/document_reader.h"
#include "lda/preprocessor.h"
#include "lda/prepared_corpus.h"
#include "nlohmann/json.hpp"

namespace pplda::cli {

struct InputFlags {
  std::string input;
  std::string format = "auto";
  std::string split = "none";
  std::string uci_vocab;
  lda::ReadOptions read;             // defaults of the reader
  lda::PreprocessOptions preprocess; // defaults of the preprocessor
  bool no_preprocess = false;
  bool keep_stopwords = false;
  // Set by AddInputFlags: the options that only apply to raw documents
  // (reading and preprocessing), refused with a prepared folder.
  std::vector<const CLI::Option*> raw_only_options;
};

// Adds --input (required) and the rest; with `with_input` false (simulate
// reads one input per --party), --input is hidden from --help and refused
// by the command with a pointer to the right flag.
void AddInputFlags(CLI::App* app, InputFlags* flags, bool with_input = true);

// Whether --input is read as a folder written by `pplda prepare`: with
// --format auto only (an explicit --format reads raw documents), when the
// folder holds the prepared files. Errors: a folder that looks prepared but
// is incomplete (FailedPrecondition naming what is missing), and options
// that only apply to raw documents given with a prepared folder
// (InvalidArgument naming them: they would be silently ignored).
absl::StatusOr<bool> ReadsPreparedFolder(const InputFlags& flags);

// ReadsPreparedFolder without the errors (false for a folder it refuses).
bool IsPreparedInput(const InputFlags& flags);

// Registers the files and folders the flags read (--input, the UCI
// vocabulary, --stopwords) so no output overwrites them; `input_flag` names
// the documents' flag in errors (simulate: "--party NAME").
void AddInputPaths(const InputFlags& flags, OutputPaths* paths,
                   const std::string& input_flag = "--input");

// Reader and preprocessing options from the flags (validated).
absl::StatusOr<lda::ReadOptions> ReadOptionsFrom(const InputFlags& flags);
lda::PreprocessOptions PreprocessOptionsFrom(const InputFlags& flags);

// Reads the raw documents named by --input and logs a one-line summary
// (and the reader's warnings) unless quiet.
absl::StatusOr<lda::RawCorpus> ReadInput(const InputFlags& flags, bool quiet);

// Logs what preprocessing kept and dropped.
void LogPreprocessReport(const lda::PreprocessReport& report, bool quiet);

// The documents named by --input over a vocabulary built from them: a
// prepared folder's training and test sets (info = its stats), or raw
// documents read and preprocessed (test empty; info = PreprocessingInfo).
// info["input"] is the path.
struct LoadedCorpus {
  lda::Corpus train;
  lda::Corpus test;
  nlohmann::json info;
};
absl::StatusOr<LoadedCorpus> LoadCorpus(const InputFlags& flags, bool quiet);

}  // namespace pplda::cli

#endif  // PPLDA_CLI_INPUT_FLAGS_H_

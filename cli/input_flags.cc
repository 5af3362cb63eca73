#include "cli/input_flags.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "cli/model_metadata.h"
#include "cli/number_flags.h"
#include "lda/uci_bag_of_words.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {

void AddInputFlags(CLI::App* app, InputFlags* f, bool with_input) {
  auto* in = app->add_option("--input,-i", f->input,
                             "Documents: a folder (one document per .txt file, recursive), a file "
                             "(one document per line), a UCI docword file, or a folder written by "
                             "`pplda prepare`");
  if (with_input) {
    in->required();
  } else {
    in->group("");  // hidden
  }
  app->add_option("--format", f->format, "Input format: auto, folder, lines, uci")
      ->capture_default_str();
  auto* split = app->add_option("--split", f->split,
                                "Cut files into documents: none, paragraphs (blank-line "
                                "separated), sentences (windows of whole sentences)")
                     ->capture_default_str();
  auto* window = app->add_option("--window-words", f->read.window_words,
                                 "Words per sentence window with --split sentences")
                      ->capture_default_str()
                      ->check(NumberIn<int>(1, 1000000));
  auto* uci_vocab =
      app->add_option("--uci-vocab", f->uci_vocab,
                      "UCI vocabulary file (default: vocab.X.txt next to docword.X.txt)");
  auto& p = f->preprocess;
  auto* max_tokens =
      app->add_option("--max-corpus-tokens", f->read.max_corpus_tokens,
                      "UCI input: refuse counts adding up to more tokens than this (training "
                      "takes about 100 bytes of memory per token)")
          ->capture_default_str()
          ->check(NumberIn<int64_t>(1, int64_t{1} << 40));
  f->raw_only_options = {split, window, uci_vocab, max_tokens};
  auto raw_only = [f](CLI::Option* o) { f->raw_only_options.push_back(o); };
  raw_only(app->add_flag("--no-preprocess", f->no_preprocess,
                         "Keep whitespace-separated tokens exactly as given (no filtering at "
                         "all)"));
  raw_only(app->add_option("--stopwords", p.stopwords_path,
                           "Stop-word file, one word per line (default: the bundled English "
                           "list)"));
  raw_only(app->add_flag("--keep-stopwords", f->keep_stopwords, "Do not remove stop words"));
  raw_only(app->add_option("--min-length", p.min_length, "Shortest token kept (characters)")
               ->capture_default_str()
               ->check(NumberIn<int>(1, 1000)));
  raw_only(app->add_option("--max-length", p.max_length, "Longest token kept (characters)")
               ->capture_default_str()
               ->check(NumberIn<int>(1, 1000)));
  raw_only(app->add_option("--min-df", p.min_df, "Drop terms in fewer than this many documents")
               ->capture_default_str()
               ->check(NumberIn<int>(1, 1 << 30)));
  raw_only(app->add_option("--max-df", p.max_df,
                           "Drop terms in more than this fraction of documents (0 < x <= 1)")
               ->capture_default_str()
               ->check(NumberIn<double>(1e-9, 1.0)));
  raw_only(app->add_flag("--stem", p.stem, "Snowball-stem tokens"));
  raw_only(app->add_option("--stem-language", p.stem_language, "Snowball language")
               ->capture_default_str());
  raw_only(app->add_option("--max-tokens", p.max_tokens_per_doc,
                           "Keep at most this many tokens per document (0 = no cap)")
               ->capture_default_str()
               ->check(NumberIn<int>(0, 1 << 30)));
}

absl::StatusOr<bool> ReadsPreparedFolder(const InputFlags& f) {
  if (f.format != "auto") return false;
  ASSIGN_OR_RETURN(const bool prepared, lda::DetectPreparedCorpusDir(f.input));
  if (!prepared) return false;
  std::string given;
  for (const CLI::Option* o : f.raw_only_options) {
    if (o != nullptr && o->count() > 0) {
      absl::StrAppend(&given, given.empty() ? "" : ", ", o->get_name());
    }
  }
  if (!given.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        given, ": these options apply when reading raw documents, but ", f.input,
        " is a folder written by `pplda prepare`, read as prepared (its options are in its "
        "stats.json); drop them, or run `pplda prepare` again with them"));
  }
  return true;
}

bool IsPreparedInput(const InputFlags& f) {
  return f.format == "auto" && lda::IsPreparedCorpusDir(f.input);
}

void AddInputPaths(const InputFlags& f, OutputPaths* paths, const std::string& input_flag) {
  paths->AddInput(input_flag, f.input);
  if (!f.uci_vocab.empty()) {
    paths->AddInput("--uci-vocab", f.uci_vocab);
  } else if (absl::StatusOr<std::string> vocab = lda::UciVocabPathFor(f.input); vocab.ok()) {
    paths->AddInput(input_flag + " (its UCI vocabulary)", *vocab);
  }
  paths->AddInput("--stopwords", f.preprocess.stopwords_path);
}

absl::StatusOr<lda::ReadOptions> ReadOptionsFrom(const InputFlags& f) {
  lda::ReadOptions options = f.read;
  ASSIGN_OR_RETURN(options.format, lda::ParseInputFormat(f.format));
  ASSIGN_OR_RETURN(options.split, lda::ParseSplitMode(f.split));
  options.uci_vocab_path = f.uci_vocab;
  return options;
}

lda::PreprocessOptions PreprocessOptionsFrom(const InputFlags& f) {
  lda::PreprocessOptions options = f.preprocess;
  options.enabled = !f.no_preprocess;
  if (f.keep_stopwords) options.remove_stopwords = false;
  return options;
}

absl::StatusOr<lda::RawCorpus> ReadInput(const InputFlags& f, bool quiet) {
  ASSIGN_OR_RETURN(lda::ReadOptions options, ReadOptionsFrom(f));
  ASSIGN_OR_RETURN(lda::RawCorpus raw, lda::ReadDocuments(f.input, options));
  const auto& r = raw.report;
  if (!quiet) {
    for (const auto& w : r.warnings) spdlog::warn("{}", w);
    spdlog::info("read {} documents from {} files ({} bytes) in {}; skipped {} empty, {} non-.txt",
                 r.documents, r.files, r.bytes, f.input, r.skipped_empty, r.skipped_non_txt);
  }
  if (raw.documents.empty()) {
    return absl::InvalidArgumentError("no documents found in " + f.input);
  }
  return raw;
}

void LogPreprocessReport(const lda::PreprocessReport& r, bool quiet) {
  if (quiet) return;
  for (const auto& w : r.warnings) spdlog::warn("{}", w);
  spdlog::info(
      "preprocessing kept {} of {} documents ({} empty after preprocessing), {} of {} tokens, "
      "{} of {} terms after document-frequency filtering",
      r.documents_out, r.documents_in, r.dropped_empty, r.tokens_out, r.tokens_in,
      r.terms_after_df, r.terms_before_df);
  if (r.unknown_tokens > 0) {
    spdlog::info("{} tokens of terms outside the vocabulary were dropped", r.unknown_tokens);
  }
}

absl::StatusOr<LoadedCorpus> LoadCorpus(const InputFlags& f, bool quiet) {
  LoadedCorpus data;
  ASSIGN_OR_RETURN(const bool prepared, ReadsPreparedFolder(f));
  if (prepared) {
    ASSIGN_OR_RETURN(lda::PreparedCorpus prepared, lda::ReadPreparedCorpus(f.input));
    data.train = std::move(prepared.train);
    data.test = std::move(prepared.test);
    data.info = prepared.stats;
  } else {
    ASSIGN_OR_RETURN(lda::RawCorpus raw, ReadInput(f, quiet));
    lda::PreprocessReport report;
    ASSIGN_OR_RETURN(data.train, lda::BuildCorpus(raw, PreprocessOptionsFrom(f), &report));
    LogPreprocessReport(report, quiet);
    data.info = PreprocessingInfo(f, report);
  }
  data.info["input"] = f.input;
  return data;
}

}  // namespace pplda::cli

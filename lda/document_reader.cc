#include "lda/document_reader.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "lda/text_file.h"
#include "lda/text_split.h"
#include "lda/uci_bag_of_words.h"

namespace pplda::lda {
namespace {

namespace fs = std::filesystem;

bool IsBlank(std::string_view text) { return CountWords(text) == 0; }

absl::Status ValidateOptions(const ReadOptions& options) {
  if (options.window_words < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("window_words must be at least 1, got ", options.window_words));
  }
  if (options.max_file_bytes < 1 || options.max_corpus_bytes < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "max_file_bytes and max_corpus_bytes must be positive, got ", options.max_file_bytes,
        " and ", options.max_corpus_bytes));
  }
  if (options.max_corpus_tokens < 1) {
    return absl::InvalidArgumentError(absl::StrCat("max_corpus_tokens must be positive, got ",
                                                   options.max_corpus_tokens));
  }
  return absl::OkStatus();
}

// Adds the documents cut from one text (a file or a line) under `name`.
void AddPieces(const std::string& name, std::string_view text, const ReadOptions& options,
               RawCorpus* corpus) {
  const auto add = [&](std::string doc_name, std::string doc_text) {
    RawDocument doc;
    doc.name = std::move(doc_name);
    doc.text = std::move(doc_text);
    corpus->documents.push_back(std::move(doc));
    ++corpus->report.documents;
  };
  switch (options.split) {
    case SplitMode::kNone:
      add(name, std::string(text));
      return;
    case SplitMode::kParagraphs: {
      int number = 0;
      for (std::string_view p : SplitParagraphs(text)) {
        add(absl::StrCat(name, "#", ++number), std::string(p));
      }
      return;
    }
    case SplitMode::kSentences: {
      int number = 0;
      for (std::string& w : PackSentenceWindows(text, options.window_words)) {
        add(absl::StrCat(name, "#", ++number), std::move(w));
      }
      return;
    }
  }
}

struct FolderFile {
  std::string relative;  // '/'-separated, the document name
  fs::path path;
};

bool HasTxtExtension(const fs::path& p) {
  return absl::AsciiStrToLower(p.extension().string()) == ".txt";
}

// The *.txt files under `root`, sorted by relative path; counts the others.
absl::StatusOr<std::vector<FolderFile>> ListTxtFiles(const fs::path& root, ReadReport* report) {
  std::vector<FolderFile> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;
    const std::string relative = it->path().lexically_relative(root).generic_string();
    if (!HasTxtExtension(it->path())) {
      ++report->skipped_non_txt;
      report->AddWarning(absl::StrCat(relative, ": not a .txt file; skipped"));
      continue;
    }
    files.push_back({relative, it->path()});
  }
  if (ec) {
    return absl::InternalError(absl::StrCat(root.string(), ": cannot list: ", ec.message()));
  }
  std::sort(files.begin(), files.end(),
            [](const FolderFile& a, const FolderFile& b) { return a.relative < b.relative; });
  return files;
}

absl::Status CheckTotalSize(const std::vector<FolderFile>& files, const ReadOptions& options) {
  int64_t total = 0;
  for (const FolderFile& f : files) {
    std::error_code ec;
    const uintmax_t size = fs::file_size(f.path, ec);
    if (ec) continue;  // reported when the file is read
    total += static_cast<int64_t>(size);
    if (total > options.max_corpus_bytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the corpus is larger than the limit of ", options.max_corpus_bytes,
          " bytes (reached at ", f.relative, ")"));
    }
  }
  return absl::OkStatus();
}

// One file as one or more documents (folder input).
absl::Status ReadWholeFile(const FolderFile& file, const ReadOptions& options,
                           RawCorpus* corpus) {
  ASSIGN_OR_RETURN(std::string text,
                   ReadUtf8File(file.path.string(), options.max_file_bytes, file.path.string()));
  corpus->report.bytes += static_cast<int64_t>(text.size());
  ++corpus->report.files;
  if (IsBlank(text)) {
    ++corpus->report.skipped_empty;
    corpus->report.AddWarning(absl::StrCat(file.relative, ": empty file; skipped"));
    return absl::OkStatus();
  }
  AddPieces(file.relative, text, options, corpus);
  return absl::OkStatus();
}

absl::Status ReadFolder(const fs::path& root, const ReadOptions& options, RawCorpus* corpus) {
  if (fs::is_regular_file(root)) {  // --format folder on one file
    return ReadWholeFile({root.filename().string(), root}, options, corpus);
  }
  ASSIGN_OR_RETURN(std::vector<FolderFile> files, ListTxtFiles(root, &corpus->report));
  RETURN_IF_ERROR(CheckTotalSize(files, options));
  for (const FolderFile& f : files) RETURN_IF_ERROR(ReadWholeFile(f, options, corpus));
  return absl::OkStatus();
}

absl::Status ReadLines(const fs::path& path, const ReadOptions& options, RawCorpus* corpus) {
  if (options.split == SplitMode::kParagraphs) {
    return absl::InvalidArgumentError(absl::StrCat(
        path.string(), ": --split paragraphs needs blank lines, but a lines file holds one "
                       "document per line; use --format folder to cut the file at blank lines"));
  }
  const std::string file = path.filename().string();
  ASSIGN_OR_RETURN(std::string text, ReadUtf8File(path.string(), options.max_file_bytes, path.string()));
  corpus->report.bytes += static_cast<int64_t>(text.size());
  ++corpus->report.files;
  int64_t empty_lines = 0;
  RETURN_IF_ERROR(ForEachLine(text, [&](int64_t number, std::string_view line) {
    if (IsBlank(line)) {
      ++empty_lines;
    } else {
      AddPieces(absl::StrCat(file, ":", number), line, options, corpus);
    }
    return absl::OkStatus();
  }));
  if (empty_lines > 0) {
    corpus->report.skipped_empty += empty_lines;
    corpus->report.AddWarning(absl::StrCat(file, ": ", empty_lines, " empty line",
                                           empty_lines == 1 ? "" : "s", " skipped"));
  }
  return absl::OkStatus();
}

absl::Status ReadUci(const fs::path& path, const ReadOptions& options, RawCorpus* corpus) {
  if (options.split != SplitMode::kNone) {
    return absl::InvalidArgumentError(
        "--split does not apply to UCI bag-of-words input (documents are given as bags)");
  }
  if (fs::is_directory(path)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path.string(), ": UCI input is the docword file, not a folder"));
  }
  std::string vocab = options.uci_vocab_path;
  if (vocab.empty()) {
    ASSIGN_OR_RETURN(vocab, UciVocabPathFor(path.string()));
  }
  return ReadUciBagOfWords(path.string(), vocab, options, corpus);
}

InputFormat Resolve(const fs::path& path, InputFormat format) {
  if (format != InputFormat::kAuto) return format;
  if (fs::is_directory(path)) return InputFormat::kFolder;
  if (absl::StartsWith(path.filename().string(), "docword.")) return InputFormat::kUci;
  return InputFormat::kLines;
}

std::string NoDocumentsMessage(const std::string& path, const ReadReport& r) {
  return absl::StrCat("no documents found in ", path, " (", r.files, " files read, ",
                      r.skipped_empty, " empty files/lines/documents and ", r.skipped_non_txt,
                      " non-.txt files skipped)");
}

}  // namespace

absl::StatusOr<InputFormat> ParseInputFormat(std::string_view name) {
  if (name == "auto") return InputFormat::kAuto;
  if (name == "folder") return InputFormat::kFolder;
  if (name == "lines") return InputFormat::kLines;
  if (name == "uci") return InputFormat::kUci;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown input format '", std::string(name), "' (expected auto, folder, lines or uci)"));
}

absl::StatusOr<SplitMode> ParseSplitMode(std::string_view name) {
  if (name == "none") return SplitMode::kNone;
  if (name == "paragraphs") return SplitMode::kParagraphs;
  if (name == "sentences") return SplitMode::kSentences;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown split mode '", std::string(name), "' (expected none, paragraphs or sentences)"));
}

std::string_view InputFormatName(InputFormat format) {
  switch (format) {
    case InputFormat::kAuto: return "auto";
    case InputFormat::kFolder: return "folder";
    case InputFormat::kLines: return "lines";
    case InputFormat::kUci: return "uci";
  }
  return "auto";
}

std::string_view SplitModeName(SplitMode mode) {
  switch (mode) {
    case SplitMode::kNone: return "none";
    case SplitMode::kParagraphs: return "paragraphs";
    case SplitMode::kSentences: return "sentences";
  }
  return "none";
}

absl::StatusOr<RawCorpus> ReadDocuments(const std::string& path, const ReadOptions& options) {
  RETURN_IF_ERROR(ValidateOptions(options));
  const fs::path p(path);
  std::error_code ec;
  if (!fs::exists(p, ec)) return absl::NotFoundError(absl::StrCat(path, ": no such file or folder"));
  RawCorpus corpus;
  switch (Resolve(p, options.format)) {
    case InputFormat::kFolder:
      RETURN_IF_ERROR(ReadFolder(p, options, &corpus));
      break;
    case InputFormat::kLines:
      if (fs::is_directory(p)) {
        return absl::InvalidArgumentError(
            absl::StrCat(path, ": is a folder; --format lines needs a file"));
      }
      RETURN_IF_ERROR(ReadLines(p, options, &corpus));
      break;
    case InputFormat::kUci:
      RETURN_IF_ERROR(ReadUci(p, options, &corpus));
      break;
    case InputFormat::kAuto:
      break;  // Resolve never returns kAuto
  }
  if (corpus.documents.empty()) {
    return absl::InvalidArgumentError(NoDocumentsMessage(path, corpus.report));
  }
  return corpus;
}

}  // namespace pplda::lda

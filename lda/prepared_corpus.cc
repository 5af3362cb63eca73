#include "lda/prepared_corpus.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <limits>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/atomic_file.h"
#include "base/status_macros.h"
#include "lda/text_file.h"
#include "lda/warning_list.h"

namespace pplda::lda {
namespace {

namespace fs = std::filesystem;

constexpr char kVocabularyFile[] = "vocabulary.txt";
constexpr char kTrainFile[] = "train.txt";
constexpr char kTestFile[] = "test.txt";
constexpr char kStatsFile[] = "stats.json";
constexpr int64_t kNoSizeLimit = std::numeric_limits<int64_t>::max();

std::string SplitRule(int test_every) {
  if (test_every == 0) return "no test set: every document is used for training";
  return absl::StrCat("raw document i (0-based, reading order) is a test document iff i % ",
                      test_every, " == ", test_every - 1);
}

void MergeReports(const PreprocessReport& train, const PreprocessReport& test,
                  PreprocessReport* out) {
  out->documents_in += train.documents_in + test.documents_in;
  out->documents_out += train.documents_out + test.documents_out;
  out->dropped_empty += train.dropped_empty + test.dropped_empty;
  out->tokens_in += train.tokens_in + test.tokens_in;
  out->tokens_out += train.tokens_out + test.tokens_out;
  out->terms_before_df = train.terms_before_df;
  out->terms_after_df = train.terms_after_df;
  out->unknown_tokens += test.unknown_tokens;
  out->capped_documents += train.capped_documents + test.capped_documents;
  for (const PreprocessReport* r : {&train, &test}) {
    for (const std::string& w : r->warnings) {
      AddCappedWarning(&out->warnings, &out->warnings_dropped, w);
    }
    out->warnings_dropped += r->warnings_dropped;
  }
}

nlohmann::json CorpusCounts(const Corpus& corpus) {
  return nlohmann::json{{"documents", corpus.num_documents()}, {"tokens", corpus.num_tokens()}};
}

nlohmann::json ReaderCounts(const ReadReport& r) {
  return nlohmann::json{{"files", r.files},
                        {"documents", r.documents},
                        {"bytes", r.bytes},
                        {"skipped_empty", r.skipped_empty},
                        {"skipped_non_txt", r.skipped_non_txt}};
}

// ---- writing ----

std::string EscapeName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

absl::Status CheckWritable(const PreparedCorpus& p) {
  RETURN_IF_ERROR(p.train.Validate());
  RETURN_IF_ERROR(p.test.Validate());
  if (p.test.vocabulary.terms() != p.train.vocabulary.terms()) {
    return absl::InvalidArgumentError("the test corpus does not use the training vocabulary");
  }
  for (const std::string& term : p.train.vocabulary.terms()) {
    if (term.empty() || term.find_first_of("\n\r") != std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("vocabulary term ", LineExcerpt(term), " is empty or holds a line break"));
    }
  }
  for (const Corpus* c : {&p.train, &p.test}) {
    for (const Document& d : c->documents) {
      if (d.tokens.empty()) {
        return absl::InvalidArgumentError(absl::StrCat("document ", d.name, " has no tokens"));
      }
    }
  }
  return absl::OkStatus();
}

std::string DocumentsText(const Corpus& corpus) {
  std::string out;
  for (const Document& d : corpus.documents) {
    out += EscapeName(d.name);
    out.push_back('\t');
    for (size_t i = 0; i < d.tokens.size(); ++i) {
      if (i > 0) out.push_back(' ');
      absl::StrAppend(&out, d.tokens[i]);
    }
    out.push_back('\n');
  }
  return out;
}

// OK when `dir` does not exist or is an empty folder; creates its parents.
absl::Status CheckEmptyOrAbsentDir(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) {
      return absl::FailedPreconditionError(
          absl::StrCat(dir.string(), " exists and is not a folder"));
    }
    if (!fs::is_empty(dir, ec)) {
      return absl::FailedPreconditionError(absl::StrCat(
          dir.string(), " already holds files; choose a new folder (nothing was written)"));
    }
    return absl::OkStatus();
  }
  const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) {
    return absl::InternalError(absl::StrCat(parent.string(), ": cannot create: ", ec.message()));
  }
  return absl::OkStatus();
}

// A new, empty, private folder next to `dir` (".NAME.tmp-XXXXXX").
absl::StatusOr<fs::path> MakeTemporarySibling(const fs::path& dir) {
  const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  std::string name = (parent / absl::StrCat(".", dir.filename().string(), ".tmp-XXXXXX")).string();
  if (::mkdtemp(name.data()) == nullptr) {
    return absl::PermissionDeniedError(absl::StrCat("cannot create a temporary folder next to ",
                                                    dir.string(), ": ", std::strerror(errno)));
  }
  return fs::path(name);
}

// The files of a prepared folder, in the order a reader needs them.
constexpr const char* kPreparedFiles[] = {kVocabularyFile, kTrainFile, kTestFile, kStatsFile};

// ---- reading ----

absl::Status FileError(const std::string& file, int64_t line, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(file, ":", line, ": ", std::string(what)));
}

absl::StatusOr<std::string> UnescapeName(std::string_view escaped) {
  std::string out;
  out.reserve(escaped.size());
  for (size_t i = 0; i < escaped.size(); ++i) {
    if (escaped[i] != '\\') {
      out.push_back(escaped[i]);
      continue;
    }
    const char next = i + 1 < escaped.size() ? escaped[i + 1] : '\0';
    switch (next) {
      case '\\': out.push_back('\\'); break;
      case 't': out.push_back('\t'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      default:
        return absl::InvalidArgumentError(absl::StrCat(
            "bad escape in the document name at character ", i + 1,
            " (only \\\\, \\t, \\n and \\r are allowed)"));
    }
    ++i;
  }
  return out;
}

absl::StatusOr<Vocabulary> ReadVocabularyFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadUtf8File(path, kNoSizeLimit, path));
  std::vector<std::string> terms;
  absl::flat_hash_map<std::string, int64_t> line_of;
  RETURN_IF_ERROR(ForEachLine(text, [&](int64_t number, std::string_view line) {
    if (line.empty()) return FileError(path, number, "empty term");
    auto [it, inserted] = line_of.emplace(std::string(line), number);
    if (!inserted) {
      return FileError(path, number, absl::StrCat("term ", LineExcerpt(line),
                                                  " already appears on line ", it->second));
    }
    terms.emplace_back(line);
    return absl::OkStatus();
  }));
  if (terms.empty()) return absl::InvalidArgumentError(absl::StrCat(path, ": no terms"));
  return Vocabulary::FromTerms(std::move(terms));
}

absl::Status ParseTokenIds(const std::string& path, int64_t number, std::string_view ids,
                           int32_t vocabulary_size, std::vector<TermId>* tokens) {
  size_t i = 0;
  while (i < ids.size()) {
    while (i < ids.size() && ids[i] == ' ') ++i;
    size_t j = i;
    while (j < ids.size() && ids[j] != ' ') ++j;
    if (j == i) break;
    const std::string_view field = ids.substr(i, j - i);
    int64_t id = -1;
    auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), id);
    if (ec != std::errc() || end != field.data() + field.size() || id < 0 ||
        id >= vocabulary_size) {
      return FileError(path, number,
                       absl::StrCat("token ", tokens->size() + 1, " is ", LineExcerpt(field),
                                    ", not a term id in 0..", vocabulary_size - 1));
    }
    tokens->push_back(static_cast<TermId>(id));
    i = j;
  }
  return absl::OkStatus();
}

absl::StatusOr<Corpus> ReadDocumentsFile(const std::string& path, const Vocabulary& vocabulary) {
  ASSIGN_OR_RETURN(std::string text, ReadUtf8File(path, kNoSizeLimit, path));
  Corpus corpus;
  corpus.vocabulary = vocabulary;
  RETURN_IF_ERROR(ForEachLine(text, [&](int64_t number, std::string_view line) {
    const size_t tab = line.find('\t');
    if (tab == std::string_view::npos) {
      return FileError(path, number, "expected NAME, a tab, then term ids");
    }
    absl::StatusOr<std::string> name = UnescapeName(line.substr(0, tab));
    if (!name.ok()) return FileError(path, number, std::string(name.status().message()));
    Document doc{std::move(*name), {}};
    RETURN_IF_ERROR(ParseTokenIds(path, number, line.substr(tab + 1), vocabulary.size(),
                                  &doc.tokens));
    if (doc.tokens.empty()) {
      return FileError(path, number, absl::StrCat("document ", doc.name, " has no tokens"));
    }
    corpus.documents.push_back(std::move(doc));
    return absl::OkStatus();
  }));
  return corpus;
}

// The integer at stats[section][key] (or stats[key] when section is empty).
absl::StatusOr<int64_t> StatsInteger(const std::string& path, const nlohmann::json& stats,
                                     const std::string& section, const std::string& key) {
  const nlohmann::json* node = &stats;
  const std::string field = section.empty() ? key : section + "." + key;
  if (!section.empty()) {
    auto it = stats.find(section);
    if (it == stats.end() || !it->is_object()) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": missing object \"", section, "\""));
    }
    node = &*it;
  }
  auto it = node->find(key);
  if (it == node->end() || !it->is_number_integer()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": field \"", field, "\" is missing or not an integer"));
  }
  return it->get<int64_t>();
}

absl::Status CheckCount(const std::string& path, const nlohmann::json& stats,
                        const std::string& section, const std::string& key, int64_t actual,
                        const std::string& source) {
  ASSIGN_OR_RETURN(int64_t stated, StatsInteger(path, stats, section, key));
  if (stated != actual) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": \"", section.empty() ? key : section + "." + key, "\" is ", stated,
                     " but ", source, " has ", actual));
  }
  return absl::OkStatus();
}

absl::StatusOr<nlohmann::json> ReadStats(const std::string& path, const PreparedCorpus& p) {
  ASSIGN_OR_RETURN(std::string text, ReadUtf8File(path, kNoSizeLimit, path));
  nlohmann::json stats = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (stats.is_discarded() || !stats.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a JSON object"));
  }
  auto format = stats.find("format");
  if (format == stats.end() || *format != kPreparedCorpusFormat) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": \"format\" must be \"", kPreparedCorpusFormat, "\""));
  }
  ASSIGN_OR_RETURN(int64_t version, StatsInteger(path, stats, "", "version"));
  if (version != kPreparedCorpusVersion) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": version ", version,
                                                   " is not supported (this build reads ",
                                                   kPreparedCorpusVersion, ")"));
  }
  RETURN_IF_ERROR(CheckCount(path, stats, "", "vocabulary_size", p.train.vocabulary.size(),
                             kVocabularyFile));
  RETURN_IF_ERROR(CheckCount(path, stats, "train", "documents", p.train.num_documents(),
                             kTrainFile));
  RETURN_IF_ERROR(CheckCount(path, stats, "train", "tokens", p.train.num_tokens(), kTrainFile));
  RETURN_IF_ERROR(CheckCount(path, stats, "test", "documents", p.test.num_documents(),
                             kTestFile));
  RETURN_IF_ERROR(CheckCount(path, stats, "test", "tokens", p.test.num_tokens(), kTestFile));
  return stats;
}

}  // namespace

absl::StatusOr<PreparedCorpus> PrepareCorpus(const RawCorpus& raw,
                                             const PreprocessOptions& options,
                                             const SplitOptions& split,
                                             PreprocessReport* report) {
  if (split.test_every < 0 || split.test_every == 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "test_every = ", split.test_every,
        " is invalid: use 0 (no test set) or N >= 2 (every N-th document is held out)"));
  }
  RawCorpus train_raw, test_raw;
  train_raw.report = raw.report;
  for (size_t i = 0; i < raw.documents.size(); ++i) {
    const bool test = split.test_every > 0 &&
                      static_cast<int64_t>(i % split.test_every) == split.test_every - 1;
    (test ? test_raw : train_raw).documents.push_back(raw.documents[i]);
  }
  PreprocessReport train_report, test_report;
  PreparedCorpus prepared;
  ASSIGN_OR_RETURN(prepared.train, BuildCorpus(train_raw, options, &train_report));
  ASSIGN_OR_RETURN(prepared.test, MapToVocabulary(test_raw, prepared.train.vocabulary, options,
                                                  &test_report));
  prepared.stats = {
      {"format", kPreparedCorpusFormat},
      {"version", kPreparedCorpusVersion},
      {"vocabulary_size", prepared.train.vocabulary.size()},
      {"train", CorpusCounts(prepared.train)},
      {"test", CorpusCounts(prepared.test)},
      {"split", {{"rule", SplitRule(split.test_every)}, {"test_every", split.test_every}}},
      {"preprocess", PreprocessOptionsToJson(options)},
      {"preprocess_report",
       {{"train", PreprocessReportToJson(train_report)},
        {"test", PreprocessReportToJson(test_report)}}},
      {"reader", ReaderCounts(raw.report)},
  };
  if (report != nullptr) MergeReports(train_report, test_report, report);
  return prepared;
}

absl::Status WritePreparedCorpus(const PreparedCorpus& prepared, const std::string& dir) {
  RETURN_IF_ERROR(CheckWritable(prepared));
  fs::path target(dir);
  if (!target.has_filename()) target = target.parent_path();  // "out/" -> "out"
  RETURN_IF_ERROR(CheckEmptyOrAbsentDir(target));
  nlohmann::json stats = prepared.stats.is_object() ? prepared.stats : nlohmann::json::object();
  stats["format"] = kPreparedCorpusFormat;
  stats["version"] = kPreparedCorpusVersion;
  stats["vocabulary_size"] = prepared.train.vocabulary.size();
  stats["train"] = CorpusCounts(prepared.train);
  stats["test"] = CorpusCounts(prepared.test);
  std::string vocabulary;
  for (const std::string& term : prepared.train.vocabulary.terms()) {
    absl::StrAppend(&vocabulary, term, "\n");
  }
  // Everything goes to a temporary sibling folder, renamed onto `dir` once
  // complete: an interrupted prepare leaves no half-written `dir`.
  ASSIGN_OR_RETURN(const fs::path tmp, MakeTemporarySibling(target));
  absl::Status status = WriteFileAtomically(tmp / kVocabularyFile, vocabulary);
  if (status.ok()) status = WriteFileAtomically(tmp / kTrainFile, DocumentsText(prepared.train));
  if (status.ok()) status = WriteFileAtomically(tmp / kTestFile, DocumentsText(prepared.test));
  if (status.ok()) status = WriteFileAtomically(tmp / kStatsFile, stats.dump(2) + "\n");
  if (status.ok() && ::chmod(tmp.c_str(), 0755) != 0) {
    status = absl::PermissionDeniedError(
        absl::StrCat("cannot set the mode of ", tmp.string(), ": ", std::strerror(errno)));
  }
  // rename(2) replaces an empty folder and refuses one that is not empty.
  if (status.ok() && ::rename(tmp.c_str(), target.c_str()) != 0) {
    status = absl::FailedPreconditionError(absl::StrCat(
        "cannot move the prepared files into ", target.string(), ": ", std::strerror(errno),
        " (nothing was written)"));
  }
  if (!status.ok()) {
    std::error_code ec;
    fs::remove_all(tmp, ec);
  }
  return status;
}

absl::StatusOr<PreparedCorpus> ReadPreparedCorpus(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return absl::NotFoundError(absl::StrCat(dir, ": no such folder"));
  if (!fs::is_directory(dir, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat(dir, ": not a folder (a prepared corpus is a folder written by prepare)"));
  }
  const fs::path root(dir);
  PreparedCorpus p;
  ASSIGN_OR_RETURN(Vocabulary vocabulary, ReadVocabularyFile((root / kVocabularyFile).string()));
  ASSIGN_OR_RETURN(p.train, ReadDocumentsFile((root / kTrainFile).string(), vocabulary));
  ASSIGN_OR_RETURN(p.test, ReadDocumentsFile((root / kTestFile).string(), vocabulary));
  if (p.train.documents.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat((root / kTrainFile).string(), ": no training documents"));
  }
  ASSIGN_OR_RETURN(p.stats, ReadStats((root / kStatsFile).string(), p));
  return p;
}

bool IsPreparedCorpusDir(const std::string& path) {
  std::error_code ec;
  const fs::path root(path);
  if (!fs::is_directory(root, ec)) return false;
  for (const char* file : kPreparedFiles) {
    if (!fs::is_regular_file(root / file, ec)) return false;
  }
  return true;
}

absl::StatusOr<bool> DetectPreparedCorpusDir(const std::string& path) {
  std::error_code ec;
  const fs::path root(path);
  if (!fs::is_directory(root, ec)) return false;
  std::vector<std::string> present, missing;
  for (const char* file : kPreparedFiles) {
    (fs::is_regular_file(root / file, ec) ? present : missing).push_back(file);
  }
  if (missing.empty()) return true;
  const bool looks_prepared =
      fs::exists(root / kStatsFile, ec) || fs::exists(root / kVocabularyFile, ec);
  if (!looks_prepared) return false;
  return absl::FailedPreconditionError(absl::StrCat(
      path, " looks like a folder written by `pplda prepare` (it holds ",
      absl::StrJoin(present, ", "), ") but ", absl::StrJoin(missing, ", "),
      missing.size() == 1 ? " is" : " are",
      " missing (an interrupted prepare?): run `pplda prepare` again into a new folder, or pass "
      "--format folder to read its .txt files as raw documents"));
}

}  // namespace pplda::lda

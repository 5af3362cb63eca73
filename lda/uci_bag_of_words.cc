#include "lda/uci_bag_of_words.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "lda/text_file.h"

namespace pplda::lda {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kMaxId = std::numeric_limits<int32_t>::max();
constexpr int64_t kMinDataLineBytes = 6;  // "1 1 1\n"

absl::Status LineError(const std::string& file, int64_t line, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(file, ":", line, ": ", std::string(what)));
}

std::vector<std::string_view> SplitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) fields.push_back(line.substr(i, j - i));
    i = j;
  }
  return fields;
}

bool ParseInteger(std::string_view s, int64_t* value) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *value);
  return ec == std::errc() && end == s.data() + s.size();
}

struct UciHeader {
  int64_t documents = 0, words = 0, nonzeros = 0;
};

absl::Status ParseHeaderLine(const std::string& file, int64_t number, std::string_view line,
                             int64_t min_value, int64_t* value) {
  static constexpr const char* kNames[] = {"D (number of documents)",
                                           "W (vocabulary size)", "NNZ (number of entries)"};
  const std::vector<std::string_view> fields = SplitFields(line);
  if (fields.size() != 1 || !ParseInteger(fields[0], value) || *value < min_value ||
      *value > (number == 3 ? std::numeric_limits<int64_t>::max() : kMaxId)) {
    return LineError(file, number,
                     absl::StrCat("header line ", number, " must be ", kNames[number - 1],
                                  ", an integer >= ", min_value, "; found ", LineExcerpt(line)));
  }
  return absl::OkStatus();
}

struct DocEntries {
  std::vector<std::pair<int32_t, int64_t>> word_counts;  // 0-based word id, count
};

struct DocwordData {
  UciHeader header;
  absl::flat_hash_map<int64_t, DocEntries> docs;  // by 1-based docID
  int64_t data_lines = 0;
};

absl::StatusOr<std::vector<std::string>> ReadVocab(const std::string& path, int64_t expected,
                                                   const ReadOptions& options,
                                                   ReadReport* report) {
  ASSIGN_OR_RETURN(std::string text, ReadUtf8File(path, options.max_file_bytes, path));
  report->bytes += static_cast<int64_t>(text.size());
  std::vector<std::string> words;
  absl::flat_hash_map<std::string, int64_t> line_of;
  int64_t blank_line = 0;  // first blank line seen, 0 if none
  RETURN_IF_ERROR(ForEachLine(text, [&](int64_t number, std::string_view line) {
    const std::vector<std::string_view> fields = SplitFields(line);
    if (fields.empty()) {
      if (blank_line == 0) blank_line = number;
      return absl::OkStatus();
    }
    if (blank_line != 0) {
      return LineError(path, blank_line,
                       absl::StrCat("blank line inside the vocabulary (word ", words.size() + 1,
                                    " follows on line ", number, "); one word per line"));
    }
    std::string word(line.substr(fields.front().data() - line.data(),
                                 fields.back().data() + fields.back().size() -
                                     fields.front().data()));
    auto [it, inserted] = line_of.emplace(word, number);
    if (!inserted) {
      return LineError(path, number, absl::StrCat("word '", word, "' already appears on line ",
                                                  it->second));
    }
    words.push_back(std::move(word));
    return absl::OkStatus();
  }));
  if (static_cast<int64_t>(words.size()) != expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": has ", words.size(), " words but the docword header says W = ", expected));
  }
  return words;
}

absl::Status ParseDataLine(const std::string& file, int64_t number, std::string_view line,
                           DocwordData* data) {
  const std::vector<std::string_view> fields = SplitFields(line);
  if (fields.empty()) return absl::OkStatus();
  int64_t doc = 0, word = 0, count = 0;
  if (fields.size() != 3 || !ParseInteger(fields[0], &doc) ||
      !ParseInteger(fields[1], &word) || !ParseInteger(fields[2], &count)) {
    return LineError(file, number, absl::StrCat("expected \"docID wordID count\" (three "
                                                "integers), found ", LineExcerpt(line)));
  }
  const UciHeader& h = data->header;
  if (doc < 1 || doc > h.documents) {
    return LineError(file, number, absl::StrCat("docID ", doc, " is outside 1..", h.documents,
                                                " (D in the header)"));
  }
  if (word < 1 || word > h.words) {
    return LineError(file, number, absl::StrCat("wordID ", word, " is outside 1..", h.words,
                                                " (W in the header)"));
  }
  if (count < 1) {
    return LineError(file, number, absl::StrCat("count ", count, " must be at least 1"));
  }
  data->docs[doc].word_counts.emplace_back(static_cast<int32_t>(word - 1), count);
  ++data->data_lines;
  return absl::OkStatus();
}

absl::StatusOr<DocwordData> ParseDocword(const std::string& path, const ReadOptions& options,
                                         ReadReport* report) {
  if (absl::EndsWith(path, ".gz") || absl::EndsWith(path, ".bz2")) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": compressed input is not read; unpack it first"));
  }
  ASSIGN_OR_RETURN(std::string text, ReadFileBytes(path, options.max_file_bytes));
  report->bytes += static_cast<int64_t>(text.size());
  DocwordData data;
  int64_t* header_values[] = {&data.header.documents, &data.header.words,
                              &data.header.nonzeros};
  int64_t lines = 0;
  RETURN_IF_ERROR(ForEachLine(text, [&](int64_t number, std::string_view line) {
    lines = number;
    if (number <= 3) {
      RETURN_IF_ERROR(ParseHeaderLine(path, number, line, number == 3 ? 0 : 1,
                                      header_values[number - 1]));
      // A data line "d w c\n" takes at least 6 bytes.
      const int64_t most_lines = static_cast<int64_t>(text.size()) / kMinDataLineBytes;
      if (number == 3 && data.header.nonzeros > most_lines) {
        return LineError(path, 3, absl::StrCat("header says NNZ = ", data.header.nonzeros,
                                               " data lines, but a file of ", text.size(),
                                               " bytes holds at most ", most_lines));
      }
      return absl::OkStatus();
    }
    return ParseDataLine(path, number, line, &data);
  }));
  if (lines < 3) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": has fewer than the three header lines D, W, NNZ"));
  }
  if (data.data_lines != data.header.nonzeros) {
    return LineError(path, 3, absl::StrCat("header says NNZ = ", data.header.nonzeros,
                                           " but the file has ", data.data_lines,
                                           " data lines"));
  }
  return data;
}

// Counts and reports documents 1..D that have no data line.
void ReportEmptyDocuments(const std::string& file, const std::vector<int64_t>& present,
                          int64_t documents, ReadReport* report) {
  int64_t expected = 1;
  for (size_t i = 0; i <= present.size(); ++i) {
    const int64_t next = i < present.size() ? present[i] : documents + 1;
    if (next > expected) {
      report->skipped_empty += next - expected;
      report->AddWarning(next - expected == 1
                             ? absl::StrCat(file, ": document ", expected,
                                            " has no words; skipped")
                             : absl::StrCat(file, ": documents ", expected, "..", next - 1,
                                            " have no words; skipped"));
    }
    expected = next + 1;
  }
}

}  // namespace

absl::StatusOr<std::string> UciVocabPathFor(const std::string& docword_path) {
  const fs::path p(docword_path);
  const std::string name = p.filename().string();
  if (!absl::StartsWith(name, "docword.")) {
    return absl::InvalidArgumentError(absl::StrCat(
        docword_path, ": cannot derive the UCI vocabulary file name (expected a file named "
                      "docword.X.txt); give the vocabulary file explicitly"));
  }
  return (p.parent_path() / ("vocab." + name.substr(std::string("docword.").size()))).string();
}

absl::Status ReadUciBagOfWords(const std::string& docword_path, const std::string& vocab_path,
                               const ReadOptions& options, RawCorpus* corpus) {
  ReadReport& report = corpus->report;
  ASSIGN_OR_RETURN(DocwordData data, ParseDocword(docword_path, options, &report));
  ASSIGN_OR_RETURN(std::vector<std::string> vocab,
                   ReadVocab(vocab_path, data.header.words, options, &report));
  report.files += 1;
  std::vector<int64_t> ids;
  ids.reserve(data.docs.size());
  int64_t expanded_bytes = 0;
  int64_t tokens = 0;
  // Both limits are checked from the declared counts, before any token is
  // expanded.
  for (const auto& [id, entries] : data.docs) {
    ids.push_back(id);
    for (const auto& [word, count] : entries.word_counts) {
      const int64_t per_token = static_cast<int64_t>(vocab[word].size()) + 1;
      if (count > (options.max_corpus_bytes - expanded_bytes) / per_token) {
        return absl::InvalidArgumentError(absl::StrCat(
            docword_path, ": the expanded documents exceed the corpus limit of ",
            options.max_corpus_bytes, " bytes"));
      }
      expanded_bytes += count * per_token;
      if (count > options.max_corpus_tokens - tokens) {
        return absl::InvalidArgumentError(absl::StrCat(
            docword_path, ": the counts add up to more than ", options.max_corpus_tokens,
            " tokens (an entry of document ", id, " has a count of ", count,
            "); that is the limit of the UCI reader (about 100 bytes of memory per token in "
            "training): raise it with --max-corpus-tokens if the counts are right and the "
            "memory is there"));
      }
      tokens += count;
    }
  }
  std::sort(ids.begin(), ids.end());
  ReportEmptyDocuments(docword_path, ids, data.header.documents, &report);
  const std::string file = fs::path(docword_path).filename().string();
  for (int64_t id : ids) {
    RawDocument doc;
    doc.name = absl::StrCat(file, "#", id);
    doc.pretokenized = true;
    for (const auto& [word, count] : data.docs[id].word_counts) {
      doc.words.insert(doc.words.end(), static_cast<size_t>(count), vocab[word]);
    }
    corpus->documents.push_back(std::move(doc));
    ++report.documents;
  }
  return absl::OkStatus();
}

}  // namespace pplda::lda

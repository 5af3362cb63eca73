#include "lda/vocabulary_file.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "base/atomic_file.h"
#include "base/status_macros.h"
#include "lda/text_file.h"

namespace pplda::lda {
namespace {

bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

}  // namespace

absl::StatusOr<Vocabulary> ReadVocabularyFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadUtf8File(path, kMaxVocabularyFileBytes, path));
  std::vector<std::string> terms;
  absl::flat_hash_map<std::string, int64_t> line_of;
  RETURN_IF_ERROR(ForEachLine(text, [&](int64_t number, std::string_view line) {
    if (line.empty()) return absl::OkStatus();  // blank lines are ignored
    for (char c : line) {
      if (IsAsciiSpace(c)) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ":", number, ": term ", LineExcerpt(line),
            " holds whitespace, so no token can ever match it (one term per line, nothing "
            "else)"));
      }
    }
    auto [it, inserted] = line_of.emplace(std::string(line), number);
    if (!inserted) {
      return absl::InvalidArgumentError(absl::StrCat(path, ":", number, ": term ",
                                                     LineExcerpt(line),
                                                     " already appears on line ", it->second));
    }
    terms.emplace_back(line);
    return absl::OkStatus();
  }));
  if (terms.empty()) return absl::InvalidArgumentError(path + ": the vocabulary is empty");
  absl::StatusOr<Vocabulary> v = Vocabulary::FromTerms(std::move(terms));
  if (!v.ok()) return absl::InvalidArgumentError(path + ": " + std::string(v.status().message()));
  return v;
}

absl::Status WriteVocabularyFile(const Vocabulary& vocabulary, const std::string& path) {
  std::string text;
  for (const std::string& t : vocabulary.terms()) {
    text += t;
    text += '\n';
  }
  return WriteFileAtomically(path, text);
}

}  // namespace pplda::lda

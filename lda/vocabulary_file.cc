#include "lda/vocabulary_file.h"

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "base/atomic_file.h"

namespace pplda::lda {

absl::StatusOr<Vocabulary> ReadVocabularyFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError("cannot read vocabulary file " + path);
  std::vector<std::string> terms;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) terms.push_back(line);
  }
  absl::StatusOr<Vocabulary> v = Vocabulary::FromTerms(std::move(terms));
  if (!v.ok()) return absl::InvalidArgumentError(path + ": " + std::string(v.status().message()));
  if (v->empty()) return absl::InvalidArgumentError(path + ": the vocabulary is empty");
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

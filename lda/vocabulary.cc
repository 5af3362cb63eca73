#include "lda/vocabulary.h"

#include "absl/strings/str_cat.h"

namespace pplda::lda {

absl::StatusOr<Vocabulary> Vocabulary::FromTerms(std::vector<std::string> terms) {
  Vocabulary v;
  v.terms_.reserve(terms.size());
  for (size_t i = 0; i < terms.size(); ++i) {
    if (terms[i].empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("vocabulary: term ", i, " is empty"));
    }
    auto [it, inserted] =
        v.index_.emplace(terms[i], static_cast<TermId>(i));
    if (!inserted) {
      return absl::InvalidArgumentError(
          absl::StrCat("vocabulary: term '", terms[i], "' appears twice (at ",
                       it->second, " and ", i, ")"));
    }
    v.terms_.push_back(std::move(terms[i]));
  }
  return v;
}

TermId Vocabulary::Add(std::string_view term) {
  auto [it, inserted] =
      index_.emplace(std::string(term), static_cast<TermId>(terms_.size()));
  if (inserted) terms_.emplace_back(term);
  return it->second;
}

std::optional<TermId> Vocabulary::Find(std::string_view term) const {
  // Debian's Abseil has its own string_view type (not std::string_view).
  auto it = index_.find(absl::string_view(term.data(), term.size()));
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

}  // namespace pplda::lda

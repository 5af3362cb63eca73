// An ordered list of distinct terms; a term's id is its position.
// Invariant: terms()[Find(t)] == t for every added term t; ids are dense
// in [0, size()).
#ifndef PPLDA_LDA_VOCABULARY_H_
#define PPLDA_LDA_VOCABULARY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"

namespace pplda::lda {

using TermId = int32_t;

class Vocabulary {
 public:
  Vocabulary() = default;
  // Fails (InvalidArgument, naming the term and both positions) on a
  // duplicate or empty term.
  static absl::StatusOr<Vocabulary> FromTerms(std::vector<std::string> terms);

  // Returns the id of `term`, adding it at the end if new.
  TermId Add(std::string_view term);
  std::optional<TermId> Find(std::string_view term) const;
  const std::string& term(TermId id) const { return terms_[id]; }
  const std::vector<std::string>& terms() const { return terms_; }
  int32_t size() const { return static_cast<int32_t>(terms_.size()); }
  bool empty() const { return terms_.empty(); }

 private:
  std::vector<std::string> terms_;
  absl::flat_hash_map<std::string, TermId> index_;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_VOCABULARY_H_

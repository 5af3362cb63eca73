// A capped list of human-readable warning lines, shared by the reader and
// preprocessing reports: the first kMaxReportWarnings lines are kept, and one
// closing line counts the rest ("... and N more warnings"). Not thread-safe.
#ifndef PPLDA_LDA_WARNING_LIST_H_
#define PPLDA_LDA_WARNING_LIST_H_

#include <cstdint>
#include <string>
#include <vector>

namespace pplda::lda {

inline constexpr int kMaxReportWarnings = 20;

// Appends `line` to *warnings, or counts it in *dropped once the cap is
// reached (keeping the closing line up to date).
void AddCappedWarning(std::vector<std::string>* warnings, int64_t* dropped, std::string line);

}  // namespace pplda::lda

#endif  // PPLDA_LDA_WARNING_LIST_H_

// Names a user gives that become one component of a path (party names in
// NAME.key and NAME.csv, run ids in runs/ID/, ...): each must stay inside
// its folder. A valid component is 1 to 255 bytes, is neither "." nor "..",
// and holds no '/', '\\', NUL or other control character (so it cannot
// climb out of, or hide in, the folder it is joined to).
// Thread-safe (pure function).
#ifndef PPLDA_BASE_PATH_COMPONENT_H_
#define PPLDA_BASE_PATH_COMPONENT_H_

#include <string_view>

#include "absl/status/status.h"

namespace pplda {

inline constexpr size_t kMaxPathComponentBytes = 255;

// OK, or InvalidArgument "<what> '<name>' <reason>" (e.g. what = "--party
// name"), the name escaped so that control characters print visibly.
absl::Status CheckPathComponent(std::string_view name, std::string_view what);

}  // namespace pplda

#endif  // PPLDA_BASE_PATH_COMPONENT_H_

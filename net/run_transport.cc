#include "net/run_transport.h"

#include "absl/strings/str_cat.h"

namespace pplda::net {

absl::Status CheckOutgoing(int party, int num_parties, int to, uint64_t round, size_t bytes,
                           size_t max_bytes) {
  if (to < 0 || to >= num_parties || to == party) {
    return absl::InvalidArgumentError(absl::StrCat("party ", party, " cannot send to party ", to,
                                                   " (peers are 0..", num_parties - 1,
                                                   ", excluding itself)"));
  }
  if (bytes > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat("message of ", bytes, " bytes for party ", to,
                                                     " in round ", round,
                                                     " exceeds the per-frame limit of ", max_bytes,
                                                     " bytes"));
  }
  return absl::OkStatus();
}

}  // namespace pplda::net

// UnusedTransport: a 3-party transport for PartySession tests whose steps
// must not reach the network: every Send and Receive fails with Internal
// ("UnusedTransport::..."), so a step that gets past its local checks fails
// at its first MPC message, recognisably.
#ifndef PPLDA_TESTS_PARTY_UNUSED_TRANSPORT_H_
#define PPLDA_TESTS_PARTY_UNUSED_TRANSPORT_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crypto/mpc/transport.h"

namespace pplda::party::testing {

class UnusedTransport : public crypto::PartyTransport {
 public:
  int party_id() const override { return 0; }
  int num_parties() const override { return 3; }
  absl::Status Send(int, uint64_t, std::vector<uint8_t>) override {
    return absl::InternalError("UnusedTransport::Send");
  }
  absl::StatusOr<std::vector<uint8_t>> Receive(int, uint64_t) override {
    return absl::InternalError("UnusedTransport::Receive");
  }
};

}  // namespace pplda::party::testing

#endif  // PPLDA_TESTS_PARTY_UNUSED_TRANSPORT_H_

// PartyTransport: how one compute party of the MPC engine talks to the
// others. The engine is written against this interface only, so the same
// protocol code runs over the in-process SimulatedNetwork (tests,
// benchmarks) and over gRPC streams between daemons (net/).
//
// Model: synchronous rounds. Every party steps through the same sequence of
// round numbers (1, 2, 3, ...), because every party runs the same protocol
// code on the same public parameters. In a round a party first Send()s its
// messages for that round (at most one per peer), then Receive()s the ones
// it expects. Payloads are opaque bytes (the engine sends encoded field
// vectors, see field_vector.h); each message carries its round number and
// sender, which the transport checks.
//
// Contract for implementations:
//  - Messages between an ordered pair of parties are delivered in order
//    (one stream per pair maps one to one onto a gRPC bidirectional stream).
//  - Receive(from, round) blocks until the next message from `from` arrives;
//    if that message is tagged with a different round, it returns
//    FailedPrecondition naming both rounds (a skipped or repeated message).
//  - A peer that fails or disconnects makes Receive return a non-OK status
//    (Aborted / Unavailable / DeadlineExceeded) instead of blocking forever.
//  - Send to oneself or to an id outside [0, n) is InvalidArgument.
// Thread-safety: one PartyTransport belongs to one party's protocol thread;
// implementations need not support concurrent calls on the same object.
#ifndef PPLDA_CRYPTO_MPC_TRANSPORT_H_
#define PPLDA_CRYPTO_MPC_TRANSPORT_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pplda::crypto {

class PartyTransport {
 public:
  virtual ~PartyTransport() = default;

  // This party's id in [0, num_parties()).
  virtual int party_id() const = 0;
  virtual int num_parties() const = 0;

  // Queues `payload` for party `to` as this party's message of `round`.
  virtual absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) = 0;
  // Blocks until the message of `round` from party `from` is available.
  virtual absl::StatusOr<std::vector<uint8_t>> Receive(int from, uint64_t round) = 0;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_TRANSPORT_H_

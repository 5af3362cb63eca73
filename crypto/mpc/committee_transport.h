// CommitteeTransport: the committee's own view of a transport that links
// the committee (endpoints 0..n-1) and its clients (endpoints n and up),
// as CommitteeLinks (committee_links.h) uses it: a PartyTransport of the n
// members only, for the MPC engine. Messages pass through unchanged.
// Sharing one transport is sound because the two never use the same
// ordered pair: the engine speaks member to member, the committee links
// member to client, so each pair's rounds stay in order.
// Errors: Send and Receive to an endpoint outside [0, n) are
// InvalidArgument; otherwise the underlying transport's.
// Thread-safety: as the underlying transport (one protocol thread).
#ifndef PPLDA_CRYPTO_MPC_COMMITTEE_TRANSPORT_H_
#define PPLDA_CRYPTO_MPC_COMMITTEE_TRANSPORT_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "crypto/mpc/transport.h"

namespace pplda::crypto {

class CommitteeTransport final : public PartyTransport {
 public:
  // `links` must outlive this view; its party id must be below
  // `committee_size` (a member's endpoint).
  CommitteeTransport(PartyTransport& links, int committee_size)
      : links_(links), committee_size_(committee_size) {}

  int party_id() const override { return links_.party_id(); }
  int num_parties() const override { return committee_size_; }

  absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) override {
    if (absl::Status s = CheckMember(to); !s.ok()) return s;
    return links_.Send(to, round, std::move(payload));
  }
  absl::StatusOr<std::vector<uint8_t>> Receive(int from, uint64_t round) override {
    if (absl::Status s = CheckMember(from); !s.ok()) return s;
    return links_.Receive(from, round);
  }

 private:
  absl::Status CheckMember(int endpoint) const {
    if (endpoint >= 0 && endpoint < committee_size_) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat("committee transport: endpoint ", endpoint,
                                                   " is not one of the ", committee_size_,
                                                   " committee members"));
  }
  PartyTransport& links_;
  int committee_size_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_COMMITTEE_TRANSPORT_H_

// CommitteeLinks: how a committee of n compute parties (the MPC engine's
// parties 0..n-1) takes inputs from, and reveals values to, clients outside
// it (data holders), over one PartyTransport of n + h endpoints: endpoint i
// < n is committee member i (MPC party i), endpoint n + c is client c.
//
// Semi-honest, as the engine (mpc_engine.h), against a coalition of up to t
// members, t < n/2, with or without clients:
//  - A client's input reaches the committee as Shamir shares of degree t
//    (shamir.h), one message to each member: any t members hold uniform
//    shares, independent of the input.
//  - A value revealed to a client reaches it as every member's share of
//    it, sent to that client only; the client interpolates from the first
//    t + 1 and checks the others lie on the same polynomial
//    (InvalidArgument naming the member otherwise). Only the client learns
//    the value.
//  - Replicated boolean shares (three members, replicated_ring.h): member i
//    sends its own component i; the client XORs the three.
//  - Bytes a client sends the committee (its selection ciphertexts) go to
//    every member, the same bytes, over the client's own link to each; a
//    client's bytes to one member (SendToMember: that member's share) go
//    to it alone; a member's bytes to a client (public values) go to that
//    client only.
// Each call is one round, numbered by the caller: the client and the
// members pass the same `round`, and rounds of these links are independent
// of the engine's (another transport).
// Errors: InvalidArgument for a client or member out of range, a call on
// the wrong side (a member's call on a client's links, or the reverse),
// sizes that do not match and messages that do not decode; transport errors
// pass through.
// Thread-safety: one CommitteeLinks per endpoint's protocol thread.
#ifndef PPLDA_CRYPTO_MPC_COMMITTEE_LINKS_H_
#define PPLDA_CRYPTO_MPC_COMMITTEE_LINKS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/arith/field_vector.h"
#include "crypto/mpc/mpc_shares.h"
#include "crypto/mpc/replicated_ring.h"
#include "crypto/mpc/shamir.h"
#include "crypto/mpc/transport.h"
#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

class CommitteeLinks {
 public:
  // `links` connects the committee (the first `scheme.num_parties()`
  // endpoints) and at least one client; it must outlive this object.
  static absl::StatusOr<CommitteeLinks> Create(PartyTransport& links, const ShamirScheme& scheme);

  int committee_size() const { return scheme_.num_parties(); }
  int num_clients() const { return links_->num_parties() - committee_size(); }
  bool is_client() const { return links_->party_id() >= committee_size(); }
  // This endpoint's client index (is_client()) or member index.
  int index() const;

  // Client: Shamir-shares `values` at degree t and sends member j its shares.
  absl::Status SendInput(uint64_t round, absl::Span<const FieldElement> values, SecureRng& rng);
  // Member: this member's shares of the `count` values client `client` sent.
  absl::StatusOr<Shares> ReceiveInput(int client, uint64_t round, size_t count);

  // Member: this member's shares of `values` to client `client` only.
  absl::Status RevealTo(int client, uint64_t round, const Shares& values);
  // Client: the `count` values revealed to it, from every member's shares.
  absl::StatusOr<FieldVector> ReceiveRevealed(uint64_t round, size_t count);

  // Member: this member's part of `count` replicated bits (its ring's
  // PartForClient: the XOR of every member's part is the bits), bit e at
  // bit e % 64 of words[e / 64], to client `client` only.
  absl::Status RevealBitsTo(int client, uint64_t round, absl::Span<const uint64_t> words,
                            size_t count);
  // Client: the `count` bits revealed to it, the XOR of every member's part.
  absl::StatusOr<std::vector<bool>> ReceiveRevealedBits(uint64_t round, size_t count);

  // Client: the same `bytes` to every member.
  absl::Status SendToCommittee(uint64_t round, const std::vector<uint8_t>& bytes);
  // Client: `bytes` to member `member` only (its own share of something).
  absl::Status SendToMember(int member, uint64_t round, std::vector<uint8_t> bytes);
  // Member: what client `client` sent the committee, or this member alone,
  // in `round`.
  absl::StatusOr<std::vector<uint8_t>> ReceiveFromClient(int client, uint64_t round);
  // Member: `bytes` to client `client` only.
  absl::Status SendToClient(int client, uint64_t round, std::vector<uint8_t> bytes);
  // Client: what member `member` sent it in `round`.
  absl::StatusOr<std::vector<uint8_t>> ReceiveFromMember(int member, uint64_t round);

 private:
  CommitteeLinks(PartyTransport& links, const ShamirScheme& scheme)
      : links_(&links), scheme_(scheme) {}
  absl::Status RequireClient(const char* what) const;
  absl::Status RequireMember(const char* what) const;
  // The endpoint of client `client`; InvalidArgument when out of range.
  absl::StatusOr<int> ClientEndpoint(int client, const char* what) const;

  PartyTransport* links_;
  ShamirScheme scheme_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_COMMITTEE_LINKS_H_

#include "crypto/mpc/committee_links.h"

#include <sodium.h>

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace pplda::crypto {
namespace {

// Bit-sliced words of `count` bits, as little-endian bytes.
std::vector<uint8_t> EncodeWords(absl::Span<const uint64_t> words, size_t count) {
  const size_t needed = (count + 63) / 64;
  std::vector<uint8_t> out(needed * 8);
  for (size_t w = 0; w < needed; ++w) {
    for (int b = 0; b < 8; ++b) out[w * 8 + b] = static_cast<uint8_t>(words[w] >> (8 * b));
  }
  return out;
}

absl::StatusOr<std::vector<uint64_t>> DecodeWords(const std::vector<uint8_t>& bytes, size_t count,
                                                  int member) {
  const size_t needed = (count + 63) / 64;
  if (bytes.size() != needed * 8) {
    return absl::InvalidArgumentError(absl::StrCat("revealed bits from member ", member, ": ",
                                                   bytes.size(), " bytes, expected ", needed * 8,
                                                   " for ", count, " bits"));
  }
  std::vector<uint64_t> words(needed, 0);
  for (size_t w = 0; w < needed; ++w) {
    for (int b = 0; b < 8; ++b) words[w] |= uint64_t{bytes[w * 8 + b]} << (8 * b);
  }
  return words;
}

}  // namespace

absl::StatusOr<CommitteeLinks> CommitteeLinks::Create(PartyTransport& links,
                                                      const ShamirScheme& scheme) {
  if (links.num_parties() <= scheme.num_parties()) {
    return absl::InvalidArgumentError(
        absl::StrCat("committee links connect ", links.num_parties(), " endpoints: a committee of ",
                     scheme.num_parties(), " needs at least one client more"));
  }
  return CommitteeLinks(links, scheme);
}

int CommitteeLinks::index() const {
  const int me = links_->party_id();
  return is_client() ? me - committee_size() : me;
}

absl::Status CommitteeLinks::RequireClient(const char* what) const {
  if (is_client()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, ": member ", index(), " called a client's side of the committee links"));
}

absl::Status CommitteeLinks::RequireMember(const char* what) const {
  if (!is_client()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, ": client ", index(), " called a member's side of the committee links"));
}

absl::StatusOr<int> CommitteeLinks::ClientEndpoint(int client, const char* what) const {
  if (client < 0 || client >= num_clients()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": client ", client, " is outside [0, ", num_clients(), ")"));
  }
  return committee_size() + client;
}

absl::Status CommitteeLinks::SendInput(uint64_t round, absl::Span<const FieldElement> values,
                                       SecureRng& rng) {
  RETURN_IF_ERROR(RequireClient("SendInput"));
  std::vector<FieldVector> shares = scheme_.Share(values, scheme_.threshold(), rng);
  for (int j = 0; j < committee_size(); ++j) {
    std::vector<uint8_t> payload;
    AppendEncoded(shares[j], payload);
    // The shares are the client's secrets until they leave: wipe this copy.
    sodium_memzero(shares[j].data(), shares[j].size() * sizeof(FieldElement));
    RETURN_IF_ERROR(links_->Send(j, round, std::move(payload)));
  }
  return absl::OkStatus();
}

absl::StatusOr<Shares> CommitteeLinks::ReceiveInput(int client, uint64_t round, size_t count) {
  RETURN_IF_ERROR(RequireMember("ReceiveInput"));
  ASSIGN_OR_RETURN(const int from, ClientEndpoint(client, "ReceiveInput"));
  ASSIGN_OR_RETURN(std::vector<uint8_t> payload, links_->Receive(from, round));
  ASSIGN_OR_RETURN(FieldVector values, DecodeFieldVector(payload, count,
                                                         absl::StrCat("input of round ", round,
                                                                      " from client ", client)));
  return Shares(std::move(values));
}

absl::Status CommitteeLinks::RevealTo(int client, uint64_t round, const Shares& values) {
  RETURN_IF_ERROR(RequireMember("RevealTo"));
  ASSIGN_OR_RETURN(const int to, ClientEndpoint(client, "RevealTo"));
  std::vector<uint8_t> payload;
  AppendEncoded(values.span(), payload);
  return links_->Send(to, round, std::move(payload));
}

absl::StatusOr<FieldVector> CommitteeLinks::ReceiveRevealed(uint64_t round, size_t count) {
  RETURN_IF_ERROR(RequireClient("ReceiveRevealed"));
  std::vector<FieldVector> shares(committee_size());
  for (int j = 0; j < committee_size(); ++j) {
    ASSIGN_OR_RETURN(std::vector<uint8_t> payload, links_->Receive(j, round));
    ASSIGN_OR_RETURN(shares[j], DecodeFieldVector(payload, count,
                                                  absl::StrCat("revealed shares of round ", round,
                                                               " from member ", j)));
  }
  return scheme_.Reconstruct(shares, scheme_.threshold());
}

absl::Status CommitteeLinks::RevealBitsTo(int client, uint64_t round,
                                          absl::Span<const uint64_t> words, size_t count) {
  RETURN_IF_ERROR(RequireMember("RevealBitsTo"));
  ASSIGN_OR_RETURN(const int to, ClientEndpoint(client, "RevealBitsTo"));
  if (words.size() * 64 < count) {
    return absl::InvalidArgumentError(
        absl::StrCat("RevealBitsTo: ", words.size(), " words hold fewer than ", count, " bits"));
  }
  return links_->Send(to, round, EncodeWords(words, count));
}

absl::StatusOr<std::vector<bool>> CommitteeLinks::ReceiveRevealedBits(uint64_t round,
                                                                      size_t count) {
  RETURN_IF_ERROR(RequireClient("ReceiveRevealedBits"));
  std::vector<uint64_t> sum((count + 63) / 64, 0);
  for (int j = 0; j < committee_size(); ++j) {
    ASSIGN_OR_RETURN(std::vector<uint8_t> payload, links_->Receive(j, round));
    ASSIGN_OR_RETURN(const std::vector<uint64_t> words, DecodeWords(payload, count, j));
    for (size_t w = 0; w < sum.size(); ++w) sum[w] ^= words[w];
  }
  std::vector<bool> out(count);
  for (size_t e = 0; e < count; ++e) out[e] = (sum[e / 64] >> (e % 64)) & 1;
  return out;
}

absl::Status CommitteeLinks::SendToCommittee(uint64_t round, const std::vector<uint8_t>& bytes) {
  RETURN_IF_ERROR(RequireClient("SendToCommittee"));
  for (int j = 0; j < committee_size(); ++j) RETURN_IF_ERROR(links_->Send(j, round, bytes));
  return absl::OkStatus();
}

absl::Status CommitteeLinks::SendToMember(int member, uint64_t round, std::vector<uint8_t> bytes) {
  RETURN_IF_ERROR(RequireClient("SendToMember"));
  if (member < 0 || member >= committee_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("SendToMember: member ", member, " is outside [0, ", committee_size(), ")"));
  }
  return links_->Send(member, round, std::move(bytes));
}

absl::StatusOr<std::vector<uint8_t>> CommitteeLinks::ReceiveFromClient(int client, uint64_t round) {
  RETURN_IF_ERROR(RequireMember("ReceiveFromClient"));
  ASSIGN_OR_RETURN(const int from, ClientEndpoint(client, "ReceiveFromClient"));
  return links_->Receive(from, round);
}

absl::Status CommitteeLinks::SendToClient(int client, uint64_t round, std::vector<uint8_t> bytes) {
  RETURN_IF_ERROR(RequireMember("SendToClient"));
  ASSIGN_OR_RETURN(const int to, ClientEndpoint(client, "SendToClient"));
  return links_->Send(to, round, std::move(bytes));
}

absl::StatusOr<std::vector<uint8_t>> CommitteeLinks::ReceiveFromMember(int member, uint64_t round) {
  RETURN_IF_ERROR(RequireClient("ReceiveFromMember"));
  if (member < 0 || member >= committee_size()) {
    return absl::InvalidArgumentError(absl::StrCat("ReceiveFromMember: member ", member,
                                                   " is outside [0, ", committee_size(), ")"));
  }
  return links_->Receive(member, round);
}

}  // namespace pplda::crypto

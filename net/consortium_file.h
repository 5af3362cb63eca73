// Consortium: the validated contents of a consortium file, the list of
// participants every daemon pins (DESIGN.md section 3, "Transport").
//
//   [consortium]
//   name = "sotu-demo"
//   ca_fingerprint = "3f9a...64 hex digits"     # SHA-256 of the CA cert's DER
//
//   [[participant]]
//   name = "coordinator"                       # [a-z0-9-]+, unique
//   role = "coordinator"                       # coordinator | party | helper
//   address = "127.0.0.1:7000"                 # host:port ([v6]:port allowed)
//   cert_fingerprint = "..."                   # SHA-256 of its cert's DER, unique
//   box_public_key = "..."                     # compute parties: X25519 public key
//                                              # (64 hex), seals relayed MPC frames
//   relay = true                               # compute parties: relay mode (optional)
//
// Relay mode (proto/relay_service.proto): a participant with relay = true
// never listens; it dials the coordinator, which forwards its control calls
// and its MPC frames. Such a participant needs no address (one given is
// checked but unused). When any compute party is in relay mode
// (relays_mpc()), all MPC traffic of every run goes through the
// coordinator, sealed end to end with each compute party's box key, so every
// compute party must then pin a box_public_key (the keys are bound to the
// participants by the same file that pins their certificates). The
// coordinator cannot be in relay mode and has no box key.
// Rules: exactly one coordinator; at least 3 compute parties (role party or
// helper, the MPC needs an honest majority of n >= 3) and at most 64.
// Fingerprints are 64 hex digits, colons allowed ("AB:CD:..."), stored in
// lowercase without colons (the form CertificateFingerprint returns).
// Unknown keys and tables are refused (a typo must not silently drop a
// setting).
//
// Errors: a file that cannot be read is NotFound; everything else is
// InvalidArgument naming the file and the key, with participants indexed
// from 0 in file order, e.g. "consortium.toml: participant[2].address:
// missing" or "consortium.toml:7:3: <TOML syntax error>".
// Compute parties get party indices 0..n-1 in file order (the MPC party ids).
// Immutable after Load/Parse; safe to share between threads.
#ifndef PPLDA_NET_CONSORTIUM_FILE_H_
#define PPLDA_NET_CONSORTIUM_FILE_H_

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace pplda::net {

enum class ParticipantRole { kCoordinator, kParty, kHelper };

// "coordinator", "party" or "helper".
std::string_view RoleName(ParticipantRole role);

struct Participant {
  std::string name;
  ParticipantRole role = ParticipantRole::kParty;
  std::string address;           // host:port; empty for a relay participant without one
  std::string cert_fingerprint;  // 64 lowercase hex digits
  std::string box_public_key;    // 64 lowercase hex digits, or empty
  bool relay = false;            // reached through the coordinator (relay mode)
  // MPC party id in [0, num_compute_parties()) for parties and helpers; -1
  // for the coordinator.
  int party_index = -1;

  bool is_compute_party() const { return role != ParticipantRole::kCoordinator; }
};

class Consortium {
 public:
  static constexpr int kMinComputeParties = 3;
  static constexpr int kMaxComputeParties = 64;

  // Reads and validates a consortium file.
  static absl::StatusOr<Consortium> Load(const std::filesystem::path& path);
  // Validates TOML text; `source_name` names it in error messages.
  static absl::StatusOr<Consortium> Parse(std::string_view toml_text,
                                          std::string_view source_name);

  const std::string& name() const { return name_; }
  const std::string& ca_fingerprint() const { return ca_fingerprint_; }
  // Every participant, in file order.
  const std::vector<Participant>& participants() const { return participants_; }
  const Participant& coordinator() const;
  // Parties and helpers in file order; element i has party_index i.
  std::vector<Participant> compute_parties() const;
  int num_compute_parties() const { return num_compute_parties_; }
  // True when some compute party is in relay mode: every run's MPC traffic
  // is then relayed (sealed) through the coordinator.
  bool relays_mpc() const;

  // NotFound naming the consortium when absent.
  absl::StatusOr<Participant> FindByName(std::string_view name) const;
  // `fingerprint` in any accepted form (case, colons); NotFound when absent.
  absl::StatusOr<Participant> FindByFingerprint(std::string_view fingerprint) const;
  // The compute party with this party index; NotFound outside [0, n).
  absl::StatusOr<Participant> FindByPartyIndex(int party_index) const;

 private:
  Consortium() = default;

  std::string name_;
  std::string ca_fingerprint_;
  std::vector<Participant> participants_;
  int coordinator_ = -1;  // index into participants_
  int num_compute_parties_ = 0;
};

// Canonical form of a SHA-256 fingerprint: 64 hex digits, optionally
// colon-separated pairs, any case -> 64 lowercase hex digits.
// InvalidArgument otherwise.
absl::StatusOr<std::string> NormalizeFingerprint(std::string_view text);

}  // namespace pplda::net

#endif  // PPLDA_NET_CONSORTIUM_FILE_H_

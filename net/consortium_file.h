// Consortium: the validated contents of a consortium file, the list of
// participants every daemon pins (DESIGN.md section 3, "Transport").
//
//   [consortium]
//   name = "sotu-demo"
//   ca_fingerprint = "3f9a...64 hex digits"     # SHA-256 of the CA cert's DER
//
//   [[participant]]
//   name = "coordinator"                       # [a-z0-9-]+, unique
//   role = "coordinator"                       # coordinator | compute | data | both
//   address = "127.0.0.1:7000"                 # host:port ([v6]:port allowed)
//   cert_fingerprint = "..."                   # SHA-256 of its cert's DER, unique
//   box_public_key = "..."                     # compute parties: X25519 public key
//                                              # (64 hex), seals relayed MPC frames
//   relay = true                               # relay mode (optional)
//
// Roles: "compute" holds a key share and runs the MPC, with or without
// documents of its own (a helper); "data" holds documents and no key share;
// "both" (the usual member) is a compute party that holds documents. The
// compute parties (compute and both) are the committee. "party" is read as
// "both" and "helper" as "compute" (their earlier names).
//
// A run's owners are every participant but the coordinator, in owner
// order: the committee (party indices 0..n-1), then the data holders
// (owner index n + data index); each run links them all (the committee's
// MPC among the members, the committee links between members and holders).
// Relay mode (proto/relay_service.proto): a participant with relay = true
// never listens; it dials the coordinator, which forwards its control calls
// and its run's frames. Such a participant needs no address (one given is
// checked but unused). When any owner is in relay mode (relays_mpc()),
// every run's frames go through the coordinator, sealed end to end with
// each owner's box key, so every owner must then pin a box_public_key (the
// keys are bound to the participants by the same file that pins their
// certificates). The coordinator cannot be in relay mode and has no box
// key.
// Rules (each refusal names the participants at fault): exactly one
// coordinator; a committee of an odd number of compute parties from 3 to 63
// (the MPC's honest majority, t = (n - 1) / 2, is tightest for odd n); at
// least one participant that holds documents (data or both).
// Fingerprints are 64 hex digits, colons allowed ("AB:CD:..."), stored in
// lowercase without colons (the form CertificateFingerprint returns).
// Unknown keys and tables are refused (a typo must not silently drop a
// setting).
//
// Errors: a file that cannot be read is NotFound; everything else is
// InvalidArgument naming the file and the key, with participants indexed
// from 0 in file order, e.g. "consortium.toml: participant[2].address:
// missing" or "consortium.toml:7:3: <TOML syntax error>".
// Compute parties get party indices 0..n-1 in file order (the MPC party ids);
// data holders get data indices 0..h-1 in file order.
// Immutable after Load/Parse; safe to share between threads.
#ifndef PPLDA_NET_CONSORTIUM_FILE_H_
#define PPLDA_NET_CONSORTIUM_FILE_H_

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace pplda::net {

enum class ParticipantRole { kCoordinator, kCompute, kData, kBoth };

// "coordinator", "compute", "data" or "both".
std::string_view RoleName(ParticipantRole role);

struct Participant {
  std::string name;
  ParticipantRole role = ParticipantRole::kBoth;
  std::string address;           // host:port; empty for a relay participant without one
  std::string cert_fingerprint;  // 64 lowercase hex digits
  std::string box_public_key;    // 64 lowercase hex digits, or empty
  bool relay = false;            // reached through the coordinator (relay mode)
  // MPC party id in [0, num_compute_parties()) for compute parties; -1
  // otherwise.
  int party_index = -1;
  // Index in [0, num_data_holders()) for data holders (role data); -1
  // otherwise.
  int data_index = -1;
  // Index in the run's owner order (above); -1 for the coordinator.
  int owner_index = -1;

  bool is_compute_party() const {
    return role == ParticipantRole::kCompute || role == ParticipantRole::kBoth;
  }
  bool is_data_holder() const { return role == ParticipantRole::kData; }
  // Every participant but the coordinator: it takes part in the runs.
  bool is_owner() const { return role != ParticipantRole::kCoordinator; }
  // Roles data and both: the participant brings documents to the runs.
  bool holds_documents() const {
    return role == ParticipantRole::kData || role == ParticipantRole::kBoth;
  }
};

class Consortium {
 public:
  static constexpr int kMinComputeParties = 3;
  static constexpr int kMaxComputeParties = 63;

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
  // The committee in file order; element i has party_index i.
  std::vector<Participant> compute_parties() const;
  int num_compute_parties() const { return num_compute_parties_; }
  // Role data, in file order; element i has data_index i.
  std::vector<Participant> data_holders() const;
  int num_data_holders() const { return num_data_holders_; }
  // The committee then the data holders: element i has owner_index i.
  std::vector<Participant> owners() const;
  int num_owners() const { return num_compute_parties_ + num_data_holders_; }
  // True when some owner is in relay mode: every run's frames are then
  // relayed (sealed) through the coordinator.
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
  int num_data_holders_ = 0;
};

// Canonical form of a SHA-256 fingerprint: 64 hex digits, optionally
// colon-separated pairs, any case -> 64 lowercase hex digits.
// InvalidArgument otherwise.
absl::StatusOr<std::string> NormalizeFingerprint(std::string_view text);

}  // namespace pplda::net

#endif  // PPLDA_NET_CONSORTIUM_FILE_H_

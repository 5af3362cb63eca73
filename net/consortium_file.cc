#include "net/consortium_file.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "toml++/toml.h"

namespace pplda::net {
namespace {

constexpr absl::string_view kConsortiumKeys[] = {"name", "ca_fingerprint"};
constexpr absl::string_view kParticipantKeys[] = {"name", "role", "address",
                                                 "cert_fingerprint", "box_public_key", "relay"};

// Errors name the file and the key: "<file>: <key>: <what>".
class ErrorContext {
 public:
  explicit ErrorContext(std::string_view source) : source_(source) {}
  absl::Status Error(absl::string_view key, absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(source_, ": ", key, ": ", what));
  }

 private:
  std::string source_;
};

bool ValidName(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

// host:port, host a DNS name or IPv4 address, or [IPv6]:port.
absl::Status ValidateAddress(absl::string_view address) {
  const size_t colon = address.rfind(':');
  if (colon == absl::string_view::npos) return absl::InvalidArgumentError("expected host:port");
  absl::string_view host = address.substr(0, colon);
  const absl::string_view port_text = address.substr(colon + 1);
  uint32_t port = 0;
  if (port_text.empty() || !std::all_of(port_text.begin(), port_text.end(), ::isdigit) ||
      !absl::SimpleAtoi(port_text, &port) || port == 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("port \"", port_text, "\" is not a number in 1..65535"));
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
    const bool ok = !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
      return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
    });
    if (!ok) return absl::InvalidArgumentError(absl::StrCat("bad IPv6 host \"", host, "\""));
    return absl::OkStatus();
  }
  const bool ok = !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
  });
  if (!ok) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad host \"", host, "\" (expected host:port or [ipv6]:port)"));
  }
  return absl::OkStatus();
}

absl::Status CheckKeys(const toml::table& table, absl::Span<const absl::string_view> allowed,
                       absl::string_view prefix, const ErrorContext& ctx) {
  for (const auto& [key, node] : table) {
    const absl::string_view name(key.str().data(), key.str().size());
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      return ctx.Error(absl::StrCat(prefix, name),
                       absl::StrCat("unknown key (allowed: ", absl::StrJoin(allowed, ", "), ")"));
    }
  }
  return absl::OkStatus();
}

// The string at table[key]: missing, wrong type and empty are errors.
absl::StatusOr<std::string> RequiredString(const toml::table& table, std::string_view key,
                                           absl::string_view full_key, const ErrorContext& ctx) {
  const toml::node* node = table.get(key);
  if (node == nullptr) return ctx.Error(full_key, "missing");
  if (!node->is_string()) return ctx.Error(full_key, "must be a string");
  std::string value = node->as_string()->get();  // NOLINT: a copy
  if (value.empty()) return ctx.Error(full_key, "empty");
  return value;
}

absl::StatusOr<ParticipantRole> ParseRole(absl::string_view text) {
  if (text == "coordinator") return ParticipantRole::kCoordinator;
  if (text == "compute" || text == "helper") return ParticipantRole::kCompute;
  if (text == "data") return ParticipantRole::kData;
  if (text == "both" || text == "party") return ParticipantRole::kBoth;
  return absl::InvalidArgumentError(
      absl::StrCat("\"", text, "\" is not a role (coordinator, compute, data or both)"));
}

// The names of `participants` that match `which`, quoted, comma-separated.
template <typename Which>
std::string NamesOf(const std::vector<Participant>& participants, Which which) {
  std::vector<std::string> names;
  for (const Participant& p : participants) {
    if (which(p)) names.push_back(absl::StrCat("\"", p.name, "\""));
  }
  return names.empty() ? "none" : absl::StrJoin(names, ", ");
}

// The committee's size and the presence of documents (Consortium's rules).
absl::Status CheckRoles(const std::vector<Participant>& participants, const ErrorContext& ctx) {
  const auto compute = [](const Participant& p) { return p.is_compute_party(); };
  const int n = static_cast<int>(std::count_if(participants.begin(), participants.end(), compute));
  if (n < Consortium::kMinComputeParties || n > Consortium::kMaxComputeParties || n % 2 == 0) {
    return ctx.Error(
        "participant",
        absl::StrCat("a committee of ", n,
                     " compute parties (role compute or both: ", NamesOf(participants, compute),
                     "); the MPC needs an odd number from ", Consortium::kMinComputeParties, " to ",
                     Consortium::kMaxComputeParties, " (3 or 5 serve any number of data holders)"));
  }
  const auto documents = [](const Participant& p) { return p.holds_documents(); };
  if (std::none_of(participants.begin(), participants.end(), documents)) {
    return ctx.Error("participant",
                     absl::StrCat("no participant holds documents (role data or both); the "
                                  "compute parties ",
                                  NamesOf(participants, compute), " have none to train on"));
  }
  return absl::OkStatus();
}

}  // namespace

std::string_view RoleName(ParticipantRole role) {
  switch (role) {
    case ParticipantRole::kCoordinator:
      return "coordinator";
    case ParticipantRole::kCompute:
      return "compute";
    case ParticipantRole::kData:
      return "data";
    case ParticipantRole::kBoth:
      return "both";
  }
  return "unknown";
}

absl::StatusOr<std::string> NormalizeFingerprint(std::string_view text) {
  std::string hex;
  hex.reserve(64);
  const bool colons = text.find(':') != std::string_view::npos;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (colons && i % 3 == 2) {
      if (c != ':') break;
      continue;
    }
    if (!std::isxdigit(static_cast<unsigned char>(c))) break;
    hex.push_back(absl::ascii_tolower(c));
  }
  const size_t expected_length = colons ? 64 + 31 : 64;
  if (hex.size() != 64 || text.size() != expected_length) {
    return absl::InvalidArgumentError(
        "not a SHA-256 fingerprint (64 hex digits, optionally colon-separated)");
  }
  return hex;
}

absl::StatusOr<Consortium> Consortium::Load(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(absl::StrCat(path.string(), ": cannot open consortium file"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    return absl::NotFoundError(absl::StrCat(path.string(), ": cannot read consortium file"));
  }
  return Parse(text.str(), path.string());
}

absl::StatusOr<Consortium> Consortium::Parse(std::string_view toml_text,
                                             std::string_view source_name) {
  const ErrorContext ctx(source_name);
  const std::string source(source_name);
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& e) {
    return absl::InvalidArgumentError(absl::StrCat(source, ":", e.source().begin.line,
                                                   ":", e.source().begin.column, ": ",
                                                   std::string(e.description())));
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(source, ": ", e.what()));
  }

  for (const auto& [key, node] : root) {
    if (key.str() != "consortium" && key.str() != "participant") {
      return ctx.Error(std::string(key.str()), "unknown table (allowed: [consortium], [[participant]])");
    }
  }

  Consortium out;
  const toml::node* consortium_node = root.get("consortium");
  if (consortium_node == nullptr) return ctx.Error("consortium", "missing ([consortium] table)");
  const toml::table* consortium = consortium_node->as_table();
  if (consortium == nullptr) return ctx.Error("consortium", "must be a table");
  RETURN_IF_ERROR(CheckKeys(*consortium, kConsortiumKeys, "consortium.", ctx));
  ASSIGN_OR_RETURN(out.name_, RequiredString(*consortium, "name", "consortium.name", ctx));
  ASSIGN_OR_RETURN(const std::string ca,
                   RequiredString(*consortium, "ca_fingerprint", "consortium.ca_fingerprint", ctx));
  absl::StatusOr<std::string> ca_fingerprint = NormalizeFingerprint(ca);
  if (!ca_fingerprint.ok()) {
    return ctx.Error("consortium.ca_fingerprint", ca_fingerprint.status().message());
  }
  out.ca_fingerprint_ = *std::move(ca_fingerprint);

  const toml::node* participants_node = root.get("participant");
  if (participants_node == nullptr) {
    return ctx.Error("participant", "missing (one [[participant]] table per participant)");
  }
  const toml::array* participants = participants_node->as_array();
  if (participants == nullptr) {
    return ctx.Error("participant", "must be an array of tables ([[participant]])");
  }
  std::set<std::string> names, fingerprints, boxes;
  for (size_t i = 0; i < participants->size(); ++i) {
    const std::string prefix = absl::StrCat("participant[", i, "].");
    const toml::table* table = participants->get(i)->as_table();
    if (table == nullptr) {
      return ctx.Error(absl::StrCat("participant[", i, "]"), "must be a table");
    }
    RETURN_IF_ERROR(CheckKeys(*table, kParticipantKeys, prefix, ctx));
    Participant p;
    ASSIGN_OR_RETURN(p.name, RequiredString(*table, "name", prefix + "name", ctx));
    if (!ValidName(p.name)) {
      return ctx.Error(prefix + "name",
                       absl::StrCat("\"", p.name, "\" must match [a-z0-9-]+"));
    }
    if (!names.insert(p.name).second) {
      return ctx.Error(prefix + "name",
                       absl::StrCat("\"", p.name, "\" is used by an earlier participant"));
    }
    ASSIGN_OR_RETURN(const std::string role, RequiredString(*table, "role", prefix + "role", ctx));
    absl::StatusOr<ParticipantRole> parsed_role = ParseRole(role);
    if (!parsed_role.ok()) return ctx.Error(prefix + "role", parsed_role.status().message());
    p.role = *parsed_role;
    if (const toml::node* relay = table->get("relay"); relay != nullptr) {
      if (!relay->is_boolean()) return ctx.Error(prefix + "relay", "must be true or false");
      p.relay = relay->as_boolean()->get();
      if (p.relay && p.role == ParticipantRole::kCoordinator) {
        return ctx.Error(prefix + "relay", "the coordinator cannot be in relay mode (it relays)");
      }
    }
    if (!p.relay || table->get("address") != nullptr) {
      ASSIGN_OR_RETURN(p.address, RequiredString(*table, "address", prefix + "address", ctx));
      if (absl::Status s = ValidateAddress(p.address); !s.ok()) {
        return ctx.Error(prefix + "address", absl::StrCat("\"", p.address, "\": ", s.message()));
      }
    }
    if (table->get("box_public_key") != nullptr) {
      if (p.role == ParticipantRole::kCoordinator) {
        return ctx.Error(prefix + "box_public_key",
                         "the coordinator has no box key (it never opens MPC frames)");
      }
      ASSIGN_OR_RETURN(const std::string box,
                       RequiredString(*table, "box_public_key", prefix + "box_public_key", ctx));
      const bool hex = box.size() == 64 && std::all_of(box.begin(), box.end(), [](char c) {
                         return std::isxdigit(static_cast<unsigned char>(c)) != 0;
                       });
      if (!hex) {
        return ctx.Error(prefix + "box_public_key",
                         "not an X25519 public key (64 hex digits)");
      }
      p.box_public_key = absl::AsciiStrToLower(box);
      if (!boxes.insert(p.box_public_key).second) {
        // Frames sealed to one are sealed to the other: the two could read
        // each other's traffic, and neither's sender could be told apart.
        return ctx.Error(prefix + "box_public_key",
                         "is pinned for an earlier participant (every participant needs its own "
                         "box key)");
      }
    }
    ASSIGN_OR_RETURN(const std::string fingerprint,
                     RequiredString(*table, "cert_fingerprint", prefix + "cert_fingerprint", ctx));
    absl::StatusOr<std::string> normalized = NormalizeFingerprint(fingerprint);
    if (!normalized.ok()) {
      return ctx.Error(prefix + "cert_fingerprint", normalized.status().message());
    }
    p.cert_fingerprint = *std::move(normalized);
    if (!fingerprints.insert(p.cert_fingerprint).second) {
      return ctx.Error(prefix + "cert_fingerprint",
                       "is pinned for an earlier participant (every participant needs its own "
                       "certificate)");
    }
    if (p.role == ParticipantRole::kCoordinator) {
      if (out.coordinator_ >= 0) {
        return ctx.Error(prefix + "role",
                         absl::StrCat("a second coordinator (the first is \"",
                                      out.participants_[out.coordinator_].name,
                                      "\"); a consortium has exactly one"));
      }
      out.coordinator_ = static_cast<int>(out.participants_.size());
    } else if (p.is_compute_party()) {
      p.party_index = out.num_compute_parties_++;
    } else {
      p.data_index = out.num_data_holders_++;
    }
    out.participants_.push_back(std::move(p));
  }
  if (out.coordinator_ < 0) {
    return ctx.Error("participant", "no participant has role \"coordinator\" (exactly one must)");
  }
  for (Participant& p : out.participants_) {
    if (p.is_compute_party()) p.owner_index = p.party_index;
    if (p.is_data_holder()) p.owner_index = out.num_compute_parties_ + p.data_index;
  }
  if (out.relays_mpc()) {
    for (size_t i = 0; i < out.participants_.size(); ++i) {
      const Participant& p = out.participants_[i];
      if (p.is_owner() && p.box_public_key.empty()) {
        return ctx.Error(absl::StrCat("participant[", i, "].box_public_key"),
                         absl::StrCat("missing for \"", p.name,
                                      "\": a consortium with a relay-mode party relays every "
                                      "run's traffic sealed, so every participant but the "
                                      "coordinator needs a box key (deploy/make-certs.sh writes "
                                      "them)"));
      }
    }
  }
  RETURN_IF_ERROR(CheckRoles(out.participants_, ctx));
  return out;
}

const Participant& Consortium::coordinator() const { return participants_[coordinator_]; }

bool Consortium::relays_mpc() const {
  return std::any_of(participants_.begin(), participants_.end(),
                     [](const Participant& p) { return p.is_owner() && p.relay; });
}

std::vector<Participant> Consortium::owners() const {
  std::vector<Participant> out = compute_parties();
  for (Participant& p : data_holders()) out.push_back(std::move(p));
  return out;
}

std::vector<Participant> Consortium::compute_parties() const {
  std::vector<Participant> out;
  for (const Participant& p : participants_) {
    if (p.is_compute_party()) out.push_back(p);
  }
  return out;
}

std::vector<Participant> Consortium::data_holders() const {
  std::vector<Participant> out;
  for (const Participant& p : participants_) {
    if (p.is_data_holder()) out.push_back(p);
  }
  return out;
}

absl::StatusOr<Participant> Consortium::FindByName(std::string_view name) const {
  for (const Participant& p : participants_) {
    if (p.name == name) return p;
  }
  return absl::NotFoundError(absl::StrCat("no participant \"", std::string(name),
                                          "\" in consortium \"", name_, "\""));
}

absl::StatusOr<Participant> Consortium::FindByFingerprint(std::string_view fingerprint) const {
  absl::StatusOr<std::string> normalized = NormalizeFingerprint(fingerprint);
  if (normalized.ok()) {
    for (const Participant& p : participants_) {
      if (p.cert_fingerprint == *normalized) return p;
    }
  }
  return absl::NotFoundError(absl::StrCat("no participant of consortium \"", name_,
                                          "\" has certificate fingerprint ",
                                          std::string(fingerprint)));
}

absl::StatusOr<Participant> Consortium::FindByPartyIndex(int party_index) const {
  for (const Participant& p : participants_) {
    if (p.party_index == party_index && p.is_compute_party()) return p;
  }
  return absl::NotFoundError(absl::StrCat("consortium \"", name_, "\" has no compute party ",
                                          party_index, " (it has ", num_compute_parties_, ")"));
}

}  // namespace pplda::net

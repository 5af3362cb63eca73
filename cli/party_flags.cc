#include "cli/party_flags.h"

#include <filesystem>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/path_component.h"
#include "base/status_macros.h"
#include "cli/dp_flags.h"
#include "crypto/paillier/paillier_key_file.h"
#include "crypto/random/secure_rng.h"
#include "protocol/consortium_policy.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {

absl::StatusOr<std::vector<NamedPath>> ParseParties(const std::vector<std::string>& specs) {
  std::vector<NamedPath> out;
  for (const std::string& s : specs) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size()) {
      return absl::InvalidArgumentError("--party '" + s + "' must be NAME=PATH");
    }
    NamedPath p{s.substr(0, eq), s.substr(eq + 1)};
    // The name becomes DIR/NAME.csv (--mixtures-dir) and DIR/NAME.key (--key-dir).
    RETURN_IF_ERROR(CheckPathComponent(p.name, "--party name"));
    for (const NamedPath& q : out) {
      if (q.name == p.name)
        return absl::InvalidArgumentError("--party name '" + p.name + "' is given twice");
      std::error_code ec, ec2;
      if (std::filesystem::weakly_canonical(q.path, ec) ==
              std::filesystem::weakly_canonical(p.path, ec2) &&
          !ec && !ec2) {
        return absl::InvalidArgumentError(absl::StrCat("--party ", q.name, " and --party ", p.name,
                                                       " are given the same documents (", p.path,
                                                       "): each participant brings its own"));
      }
    }
    out.push_back(std::move(p));
  }
  if (out.size() < 2) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "a consortium needs at least 2 parties (--party NAME=PATH, given %d)", out.size()));
  }
  return out;
}

absl::StatusOr<crypto::DealtKey> ReadDealtKey(const std::filesystem::path& dir,
                                              const std::vector<std::string>& compute_parties) {
  const int n = static_cast<int>(compute_parties.size());
  crypto::DealtKey key;
  ASSIGN_OR_RETURN(key.public_key, crypto::ReadPublicKeyFile(dir / "public.key"));
  if (key.public_key->num_parties() != n ||
      key.public_key->threshold() != protocol::PaillierThreshold(n)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--key-dir: %s is a %d-of-%d key, but %d compute parties need a %d-of-%d key (pplda keys "
        "deal --party NAME for each, in --party order%s)",
        (dir / "public.key").string(), key.public_key->threshold(), key.public_key->num_parties(),
        n, protocol::PaillierThreshold(n), n,
        n > 0 && compute_parties.back() == "helper" ? ", then --party helper" : ""));
  }
  for (int i = 0; i < n; ++i) {
    const std::filesystem::path path = dir / (compute_parties[i] + ".key");
    absl::StatusOr<crypto::PaillierKeyShare> read = crypto::ReadKeyShareFile(path);
    if (absl::IsNotFound(read.status())) {
      return absl::NotFoundError(absl::StrCat(
          "--key-dir: no key share for compute party ", compute_parties[i], " (",
          read.status().message(),
          "): `pplda keys deal --party NAME ... --out DIR` writes "
          "DIR/NAME.key for each compute party",
          compute_parties[i] == "helper"
              ? " (with 2 data holders the third is \"helper\": deal with --party helper last)"
              : ""));
    }
    ASSIGN_OR_RETURN(crypto::PaillierKeyShare share, std::move(read));
    if (share.public_key()->fingerprint() != key.public_key->fingerprint()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--key-dir: ", path.string(), " is a share of key ",
          share.public_key()->short_fingerprint(), ", not of ", (dir / "public.key").string(), " (",
          key.public_key->short_fingerprint(), "): the files come from different deals"));
    }
    if (share.party() != i + 1) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--key-dir: %s is the share of compute party %d, but %s is compute party %d here: "
          "give --party in the order the key was dealt",
          path.string(), share.party(), compute_parties[i], i + 1));
    }
    key.shares.push_back(std::move(share));
  }
  return key;
}

void AddPartyInputPaths(const InputFlags& input, const std::vector<NamedPath>& parties,
                        OutputPaths* paths) {
  for (const NamedPath& p : parties) {
    InputFlags in = input;
    in.input = p.path;
    AddInputPaths(in, paths, "--party " + p.name);
  }
}

absl::StatusOr<std::vector<lda::RawCorpus>> ReadPartyDocuments(
    const InputFlags& input, const std::vector<NamedPath>& parties, const std::string& reader,
    bool quiet) {
  std::vector<lda::RawCorpus> raws;
  for (const NamedPath& p : parties) {
    InputFlags in = input;
    in.input = p.path;
    ASSIGN_OR_RETURN(const bool prepared, ReadsPreparedFolder(in));
    if (prepared) {
      return absl::InvalidArgumentError("--party " + p.name + "=" + p.path +
                                        ": a folder written by `pplda prepare`; " + reader +
                                        " reads each party's raw documents");
    }
    ASSIGN_OR_RETURN(lda::RawCorpus raw, ReadInput(in, quiet));
    raws.push_back(std::move(raw));
  }
  return raws;
}

absl::StatusOr<privacy::PrivacyUnit> PartiesPrivacyUnit(const InputFlags& input,
                                                        const std::vector<NamedPath>& parties) {
  std::optional<privacy::PrivacyUnit> unit;
  std::string first;
  for (const NamedPath& p : parties) {
    InputFlags in = input;
    in.input = p.path;
    const privacy::PrivacyUnit u = PrivacyUnitFor(in);
    if (unit && (u.name != unit->name || u.description != unit->description)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--party ", first, " and --party ", p.name, " hold documents of different kinds (",
          unit->description, " / ", u.description,
          "): a DP budget covers one unit; give every party the same form of input"));
    }
    if (!unit) {
      unit = u;
      first = p.name;
    }
  }
  if (!unit) return absl::InvalidArgumentError("no --party given");
  return *unit;
}

absl::StatusOr<crypto::DealtKey> LoadOrDealKey(const std::string& key_dir, int key_bits,
                                               const std::vector<NamedPath>& parties, int n,
                                               bool quiet) {
  if (!key_dir.empty()) {
    std::vector<std::string> compute_parties;
    for (const NamedPath& p : parties) compute_parties.push_back(p.name);
    if (n > static_cast<int>(parties.size())) compute_parties.push_back("helper");
    return ReadDealtKey(key_dir, compute_parties);
  }
  crypto::SodiumRng os_rng;
  crypto::DealerOptions dealer;
  dealer.modulus_bits = static_cast<size_t>(key_bits);
  dealer.num_parties = n;
  dealer.threshold = protocol::PaillierThreshold(n);
  if (!quiet) {
    spdlog::info(
        "dealing a {}-bit threshold Paillier key to {} compute parties (DEALER MODE: "
        "for simulation only)",
        key_bits, n);
  }
  return crypto::DealThresholdKey(dealer, os_rng);
}

}  // namespace pplda::cli

// `pplda keys deal|generate`: threshold Paillier keys for a consortium's
// compute parties.
//   deal      DEALER MODE (crypto/paillier/paillier_dealer.h): whoever runs it knows
//             the factorisation of N and can decrypt everything, alone. For
//             tests and demos; the keys record their origin
//             (KEY_ORIGIN_TRUSTED_DEALER) and every model published with
//             them says so. Writes OUT/public.key (0644) and OUT/<name>.key
//             (0600) per compute party, in consortium order: those named
//             by --party, or the compute parties of --consortium's file
//             (its data holders get no share).
//   generate  DEALER-FREE, over the network (party/daemon/
//             network_key_generation.h): each compute party's operator runs
//             it with its own party.toml at about the same time; the parties
//             generate the key among themselves and each writes only its own
//             share (party.key_share) and public.key next to it.
// Neither ever overwrites an existing file.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "base/path_component.h"
#include "base/status_macros.h"
#include "cli/command.h"
#include "cli/number_flags.h"
#include "cli/output_paths.h"
#include "crypto/paillier/paillier_dealer.h"
#include "crypto/paillier/paillier_key_file.h"
#include "crypto/random/secure_rng.h"
#include "net/consortium_file.h"
#include "party/daemon/network_key_generation.h"
#include "protocol/consortium_policy.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {
namespace {

struct KeysDealFlags {
  std::vector<std::string> parties;  // compute party names, consortium order
  std::string consortium;            // or the consortium file naming them
  int bits = 2048;
  std::string out;
};

// The compute parties of the consortium file at `path`, in its order; its
// data holders are named on stderr as getting no share.
absl::StatusOr<std::vector<std::string>> CommitteeOf(const std::string& path) {
  ASSIGN_OR_RETURN(net::Consortium consortium, net::Consortium::Load(path));
  std::vector<std::string> names;
  for (const net::Participant& p : consortium.compute_parties()) names.push_back(p.name);
  for (const net::Participant& p : consortium.data_holders()) {
    std::fprintf(stderr, "%s: %s is a data holder (role data): no key share\n", path.c_str(),
                 p.name.c_str());
  }
  return names;
}

absl::Status RunKeysDeal(KeysDealFlags f, const GlobalFlags& g) {
  if (!f.consortium.empty()) {
    ASSIGN_OR_RETURN(f.parties, CommitteeOf(f.consortium));
  } else if (f.parties.empty()) {
    return absl::InvalidArgumentError(
        "name the compute parties: --party NAME (repeat, in consortium order) or --consortium "
        "FILE");
  }
  const int n = static_cast<int>(f.parties.size());
  if (n < 3) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--party: a consortium needs at least 3 compute parties (with 2 data holders, name the "
        "helper too); got %d",
        n));
  }
  for (int i = 0; i < n; ++i) {
    // Each name becomes OUT/NAME.key.
    RETURN_IF_ERROR(CheckPathComponent(f.parties[i], "--party name"));
    if (f.parties[i] == "public") {
      return absl::InvalidArgumentError(
          "--party public: the name is taken by the public key file (OUT/public.key)");
    }
    for (int j = 0; j < i; ++j) {
      if (f.parties[i] == f.parties[j]) {
        return absl::InvalidArgumentError("--party " + f.parties[i] + " is given twice");
      }
    }
  }
  OutputPaths outputs;
  RETURN_IF_ERROR(outputs.AddFolder("--out", f.out, OutputPaths::FolderUse::kCreateOrReuse));
  std::error_code ec;
  std::filesystem::create_directories(f.out, ec);
  if (ec) return absl::PermissionDeniedError("cannot create " + f.out + ": " + ec.message());
  const std::filesystem::path dir(f.out);
  for (const std::string& name : f.parties) {
    if (std::filesystem::exists(dir / (name + ".key"))) {
      return absl::AlreadyExistsError((dir / (name + ".key")).string() +
                                      " exists: keys are never overwritten (remove the folder "
                                      "or choose another --out)");
    }
  }
  if (std::filesystem::exists(dir / "public.key")) {
    return absl::AlreadyExistsError((dir / "public.key").string() + " exists");
  }
  std::fprintf(stderr,
               "TRUSTED DEALER: this process generates the factorisation of N and deals every "
               "share; whoever runs it can decrypt everything. For tests and demos only.\n");
  crypto::SodiumRng rng;
  crypto::DealerOptions options;
  options.modulus_bits = static_cast<size_t>(f.bits);
  options.num_parties = n;
  options.threshold = protocol::PaillierThreshold(n);
  ASSIGN_OR_RETURN(crypto::DealtKey key, crypto::DealThresholdKey(options, rng));
  RETURN_IF_ERROR(crypto::WritePublicKeyFile(dir / "public.key", *key.public_key));
  for (int i = 0; i < n; ++i) {
    RETURN_IF_ERROR(crypto::WriteKeyShareFile(dir / (f.parties[i] + ".key"), key.shares[i]));
  }
  std::printf("dealt a %d-bit %d-of-%d threshold Paillier key (TRUSTED DEALER) to %s\n", f.bits,
              options.threshold, n, f.out.c_str());
  for (int i = 0; i < n; ++i) {
    std::printf("  party %d %-12s %s (0600: copy it to that party only, then delete it here)\n",
                i, f.parties[i].c_str(), (dir / (f.parties[i] + ".key")).c_str());
  }
  std::printf("  public key     %s\n", (dir / "public.key").c_str());
  return absl::OkStatus();
}

struct KeysGenerateFlags {
  std::string config;
  int bits = 2048;
  int wait_seconds = 900;
  std::string public_key;  // empty: public.key next to party.key_share
};

absl::Status RunKeysGenerate(const KeysGenerateFlags& f) {
  party::NetworkKeyGenerationOptions options;
  options.modulus_bits = f.bits;
  options.wait = std::chrono::seconds(f.wait_seconds);
  options.public_key_path = f.public_key;
  std::fprintf(stderr,
               "dealer-free key generation (%d bits): run this command with each compute party's "
               "own party.toml at about the same time; it waits %d s for the others\n",
               f.bits, f.wait_seconds);
  ASSIGN_OR_RETURN(party::NetworkKeyGenerationResult r,
                   party::GenerateKeyOverNetwork(f.config, options));
  std::printf(
      "generated a %d-bit %d-of-%d threshold Paillier key with no dealer in %.0f s (%lld "
      "candidate pairs, %.1f MB sent, %llu rounds)\n"
      "  this party's share  %s (0600, share %d: never copy it elsewhere)\n"
      "  public key          %s\n"
      "  fingerprint         %s\n"
      "Compare the fingerprint with every other party's; give public.key to the coordinator "
      "(its coordinator.toml public_key).\n",
      f.bits, r.threshold, r.num_parties, r.seconds,
      static_cast<long long>(r.stats.candidate_pairs), r.bytes_sent / 1e6,
      static_cast<unsigned long long>(r.rounds), r.share_path.c_str(), r.party,
      r.public_key_path.c_str(), r.fingerprint.c_str());
  return absl::OkStatus();
}

}  // namespace

void AddKeysCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run) {
  CLI::App* keys = root.add_subcommand("keys", "Threshold Paillier keys of a consortium");
  keys->require_subcommand(1);
  auto flags = std::make_shared<KeysDealFlags>();
  CLI::App* deal = keys->add_subcommand(
      "deal", "TRUSTED DEALER: deal a threshold key to the compute parties (tests and demos)");
  CLI::Option* party =
      deal->add_option("--party", flags->parties,
                       "Compute party name, in consortium order (repeat; include a helper)");
  deal->add_option("--consortium", flags->consortium,
                   "Deal to the compute parties of this consortium.toml, in its order (its "
                   "data holders get no share)")
      ->check(CLI::ExistingFile)
      ->excludes(party);
  deal->add_option("--bits", flags->bits, "Paillier modulus bits")
      ->capture_default_str()
      ->check(CLI::IsMember({1024, 2048, 3072, 4096}));
  deal->add_option("--out,-o", flags->out, "Folder for public.key and NAME.key files")->required();
  deal->callback([flags, &globals, run] {
    *run = [flags, &globals] { return RunKeysDeal(*flags, globals); };
  });

  auto generate_flags = std::make_shared<KeysGenerateFlags>();
  CLI::App* generate = keys->add_subcommand(
      "generate",
      "Generate the consortium's key with NO DEALER, over the network: each compute party runs "
      "this with its own party.toml at about the same time, before its daemon starts");
  generate->add_option("--config", generate_flags->config, "This party's party.toml")
      ->required()
      ->check(CLI::ExistingFile);
  generate->add_option("--bits", generate_flags->bits, "Paillier modulus bits")
      ->capture_default_str()
      ->check(CLI::IsMember({1024, 2048, 3072, 4096}));
  generate
      ->add_option("--wait-seconds", generate_flags->wait_seconds,
                   "How long to wait for the other parties (to connect, and for each message)")
      ->capture_default_str()
      ->check(NumberIn<int>(10, 86400));
  generate->add_option("--public-key", generate_flags->public_key,
                       "Where to write the public key (default: public.key next to this party's "
                       "key_share)");
  generate->callback([generate_flags, run] {
    *run = [generate_flags] { return RunKeysGenerate(*generate_flags); };
  });
}

}  // namespace pplda::cli

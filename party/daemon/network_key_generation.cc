#include "party/daemon/network_key_generation.h"

#include <sodium.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/keygen/distributed_threshold_key.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/paillier/paillier_key_file.h"
#include "crypto/random/secure_rng.h"
#include "grpcpp/grpcpp.h"
#include "net/consortium_file.h"
#include "net/grpc_party_transport.h"
#include "net/party_link_service.h"
#include "net/tls_identity.h"
#include "party/daemon/party_daemon_config.h"
#include "protocol/consortium_policy.h"
#include "spdlog/spdlog.h"

namespace pplda::party {
namespace {

absl::Status RefuseExisting(const std::filesystem::path& path, const std::string& what) {
  std::error_code ec;
  const bool exists = std::filesystem::exists(path, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot check ", path.string(), " (", what, "): ", ec.message()));
  }
  if (exists) {
    return absl::AlreadyExistsError(
        absl::StrCat(path.string(), " exists (", what,
                     "): keys are never overwritten; move it away to generate a new key"));
  }
  return absl::OkStatus();
}

std::string Hex(const std::array<uint8_t, 32>& bytes) {
  std::string hex(2 * bytes.size() + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), bytes.data(), bytes.size());
  hex.pop_back();
  return hex;
}

}  // namespace

absl::StatusOr<NetworkKeyGenerationResult> GenerateKeyOverNetwork(
    const std::filesystem::path& config_path, const NetworkKeyGenerationOptions& options) {
  ASSIGN_OR_RETURN(PartyDaemonConfig config, LoadPartyDaemonConfig(config_path));
  ASSIGN_OR_RETURN(net::Consortium consortium, net::Consortium::Load(config.consortium));
  ASSIGN_OR_RETURN(net::Participant me, consortium.FindByName(config.name));
  if (!me.is_compute_party()) {
    return absl::InvalidArgumentError(absl::StrCat(
        config_path.string(), ": party.name: \"", config.name, "\" is ",
        me.role == net::ParticipantRole::kCoordinator
            ? "the coordinator"
            : "a data holder (role data): only the committee's compute parties hold key shares",
        " in ", config.consortium.string()));
  }
  const std::vector<net::Participant> committee = consortium.compute_parties();
  if (std::any_of(committee.begin(), committee.end(),
                  [](const net::Participant& p) { return p.relay; })) {
    return absl::FailedPreconditionError(absl::StrCat(
        config.consortium.string(),
        " has relay-mode parties: their MPC links go through the coordinator's relay, which "
        "`pplda keys generate` does not use; generate the key with every party listening (or "
        "deal one for tests: pplda keys deal)"));
  }
  if (!config.listen.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat(config_path.string(),
                     ": party.listen: missing (key generation listens "
                     "for the other parties' links)"));
  }
  if (!config.key_share.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat(config_path.string(),
                     ": party.key_share: missing (where this compute party's share goes)"));
  }
  NetworkKeyGenerationResult result;
  result.share_path = *config.key_share;
  result.public_key_path = options.public_key_path.empty()
                               ? config.key_share->parent_path() / "public.key"
                               : options.public_key_path;
  RETURN_IF_ERROR(RefuseExisting(result.share_path, "party.key_share"));
  RETURN_IF_ERROR(RefuseExisting(result.public_key_path, "the public key"));
  // Both folders exist before the generation, not after it.
  for (const std::filesystem::path& file : {result.share_path, result.public_key_path}) {
    std::error_code ec;
    if (file.parent_path().empty()) continue;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot create ", file.parent_path().string(), ": ", ec.message()));
    }
  }
  ASSIGN_OR_RETURN(net::TlsIdentity identity,
                   net::TlsIdentity::Load(config.tls_ca, config.tls_cert, config.tls_key));
  RETURN_IF_ERROR(identity.CheckPinned(consortium, config.name));

  // The links, as a run's: this party's inbox registered before it listens.
  net::PartyLinkService links(consortium);
  net::GrpcPartyTransport::Options transport_options;
  transport_options.run_id = absl::StrCat("keygen-", options.modulus_bits);
  transport_options.party_id = me.party_index;
  transport_options.parties = net::ComputePartyEndpoints(consortium);
  transport_options.receive_timeout = options.wait;
  transport_options.connect_timeout = options.wait;
  ASSIGN_OR_RETURN(std::unique_ptr<net::GrpcPartyTransport> transport,
                   net::GrpcPartyTransport::Create(transport_options, identity, links));
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(*config.listen, identity.server_credentials(), &port);
  net::ConfigureServerBuilder(builder);
  builder.RegisterService(&links);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    return absl::UnavailableError(absl::StrCat(
        config_path.string(), ": party.listen: cannot listen on ", *config.listen,
        " (in use: is this party's daemon running? stop it while the key is generated)"));
  }
  const int n = consortium.num_compute_parties();
  spdlog::info(
      "key generation: compute party {} of {} ({}), {}-bit modulus; waiting up to {} s "
      "for the other parties",
      me.party_index, n, config.name, options.modulus_bits, options.wait.count());
  const auto start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(crypto::MpcConfig mpc, crypto::MpcConfig::Create(n, protocol::MpcThreshold(n)));
  crypto::SodiumRng rng;
  ASSIGN_OR_RETURN(std::unique_ptr<crypto::MpcEngine> engine,
                   crypto::MpcEngine::Create(mpc, *transport, rng));
  crypto::SharedModulusOptions modulus;
  modulus.modulus_bits = options.modulus_bits;
  absl::StatusOr<crypto::DistributedKey> key =
      crypto::GenerateDistributedThresholdKey(modulus, *engine);
  // Flush what this party sent (the others may still need its last
  // message), then stop listening.
  const absl::Status closed = transport->Close();
  if (!key.ok()) {
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
    return key.status();
  }
  if (!closed.ok()) spdlog::warn("key generation: closing the links: {}", closed.ToString());
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const crypto::NetworkStats stats = transport->Stats();
  result.bytes_sent = stats.parties[me.party_index].bytes_sent;
  result.rounds = stats.rounds;
  // Give the peers time to take this party's last frames before the server
  // goes away.
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(10));
  RETURN_IF_ERROR(RefuseExisting(result.share_path, "party.key_share"));
  RETURN_IF_ERROR(RefuseExisting(result.public_key_path, "the public key"));
  // The public key first: if the share cannot be written, the public key
  // is removed again, so that a rerun (with every party) starts clean.
  RETURN_IF_ERROR(crypto::WritePublicKeyFile(result.public_key_path, *key->public_key));
  if (absl::Status share = crypto::WriteKeyShareFile(result.share_path, key->share); !share.ok()) {
    std::error_code ec;
    std::filesystem::remove(result.public_key_path, ec);
    return absl::Status(share.code(), absl::StrCat(share.message(),
                                                   " (the public key was removed again; the "
                                                   "other parties wrote theirs: generate again "
                                                   "with every party)"));
  }
  result.fingerprint = Hex(key->public_key->fingerprint());
  result.party = key->share.party();
  result.num_parties = key->public_key->num_parties();
  result.threshold = key->public_key->threshold();
  result.stats = key->modulus_stats;
  return result;
}

}  // namespace pplda::party

#include "party/daemon/party_daemon.h"

#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/thread_pool.h"
#include "crypto/paillier/paillier_key_file.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "lda/document_reader.h"
#include "lda/preprocessor.h"
#include "lda/vocabulary_file.h"
#include "net/capture_file.h"
#include "net/consortium_file.h"
#include "net/daemon_main.h"
#include "net/grpc_party_transport.h"
#include "net/metrics_server.h"
#include "net/party_link_service.h"
#include "net/relay_client.h"
#include "net/relay_party_transport.h"
#include "net/sealed_frame.h"
#include "net/tls_identity.h"
#include "party/daemon/party_control_service.h"
#include "party/daemon/party_daemon_config.h"
#include "party/daemon/sent_payload_capture.h"
#include "party/party_randomness.h"
#include "spdlog/spdlog.h"

namespace pplda::party {
namespace {

absl::StatusOr<lda::Corpus> LoadDocuments(const PartyDaemonConfig& c,
                                          const lda::Vocabulary& vocabulary) {
  lda::Corpus corpus;
  corpus.vocabulary = vocabulary;
  if (!c.documents.has_value()) return corpus;  // a data-less helper
  lda::ReadOptions read;
  ASSIGN_OR_RETURN(read.format, lda::ParseInputFormat(c.format));
  ASSIGN_OR_RETURN(read.split, lda::ParseSplitMode(c.split));
  read.window_words = c.window_words;
  ASSIGN_OR_RETURN(lda::RawCorpus raw, lda::ReadDocuments(c.documents->string(), read));
  for (const std::string& w : raw.report.warnings) spdlog::warn("{}", w);
  lda::PreprocessOptions pre;
  pre.max_tokens_per_doc = c.max_tokens;
  lda::PreprocessReport report;
  ASSIGN_OR_RETURN(corpus, lda::MapToVocabulary(raw, vocabulary, pre, &report));
  spdlog::info("documents: {} read from {}, {} kept with {} tokens over the vocabulary ({} "
               "tokens outside it dropped)",
               raw.documents.size(), c.documents->string(), corpus.num_documents(),
               corpus.num_tokens(), report.unknown_tokens);
  if (corpus.num_tokens() == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        c.documents->string(), ": no tokens over the consortium vocabulary ",
        c.vocabulary.string()));
  }
  return corpus;
}

absl::Status CreateStateDir(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::PermissionDeniedError("cannot create state_dir " + dir.string() + ": " + ec.message());
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::replace, ec);
  if (ec) return absl::PermissionDeniedError("cannot chmod 700 " + dir.string() + ": " + ec.message());
  return absl::OkStatus();
}

// This party's participant entry (a compute party or a data holder);
// InvalidArgument when party.name is the consortium's coordinator, or a
// data holder without documents.
absl::StatusOr<net::Participant> FindOwner(const std::filesystem::path& config_path,
                                           const PartyDaemonConfig& config,
                                           const net::Consortium& consortium) {
  ASSIGN_OR_RETURN(net::Participant me, consortium.FindByName(config.name));
  if (me.role == net::ParticipantRole::kCoordinator) {
    return absl::InvalidArgumentError(absl::StrCat(config_path.string(), ": party.name: \"",
                                                   config.name, "\" is the coordinator in ",
                                                   config.consortium.string()));
  }
  if (me.is_data_holder() && !config.documents.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat(config_path.string(), ": party.documents: missing (\"", config.name,
                     "\" is a data holder, role data in ", config.consortium.string(), ")"));
  }
  return me;
}

// Relay mode (net/relay_client.h): a relay-mode party never listens; when
// any compute party is in relay mode, every party relays its MPC frames
// through the coordinator, sealed with its box key. InvalidArgument unless
// party.listen is set exactly when this party is not in relay mode.
absl::Status CheckListenMatchesRelayMode(const std::filesystem::path& config_path,
                                         const PartyDaemonConfig& config,
                                         const net::Participant& me) {
  if (me.relay && config.listen.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        config_path.string(), ": party.listen: \"", config.name, "\" is in relay mode (relay = "
        "true in ", config.consortium.string(), "): it never listens; remove party.listen"));
  }
  if (!me.relay && !config.listen.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        config_path.string(), ": party.listen: missing (only a participant with relay = true in ",
        config.consortium.string(), " runs without a listen address)"));
  }
  return absl::OkStatus();
}

// When the consortium relays MPC (else a no-op): sets this party's box key
// (pinned in the consortium) and the sealing keys of every owner;
// InvalidArgument without party.box_key.
absl::Status LoadSealingKeys(const std::filesystem::path& config_path,
                             const PartyDaemonConfig& config, const net::Consortium& consortium,
                             std::optional<net::BoxSecretKey>& box_key,
                             std::vector<net::FrameSealer::Party>& sealing_parties) {
  if (!consortium.relays_mpc()) return absl::OkStatus();
  if (!config.box_key.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        config_path.string(), ": party.box_key: missing (", config.consortium.string(),
        " has relay-mode parties, so every participant seals its run frames with its box "
        "key; deploy/make-certs.sh writes it as <name>.box)"));
  }
  ASSIGN_OR_RETURN(net::BoxSecretKey key, net::BoxSecretKey::Load(*config.box_key));
  RETURN_IF_ERROR(key.CheckPinned(consortium, config.name));
  box_key.emplace(std::move(key));
  ASSIGN_OR_RETURN(sealing_parties, net::FrameSealer::PartiesOf(consortium));
  return absl::OkStatus();
}

// The run key a participant holds: a compute party's share (and its public
// key), or a data holder's public key alone.
struct RunKey {
  std::optional<crypto::PaillierKeyShare> share;
  crypto::ThresholdPublicKeyPtr public_key;
};

// A data holder's public key: party.public_key, the committee's key.
// InvalidArgument when party.key_share is set (a data holder holds no key
// share and is never asked to decrypt) or the key is for another
// committee size.
absl::StatusOr<RunKey> LoadDataHolderKey(const std::filesystem::path& config_path,
                                         const PartyDaemonConfig& config,
                                         const net::Consortium& consortium) {
  if (config.key_share.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(config_path.string(), ": party.key_share: \"",
                                                   config.name,
                                                   "\" is a data holder (role "
                                                   "data in ",
                                                   config.consortium.string(),
                                                   "): it holds no key share; remove the key and "
                                                   "give party.public_key"));
  }
  if (!config.public_key.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat(config_path.string(),
                     ": party.public_key: missing (a data holder encrypts with the "
                     "committee's public key)"));
  }
  RunKey key;
  ASSIGN_OR_RETURN(key.public_key, crypto::ReadPublicKeyFile(*config.public_key));
  if (key.public_key->num_parties() != consortium.num_compute_parties()) {
    return absl::InvalidArgumentError(
        absl::StrCat(config.public_key->string(), ": a key of ", key.public_key->num_parties(),
                     " compute parties, but ", config.consortium.string(), " has a committee of ",
                     consortium.num_compute_parties()));
  }
  return key;
}

// This party's key share; InvalidArgument unless it is the share of this
// compute party for this consortium's party count (warns when a trusted
// dealer made it).
absl::StatusOr<RunKey> LoadKeyShare(const std::filesystem::path& config_path,
                                    const PartyDaemonConfig& config,
                                    const net::Consortium& consortium, const net::Participant& me) {
  if (me.is_data_holder()) return LoadDataHolderKey(config_path, config, consortium);
  if (!config.key_share.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(config_path.string(),
                                                   ": party.key_share: missing (\"", config.name,
                                                   "\" is a compute party)"));
  }
  ASSIGN_OR_RETURN(crypto::PaillierKeyShare share, crypto::ReadKeyShareFile(*config.key_share));
  const crypto::ThresholdPublicKey& key = *share.public_key();
  if (key.num_parties() != consortium.num_compute_parties() ||
      share.party() != me.party_index + 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        config.key_share->string(), ": the share of party ", share.party(), " of ",
        key.num_parties(), ", but ", config.name, " is compute party ", me.party_index + 1, " of ",
        consortium.num_compute_parties(), " in ", config.consortium.string()));
  }
  if (key.origin() != crypto::KeyOrigin::kDistributed) {
    spdlog::warn("the key share comes from a TRUSTED DEALER: whoever dealt it can decrypt "
                 "everything (tests and demos only)");
  }
  RunKey run_key;
  run_key.public_key = share.public_key();
  run_key.share.emplace(std::move(share));
  return run_key;
}

// The resources of this party's sessions (pointing at share, corpus and
// pool), with the OS's randomness or, under
// party.insecure_deterministic_rng_seed, the INSECURE seeded streams (warned).
absl::StatusOr<PartyResources> MakePartyResources(const std::filesystem::path& config_path,
                                                  const PartyDaemonConfig& config,
                                                  const net::Consortium& consortium,
                                                  const net::Participant& me, const RunKey& key,
                                                  const lda::Vocabulary& vocabulary,
                                                  const lda::Corpus& corpus, ThreadPool& pool) {
  PartyResources resources;
  resources.party_index = me.owner_index;
  resources.num_parties = consortium.num_compute_parties();
  resources.num_holders = consortium.num_data_holders();
  resources.data_index = me.data_index;
  resources.key_share = key.share.has_value() ? &*key.share : nullptr;
  resources.public_key = key.public_key;
  resources.corpus = &corpus;
  resources.vocabulary_sha256 = protocol::VocabularySha256(vocabulary);
  resources.participant = config.name;
  resources.initial_topics_seed = config.initial_topics_seed;
  resources.accept_two_holder_disclosure = config.accept_two_holder_disclosure;
  resources.privacy_budget = config.privacy_budget;
  resources.run_dp_ceiling = config.run_dp_ceiling;
  resources.state_dir = config.state_dir;
  resources.pool = &pool;
  if (config.insecure_deterministic_rng_seed.has_value()) {
    // Refused by LoadPartyDaemonConfig already when the build does not allow it.
    ASSIGN_OR_RETURN(ConsortiumRngFactory insecure,
                     InsecureDeterministicRngFactory(*config.insecure_deterministic_rng_seed));
    spdlog::warn("{} (party.insecure_deterministic_rng_seed = {} in {}: every random source of "
                 "this party is a seeded stream; anyone who knows the seed knows its masks and "
                 "shares)",
                 kInsecureDeterministicRngWarning, *config.insecure_deterministic_rng_seed,
                 config_path.string());
    resources.insecure_deterministic_rng_seed = config.insecure_deterministic_rng_seed;
    resources.rng_factory = [insecure = std::move(insecure), party = me.owner_index](
                                PartyRandomSource source) { return insecure(party, source); };
  } else {
    resources.rng_factory = [party = me.owner_index](PartyRandomSource source) {
      return OsRng(party, source);
    };
  }
  return resources;
}

// The INSECURE capture of every MPC payload this party sends, under
// party.insecure_capture_sent_payloads (tests only; warned); else null.
absl::StatusOr<std::unique_ptr<net::CaptureFile>> OpenSentPayloadCapture(
    const std::filesystem::path& config_path, const PartyDaemonConfig& config) {
  std::unique_ptr<net::CaptureFile> sent_capture;
  if (!config.insecure_capture_sent_payloads.has_value()) return sent_capture;
  // Refused by LoadPartyDaemonConfig already when the build does not allow it.
  ASSIGN_OR_RETURN(sent_capture, net::CaptureFile::Create(*config.insecure_capture_sent_payloads));
  spdlog::warn(
      "INSECURE: party.insecure_capture_sent_payloads = {} in {}: every MPC payload "
      "this party sends is written there in the clear (tests only)",
      config.insecure_capture_sent_payloads->string(), config_path.string());
  return sent_capture;
}

// What the MPC transports of this party's runs are made of: every referenced
// object outlives every transport (`relay` is set once the control service
// exists, before any run).
struct TransportParts {
  bool relay_mpc;
  int party_index;
  std::chrono::milliseconds receive_timeout;
  const std::vector<net::FrameSealer::Party>& sealing_parties;
  const std::optional<net::BoxSecretKey>& box_key;
  const std::unique_ptr<net::RelayClient>& relay;
  const net::Consortium& consortium;
  const net::TlsIdentity& identity;
  net::PartyLinkService& links;
  const std::unique_ptr<net::CaptureFile>& sent_capture;  // null unless capturing
};

// A run's transport: its frames sealed through the coordinator's relay when
// the consortium relays MPC, else direct mutual-TLS links to the parties.
absl::StatusOr<std::unique_ptr<net::RunTransport>> MakeDirectOrRelayTransport(
    const TransportParts& parts, const std::string& run_id) {
  if (parts.relay_mpc) {
    net::RelayPartyTransport::Options options;
    options.run_id = run_id;
    options.party_id = parts.party_index;
    options.parties = parts.sealing_parties;
    options.receive_timeout = parts.receive_timeout;
    ASSIGN_OR_RETURN(std::unique_ptr<net::RelayPartyTransport> transport,
                     net::RelayPartyTransport::Create(options, *parts.box_key, *parts.relay));
    return std::unique_ptr<net::RunTransport>(std::move(transport));
  }
  net::GrpcPartyTransport::Options options;
  options.run_id = run_id;
  options.party_id = parts.party_index;
  options.parties = net::OwnerEndpoints(parts.consortium);
  options.receive_timeout = parts.receive_timeout;
  ASSIGN_OR_RETURN(std::unique_ptr<net::GrpcPartyTransport> transport,
                   net::GrpcPartyTransport::Create(options, parts.identity, parts.links));
  return std::unique_ptr<net::RunTransport>(std::move(transport));
}

// The control service's transport factory: MakeDirectOrRelayTransport, its
// sent payloads also written to the sent-payload capture when there is one.
PartyControlService::TransportFactory MakeTransportFactory(const TransportParts& parts) {
  return [parts](const std::string& run_id) -> absl::StatusOr<std::unique_ptr<net::RunTransport>> {
    ASSIGN_OR_RETURN(std::unique_ptr<net::RunTransport> transport,
                     MakeDirectOrRelayTransport(parts, run_id));
    if (parts.sent_capture == nullptr) return transport;
    return std::unique_ptr<net::RunTransport>(
        std::make_unique<SentPayloadCapture>(std::move(transport), *parts.sent_capture));
  };
}

// The client of the coordinator's relay (it dials at once), handing the
// relayed control calls to `control`.
std::unique_ptr<net::RelayClient> StartRelayClient(const PartyDaemonConfig& config,
                                                   const net::Consortium& consortium,
                                                   const net::TlsIdentity& identity,
                                                   PartyControlService& control) {
  const net::Participant& coordinator = consortium.coordinator();
  net::RelayClient::Options options;
  options.name = config.name;
  options.coordinator_name = coordinator.name;
  options.coordinator_address = coordinator.address;
  options.coordinator_fingerprint = coordinator.cert_fingerprint;
  return std::make_unique<net::RelayClient>(
      options, identity,
      [&control](const pplda::v1::RelayedCall& call) { return control.HandleRelayed(call); });
}

// The mutual-TLS gRPC server of PartyLink, PartyControl and health on
// party.listen, or null without one; Unavailable when it cannot listen.
absl::StatusOr<std::unique_ptr<grpc::Server>> StartGrpcServer(
    const std::filesystem::path& config_path, const PartyDaemonConfig& config,
    const net::TlsIdentity& identity, net::PartyLinkService& links, PartyControlService& control) {
  std::unique_ptr<grpc::Server> server;
  if (!config.listen.has_value()) return server;
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(*config.listen, identity.server_credentials(), &port);
  net::ConfigureServerBuilder(builder);
  builder.RegisterService(&links);
  builder.RegisterService(&control);
  server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    return absl::UnavailableError(absl::StrCat(config_path.string(),
                                               ": party.listen: cannot listen on ", *config.listen,
                                               " (in use, or not this host's address)"));
  }
  return server;
}

// The /metrics + /healthz HTTP server on `address`, or null without one.
absl::StatusOr<std::unique_ptr<net::MetricsServer>> StartMetricsServer(
    const net::MetricsRegistry& registry, const std::optional<std::string>& address) {
  std::unique_ptr<net::MetricsServer> metrics_server;
  if (!address.has_value()) return metrics_server;
  net::MetricsServer::Options options;
  options.address = *address;
  ASSIGN_OR_RETURN(metrics_server, net::MetricsServer::Start(registry, options));
  return metrics_server;
}

// Logs that this party is up: where it listens, or that it only dials the
// coordinator (relay mode).
void LogStarted(const PartyDaemonConfig& config, const net::Consortium& consortium,
                const net::Participant& me, bool relay_mpc) {
  const std::string metrics_note =
      config.metrics_listen ? ", metrics on http://" + *config.metrics_listen + "/metrics"
                            : std::string();
  const std::string role =
      me.is_data_holder()
          ? absl::StrCat("data holder ", me.data_index, " of ", consortium.num_data_holders())
          : absl::StrCat("compute party ", me.party_index, " of ",
                         consortium.num_compute_parties());
  if (config.listen.has_value()) {
    spdlog::info(
        "pplda-party {} ({}) listening on {} (mutual TLS){}{}", config.name, role, *config.listen,
        relay_mpc ? "; MPC frames relayed sealed through the coordinator" : "", metrics_note);
  } else {
    spdlog::info(
        "pplda-party {} ({}) in relay mode: never listens, dials the "
        "coordinator at {} (mutual TLS){}",
        config.name, role, consortium.coordinator().address, metrics_note);
  }
}

// Stops the party: the active run's links, then the relay client, the gRPC
// server (in-flight calls get 5 s) and the metrics server, those there are.
void ShutDown(const std::string& name, PartyControlService& control, net::RelayClient* relay,
              grpc::Server* server, net::MetricsServer* metrics_server) {
  control.Shutdown(absl::UnavailableError("party " + name + " is shutting down"));
  if (relay) relay->Stop();
  if (server) server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  if (metrics_server) metrics_server->Stop();
  spdlog::info("stopped");
}

}  // namespace

absl::Status RunPartyDaemon(const std::filesystem::path& config_path) {
  // Signals go to WaitForTerminationSignal only (blocked before any thread starts).
  net::BlockTerminationSignals();

  ASSIGN_OR_RETURN(PartyDaemonConfig config, LoadPartyDaemonConfig(config_path));
  ASSIGN_OR_RETURN(net::Consortium consortium, net::Consortium::Load(config.consortium));
  ASSIGN_OR_RETURN(net::Participant me, FindOwner(config_path, config, consortium));
  ASSIGN_OR_RETURN(net::TlsIdentity identity,
                   net::TlsIdentity::Load(config.tls_ca, config.tls_cert, config.tls_key));
  RETURN_IF_ERROR(identity.CheckPinned(consortium, config.name));
  RETURN_IF_ERROR(CheckListenMatchesRelayMode(config_path, config, me));
  const bool relay_mpc = consortium.relays_mpc();
  std::optional<net::BoxSecretKey> box_key;
  std::vector<net::FrameSealer::Party> sealing_parties;
  RETURN_IF_ERROR(LoadSealingKeys(config_path, config, consortium, box_key, sealing_parties));
  ASSIGN_OR_RETURN(const RunKey key, LoadKeyShare(config_path, config, consortium, me));
  ASSIGN_OR_RETURN(lda::Vocabulary vocabulary, lda::ReadVocabularyFile(config.vocabulary.string()));
  ASSIGN_OR_RETURN(lda::Corpus corpus, LoadDocuments(config, vocabulary));
  RETURN_IF_ERROR(CreateStateDir(config.state_dir));

  ThreadPool pool(config.threads);
  ASSIGN_OR_RETURN(PartyResources resources, MakePartyResources(config_path, config, consortium, me,
                                                                key, vocabulary, corpus, pool));
  net::MetricsRegistry registry;
  ASSIGN_OR_RETURN(PartyMetrics metrics, PartyMetrics::Register(registry, net::RoleName(me.role)));
  net::PartyLinkService links(consortium);
  std::unique_ptr<net::RelayClient> relay;  // when relay_mpc; started below
  // Tests only; outlives every transport.
  ASSIGN_OR_RETURN(std::unique_ptr<net::CaptureFile> sent_capture,
                   OpenSentPayloadCapture(config_path, config));
  PartyControlService control(
      config.name, consortium,
      MakeTransportFactory({.relay_mpc = relay_mpc,
                            .party_index = me.owner_index,
                            .receive_timeout = std::chrono::seconds(config.receive_timeout_seconds),
                            .sealing_parties = sealing_parties,
                            .box_key = box_key,
                            .relay = relay,
                            .consortium = consortium,
                            .identity = identity,
                            .links = links,
                            .sent_capture = sent_capture}),
      resources, metrics);
  if (relay_mpc) relay = StartRelayClient(config, consortium, identity, control);
  ASSIGN_OR_RETURN(std::unique_ptr<grpc::Server> server,
                   StartGrpcServer(config_path, config, identity, links, control));
  ASSIGN_OR_RETURN(std::unique_ptr<net::MetricsServer> metrics_server,
                   StartMetricsServer(registry, config.metrics_listen));
  LogStarted(config, consortium, me, relay_mpc);

  const int signal = net::WaitForTerminationSignal();
  spdlog::info("received {}, shutting down", signal == SIGTERM ? "SIGTERM" : "SIGINT");
  ShutDown(config.name, control, relay.get(), server.get(), metrics_server.get());
  return absl::OkStatus();
}

}  // namespace pplda::party

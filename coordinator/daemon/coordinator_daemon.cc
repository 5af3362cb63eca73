#include "coordinator/daemon/coordinator_daemon.h"

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "coordinator/daemon/coordinator_daemon_config.h"
#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/run_manager.h"
#include "crypto/paillier/paillier_key_file.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "lda/vocabulary_file.h"
#include "net/capture_file.h"
#include "net/daemon_main.h"
#include "net/metrics_server.h"
#include "net/party_link_service.h"
#include "net/relay_hub.h"
#include "net/tls_identity.h"
#include "protocol/vocabulary_digest.h"
#include "spdlog/spdlog.h"

namespace pplda::coordinator {

namespace {

// InvalidArgument unless coordinator.name is the consortium's coordinator.
absl::Status CheckIsCoordinator(const std::filesystem::path& config_path,
                                const CoordinatorDaemonConfig& config,
                                const net::Consortium& consortium) {
  ASSIGN_OR_RETURN(net::Participant me, consortium.FindByName(config.name));
  if (me.role != net::ParticipantRole::kCoordinator) {
    return absl::InvalidArgumentError(absl::StrCat(config_path.string(), ": coordinator.name: \"",
                                                   config.name, "\" is not the coordinator of ",
                                                   config.consortium.string()));
  }
  return absl::OkStatus();
}

// The consortium's public key; InvalidArgument unless its party count is the
// consortium's (warns when a trusted dealer made it).
absl::StatusOr<crypto::ThresholdPublicKeyPtr> LoadPublicKey(const CoordinatorDaemonConfig& config,
                                                            const net::Consortium& consortium) {
  ASSIGN_OR_RETURN(crypto::ThresholdPublicKeyPtr key, crypto::ReadPublicKeyFile(config.public_key));
  if (key->num_parties() != consortium.num_compute_parties()) {
    return absl::InvalidArgumentError(absl::StrCat(
        config.public_key.string(), ": a key of ", key->num_parties(), " parties, but ",
        config.consortium.string(), " has ", consortium.num_compute_parties(),
        " compute parties"));
  }
  if (key->origin() != crypto::KeyOrigin::kDistributed) {
    spdlog::warn("the key comes from a TRUSTED DEALER: whoever dealt it can decrypt everything; "
                 "every published model says so");
  }
  return key;
}

// Creates state_dir (and its parents); PermissionDenied when it cannot.
absl::Status CreateStateDir(const std::filesystem::path& state_dir) {
  std::error_code ec;
  std::filesystem::create_directories(state_dir, ec);
  if (ec) {
    return absl::PermissionDeniedError("cannot create state_dir " + state_dir.string() + ": " +
                                       ec.message());
  }
  return absl::OkStatus();
}

// The RunManager's options from the config and what it names (all of which
// must outlive the manager), without the relay hub.
RunManagerOptions MakeRunManagerOptions(const CoordinatorDaemonConfig& config,
                                        const net::Consortium& consortium,
                                        const net::TlsIdentity& identity,
                                        const crypto::ThresholdPublicKeyPtr& key,
                                        const lda::Vocabulary& vocabulary,
                                        net::MetricsRegistry& registry) {
  RunManagerOptions options;
  options.name = config.name;
  options.consortium = &consortium;
  options.identity = &identity;
  options.key = key;
  options.vocabulary = &vocabulary;
  options.vocabulary_sha256 = protocol::VocabularySha256(vocabulary);
  options.state_dir = config.state_dir;
  options.call_timeout = std::chrono::seconds(config.party_call_timeout_seconds);
  options.party_restart_wait = std::chrono::seconds(config.party_restart_wait_seconds);
  options.threads = config.threads;
  options.metrics = &registry;
  return options;
}

// Relay mode (net/relay_hub.h): when a compute party has relay = true,
// every party keeps an outbound stream here; the hub forwards their sealed
// MPC frames and carries the control calls of the relay-mode parties.
// Sets `relay` (its counters in `registry`; every message captured in
// `relay_capture` under coordinator.relay_capture) when the consortium relays
// MPC; warns of a relay_capture that captures nothing.
absl::Status StartRelayHub(const std::filesystem::path& config_path,
                           const CoordinatorDaemonConfig& config, const net::Consortium& consortium,
                           net::MetricsRegistry& registry,
                           std::unique_ptr<net::CaptureFile>& relay_capture,
                           std::unique_ptr<net::RelayHub>& relay) {
  if (!consortium.relays_mpc() && config.relay_capture.has_value()) {
    spdlog::warn(
        "{}: coordinator.relay_capture: no party of {} is in relay mode, so nothing is "
        "relayed or captured",
        config_path.string(), config.consortium.string());
  }
  if (!consortium.relays_mpc()) return absl::OkStatus();
  net::RelayHub::Options relay_options;
  ASSIGN_OR_RETURN(relay_options.frames_forwarded,
                   registry.AddCounter("pplda_coordinator_relay_frames_total",
                                       "Sealed MPC frames forwarded between parties (relay mode)"));
  ASSIGN_OR_RETURN(relay_options.bytes_forwarded,
                   registry.AddCounter("pplda_coordinator_relay_bytes_total",
                                       "Sealed MPC bytes forwarded between parties (relay mode)"));
  if (config.relay_capture.has_value()) {
    ASSIGN_OR_RETURN(relay_capture, net::CaptureFile::Create(*config.relay_capture));
    relay_options.observer = [capture = relay_capture.get()](net::RelayHub::Direction direction,
                                                             const std::string& party,
                                                             const std::string& bytes) {
      capture->Append(direction == net::RelayHub::Direction::kUp ? 'U' : 'D', bytes);
    };
    spdlog::info("relay: capturing every relayed message to {}", config.relay_capture->string());
  }
  relay = std::make_unique<net::RelayHub>(consortium, relay_options);
  return absl::OkStatus();
}

// The coordinator's servers, with the gRPC server's builder and port (kept
// as long as the server, as they always were).
struct CoordinatorServers {
  grpc::ServerBuilder builder;
  int port = 0;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<net::MetricsServer> metrics_server;
};

// Starts the mutual-TLS gRPC server on coordinator.listen (Coordinator,
// health, and the relay hub when there is one), then the metrics server when
// configured; Unavailable when it cannot listen.
absl::Status StartServers(const std::filesystem::path& config_path,
                          const CoordinatorDaemonConfig& config, const net::TlsIdentity& identity,
                          const net::MetricsRegistry& registry, CoordinatorService& service,
                          net::RelayHub* relay, CoordinatorServers& servers) {
  grpc::ServerBuilder& builder = servers.builder;
  builder.AddListeningPort(config.listen, identity.server_credentials(), &servers.port);
  builder.RegisterService(&service);
  if (relay != nullptr) {
    net::ConfigureServerBuilder(builder);  // frame-sized messages, keepalive pings
    builder.RegisterService(relay);
  }
  servers.server = builder.BuildAndStart();
  if (servers.server == nullptr || servers.port == 0) {
    return absl::UnavailableError(absl::StrCat(config_path.string(),
                                               ": coordinator.listen: cannot listen on ",
                                               config.listen));
  }
  if (config.metrics_listen.has_value()) {
    net::MetricsServer::Options metrics;
    metrics.address = *config.metrics_listen;
    ASSIGN_OR_RETURN(servers.metrics_server, net::MetricsServer::Start(registry, metrics));
  }
  return absl::OkStatus();
}

// A run this coordinator left unfinished (it was killed or crashed) goes
// on from its last saved iteration boundary; logs whether it did.
void ResumeUnfinishedRun(RunManager& runs) {
  const absl::StatusOr<std::string> resumed = runs.ResumeUnfinished();
  if (resumed.ok()) {
    spdlog::warn("run {}: left unfinished by the previous coordinator process; resuming it",
                 *resumed);
  } else if (!absl::IsNotFound(resumed.status())) {
    spdlog::error("the unfinished run cannot be resumed (marked ended): {}",
                  resumed.status().ToString());
  }
}

// Stops the coordinator on SIGTERM / SIGINT: without a relay hub, an active
// run is paused and the process ends here (_Exit(0), never returns);
// otherwise any active run is aborted, then the relay and servers stop.
void ShutDown(std::unique_ptr<RunManager>& runs, net::RelayHub* relay,
              CoordinatorServers& servers) {
  if (const auto active = runs->ActiveRun(); active.has_value() && relay == nullptr) {
    // Paused, not cancelled (an upgrade, a reboot): the parties keep their
    // sessions and the run resumes from its last saved boundary when the
    // coordinator starts again (RunManager::ResumeUnfinished). The run's
    // thread waits in calls to the parties, so the process ends here, as a
    // kill would; every state file is replaced atomically.
    if (active->second >= 0) {
      spdlog::warn(
          "run {}: paused after iteration {} (its last saved boundary); it resumes when "
          "the coordinator starts again (`pplda run cancel` then ends it)",
          active->first, active->second);
    } else {
      spdlog::warn(
          "run {}: paused before its first saved boundary; it starts over from Join when "
          "the coordinator starts again (`pplda run cancel` then ends it)",
          active->first);
    }
    servers.server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
    if (servers.metrics_server) servers.metrics_server->Stop();
    spdlog::shutdown();
    std::_Exit(0);
  }
  runs.reset();  // aborts an active run at every party (relay mode: its frames go through here)
  if (relay) relay->Shutdown();  // ends the parties' streams (they redial until they stop)
  servers.server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  if (servers.metrics_server) servers.metrics_server->Stop();
  spdlog::info("stopped");
}

}  // namespace

absl::Status RunCoordinatorDaemon(const std::filesystem::path& config_path) {
  // Signals go to WaitForTerminationSignal only (blocked before any thread starts).
  net::BlockTerminationSignals();

  ASSIGN_OR_RETURN(CoordinatorDaemonConfig config, LoadCoordinatorDaemonConfig(config_path));
  ASSIGN_OR_RETURN(net::Consortium consortium, net::Consortium::Load(config.consortium));
  RETURN_IF_ERROR(CheckIsCoordinator(config_path, config, consortium));
  ASSIGN_OR_RETURN(net::TlsIdentity identity,
                   net::TlsIdentity::Load(config.tls_ca, config.tls_cert, config.tls_key));
  RETURN_IF_ERROR(identity.CheckPinned(consortium, config.name));
  ASSIGN_OR_RETURN(crypto::ThresholdPublicKeyPtr key, LoadPublicKey(config, consortium));
  ASSIGN_OR_RETURN(lda::Vocabulary vocabulary, lda::ReadVocabularyFile(config.vocabulary.string()));
  RETURN_IF_ERROR(CreateStateDir(config.state_dir));

  net::MetricsRegistry registry;
  RunManagerOptions options =
      MakeRunManagerOptions(config, consortium, identity, key, vocabulary, registry);
  std::unique_ptr<net::CaptureFile> relay_capture;  // outlives the hub
  std::unique_ptr<net::RelayHub> relay;             // relay mode only
  RETURN_IF_ERROR(StartRelayHub(config_path, config, consortium, registry, relay_capture, relay));
  options.relay = relay.get();
  ASSIGN_OR_RETURN(std::unique_ptr<RunManager> runs, RunManager::Create(options));
  CoordinatorService service(consortium, *runs);
  grpc::EnableDefaultHealthCheckService(true);
  CoordinatorServers servers;  // its builder made after the call above, as always
  RETURN_IF_ERROR(
      StartServers(config_path, config, identity, registry, service, relay.get(), servers));
  spdlog::info(
      "pplda-coordinator {} of consortium {} ({} compute parties) listening on {} "
      "(mutual TLS){}",
      config.name, consortium.name(), consortium.num_compute_parties(), config.listen,
      relay ? "; relaying sealed MPC frames (relay mode)" : "");
  ResumeUnfinishedRun(*runs);

  const int signal = net::WaitForTerminationSignal();
  spdlog::info("received {}, shutting down", signal == SIGTERM ? "SIGTERM" : "SIGINT");
  ShutDown(runs, relay.get(), servers);
  return absl::OkStatus();
}

}  // namespace pplda::coordinator

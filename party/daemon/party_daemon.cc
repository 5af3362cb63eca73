#include "party/daemon/party_daemon.h"

#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/thread_pool.h"
#include "crypto/paillier_key_file.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "lda/document_reader.h"
#include "lda/preprocessor.h"
#include "lda/vocabulary_file.h"
#include "net/consortium_file.h"
#include "net/metrics_server.h"
#include "net/party_link_service.h"
#include "net/tls_identity.h"
#include "party/daemon/party_control_service.h"
#include "party/daemon/party_daemon_config.h"
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

// Blocks until SIGTERM or SIGINT (blocked in every thread by the caller).
int WaitForSignal() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  int signal = 0;
  sigwait(&set, &signal);
  return signal;
}

}  // namespace

absl::Status RunPartyDaemon(const std::filesystem::path& config_path) {
  // Signals go to WaitForSignal only (blocked before any thread starts).
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);

  ASSIGN_OR_RETURN(PartyDaemonConfig config, LoadPartyDaemonConfig(config_path));
  ASSIGN_OR_RETURN(net::Consortium consortium, net::Consortium::Load(config.consortium));
  ASSIGN_OR_RETURN(net::Participant me, consortium.FindByName(config.name));
  if (!me.is_compute_party()) {
    return absl::InvalidArgumentError(absl::StrCat(config_path.string(), ": party.name: \"",
                                                   config.name, "\" is the coordinator in ",
                                                   config.consortium.string()));
  }
  ASSIGN_OR_RETURN(net::TlsIdentity identity,
                   net::TlsIdentity::Load(config.tls_ca, config.tls_cert, config.tls_key));
  RETURN_IF_ERROR(identity.CheckPinned(consortium, config.name));
  ASSIGN_OR_RETURN(crypto::PaillierKeyShare share, crypto::ReadKeyShareFile(config.key_share));
  const crypto::ThresholdPublicKey& key = *share.public_key();
  if (key.num_parties() != consortium.num_compute_parties() ||
      share.party() != me.party_index + 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        config.key_share.string(), ": the share of party ", share.party(), " of ",
        key.num_parties(), ", but ", config.name, " is compute party ", me.party_index + 1,
        " of ", consortium.num_compute_parties(), " in ", config.consortium.string()));
  }
  if (key.origin() != crypto::KeyOrigin::kDistributed) {
    spdlog::warn("the key share comes from a TRUSTED DEALER: whoever dealt it can decrypt "
                 "everything (tests and demos only)");
  }
  ASSIGN_OR_RETURN(lda::Vocabulary vocabulary, lda::ReadVocabularyFile(config.vocabulary.string()));
  ASSIGN_OR_RETURN(lda::Corpus corpus, LoadDocuments(config, vocabulary));
  RETURN_IF_ERROR(CreateStateDir(config.state_dir));

  ThreadPool pool(config.threads);
  PartyResources resources;
  resources.party_index = me.party_index;
  resources.num_parties = consortium.num_compute_parties();
  resources.key_share = &share;
  resources.corpus = &corpus;
  resources.vocabulary_sha256 = VocabularySha256(vocabulary);
  resources.initial_topics_seed = config.initial_topics_seed;
  resources.state_dir = config.state_dir;
  resources.pool = &pool;
  resources.rng_factory = [] { return std::make_unique<crypto::SodiumRng>(); };

  net::MetricsRegistry registry;
  ASSIGN_OR_RETURN(PartyMetrics metrics, PartyMetrics::Register(registry));
  net::PartyLinkService links(consortium);
  PartyControlService control(config.name, consortium, identity, links, resources,
                              std::chrono::seconds(config.receive_timeout_seconds), metrics);
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(config.listen, identity.server_credentials(), &port);
  net::ConfigureServerBuilder(builder);
  builder.RegisterService(&links);
  builder.RegisterService(&control);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    return absl::UnavailableError(absl::StrCat(config_path.string(), ": party.listen: cannot listen on ",
                                               config.listen, " (in use, or not this host's address)"));
  }
  std::unique_ptr<net::MetricsServer> metrics_server;
  if (config.metrics_listen.has_value()) {
    net::MetricsServer::Options options;
    options.address = *config.metrics_listen;
    ASSIGN_OR_RETURN(metrics_server, net::MetricsServer::Start(registry, options));
  }
  spdlog::info("pplda-party {} (compute party {} of {}) listening on {} (mutual TLS){}",
               config.name, me.party_index, consortium.num_compute_parties(), config.listen,
               config.metrics_listen ? ", metrics on http://" + *config.metrics_listen + "/metrics"
                                     : std::string());
  const int signal = WaitForSignal();
  spdlog::info("received {}, shutting down", signal == SIGTERM ? "SIGTERM" : "SIGINT");
  control.Shutdown(absl::UnavailableError("party " + config.name + " is shutting down"));
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  if (metrics_server) metrics_server->Stop();
  spdlog::info("stopped");
  return absl::OkStatus();
}

}  // namespace pplda::party

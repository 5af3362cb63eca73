#include "coordinator/local_consortium.h"

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/thread_pool.h"
#include "coordinator/lda_coordinator.h"
#include "crypto/mpc_config.h"
#include "crypto/mpc_engine.h"
#include "crypto/paillier_encryptor.h"
#include "crypto/simulated_network.h"
#include "lda/corpus.h"
#include "lda/gibbs_state.h"

namespace pplda::coordinator {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int64_t CountTokens(const ConsortiumParty& p) {
  int64_t n = 0;
  for (const auto& d : p.documents) n += static_cast<int64_t>(d.size());
  return n;
}

std::vector<std::vector<int>> InitialTopics(const ConsortiumParty& p, int num_topics,
                                            uint64_t seed, int index) {
  if (!p.initial_topics.empty() || p.documents.empty()) return p.initial_topics;
  lda::Corpus corpus;
  for (const auto& d : p.documents) corpus.documents.push_back(lda::Document{p.name, d});
  return lda::GibbsState::RandomTopics(corpus, num_topics,
                                       seed * 1000003ULL + static_cast<uint64_t>(index));
}

// The parties' state and their per-party resources.
struct Roles {
  std::vector<std::unique_ptr<crypto::SecureRng>> rngs;
  std::vector<std::unique_ptr<crypto::PaillierEncryptor>> encryptors;
  std::vector<std::unique_ptr<crypto::MpcEngine>> engines;
  std::vector<std::unique_ptr<party::LdaParty>> parties;
};

absl::StatusOr<Roles> CreateRoles(std::vector<ConsortiumParty>& inputs,
                                  const party::SecureLdaPlan& plan, const crypto::DealtKey& key,
                                  const crypto::MpcConfig& config,
                                  crypto::SimulatedNetwork& network,
                                  const std::function<std::unique_ptr<crypto::SecureRng>(int)>& rng_factory,
                                  const LocalConsortiumOptions& options, ThreadPool* pool) {
  Roles roles;
  for (int p = 0; p < plan.num_parties(); ++p) {
    roles.rngs.push_back(rng_factory(2 * p));
    roles.rngs.push_back(rng_factory(2 * p + 1));
    if (roles.rngs[2 * p] == nullptr || roles.rngs[2 * p + 1] == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("no random source for party ", p));
    }
    ASSIGN_OR_RETURN(std::unique_ptr<crypto::MpcEngine> engine,
                     crypto::MpcEngine::Create(config, network.transport(p), *roles.rngs[2 * p]));
    roles.engines.push_back(std::move(engine));
    ASSIGN_OR_RETURN(std::unique_ptr<crypto::PaillierEncryptor> encryptor,
                     crypto::PaillierEncryptor::Create(key.public_key->paillier(),
                                                       *roles.rngs[2 * p + 1]));
    roles.encryptors.push_back(std::move(encryptor));
    std::vector<std::vector<int>> topics =
        InitialTopics(inputs[p], plan.num_topics(), options.seed, p);
    ASSIGN_OR_RETURN(std::unique_ptr<party::LdaParty> party,
                     party::LdaParty::Create(p, options.run_id, plan,
                                             std::move(inputs[p].documents), std::move(topics),
                                             key.shares[p], *roles.encryptors[p], pool));
    roles.parties.push_back(std::move(party));
  }
  return roles;
}

}  // namespace

absl::StatusOr<LocalConsortiumResult> RunLocalConsortium(
    std::vector<ConsortiumParty> parties, const lda::Vocabulary& vocabulary,
    const crypto::DealtKey& key,
    const std::function<std::unique_ptr<crypto::SecureRng>(int stream)>& rng_factory,
    const LocalConsortiumOptions& options) {
  if (parties.size() < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a secure run needs at least 2 data-holding parties, got ", parties.size()));
  }
  if (parties.size() == 2) parties.push_back(ConsortiumParty{"helper", {}, {}});
  const int n = static_cast<int>(parties.size());
  if (key.public_key == nullptr || key.public_key->num_parties() != n ||
      static_cast<int>(key.shares.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the Paillier key must be dealt to the ", n, " compute parties (",
        parties.size() == 3 && parties[2].documents.empty() ? "including the helper" : "all",
        ")"));
  }
  if (options.iterations < 0) {
    return absl::InvalidArgumentError(absl::StrCat("iterations must be >= 0, got ",
                                                   options.iterations));
  }
  const int t = (n - 1) / 2;
  ASSIGN_OR_RETURN(crypto::MpcConfig config, crypto::MpcConfig::Create(n, t));
  std::vector<int64_t> tokens;
  LocalConsortiumResult result;
  for (const ConsortiumParty& p : parties) {
    tokens.push_back(CountTokens(p));
    result.party_names.push_back(p.name);
  }
  ASSIGN_OR_RETURN(party::SecureLdaPlan plan,
                   party::SecureLdaPlan::Create(options.lda, vocabulary.size(), tokens,
                                                key.public_key->paillier(), config));
  ThreadPool pool(options.threads);
  ASSIGN_OR_RETURN(std::unique_ptr<crypto::SimulatedNetwork> network,
                   crypto::SimulatedNetwork::Create(n));
  Clock::time_point start = Clock::now();
  ASSIGN_OR_RETURN(Roles roles, CreateRoles(parties, plan, key, config, *network, rng_factory,
                                            options, &pool));
  ASSIGN_OR_RETURN(std::unique_ptr<LdaCoordinator> coordinator,
                   LdaCoordinator::Create(options.run_id, plan, key.public_key, &pool));
  const uint64_t ct_bytes = key.public_key->paillier().ciphertext_bytes();
  auto update_bytes = [&](const std::vector<party::CountUpdate>& updates) {
    uint64_t b = 0;
    for (const auto& u : updates) b += (u.matrix.size() + u.totals.size()) * ct_bytes;
    return b;
  };
  std::vector<party::CountUpdate> updates(n);
  for (int p = 0; p < n; ++p) {
    ASSIGN_OR_RETURN(updates[p], roles.parties[p]->InitialCounts());
  }
  RETURN_IF_ERROR(coordinator->Fold(updates, 0));
  ConsortiumStats& stats = result.stats;
  stats.coordinator_bytes += update_bytes(updates);
  stats.init_seconds = SecondsSince(start);
  if (options.on_step) options.on_step(IterationReport{0, stats.init_seconds, {}, 0});

  for (int it = 1; it <= options.iterations; ++it) {
    start = Clock::now();
    ASSIGN_OR_RETURN(party::GlobalCounts counts, coordinator->Counts());
    stats.coordinator_bytes +=
        static_cast<uint64_t>(n) * (counts.matrix.size() + counts.totals.size()) * ct_bytes;
    const party::PartyPhaseTimes before = roles.parties[0]->times();
    RETURN_IF_ERROR(network->RunParties([&](int p) -> absl::Status {
      ASSIGN_OR_RETURN(updates[p], roles.parties[p]->RunIteration(*roles.engines[p], counts));
      return absl::OkStatus();
    }));
    Clock::time_point fold_start = Clock::now();
    RETURN_IF_ERROR(coordinator->Fold(updates, it));
    stats.coordinator_bytes += update_bytes(updates);
    IterationReport report;
    report.iteration = it;
    report.aggregation = SecondsSince(fold_start);
    report.seconds = SecondsSince(start);
    report.phases = roles.parties[0]->times();
    report.phases += party::PartyPhaseTimes{-before.selection, -before.exchange,
                                            -before.conversion, -before.weights, -before.draw,
                                            -before.update};
    stats.iteration_seconds += report.seconds;
    stats.aggregation_seconds += report.aggregation;
    if (options.on_step) options.on_step(report);
  }
  stats.phases = roles.parties[0]->times();

  start = Clock::now();
  ASSIGN_OR_RETURN(party::GlobalCounts final_counts, coordinator->Counts());
  // The Paillier threshold's worth of parties decrypt (the lowest ids).
  const int decryptors = key.public_key->threshold();
  std::vector<party::DecryptionShare> shares(decryptors);
  for (int p = 0; p < decryptors; ++p) {
    ASSIGN_OR_RETURN(shares[p], roles.parties[p]->DecryptModel(final_counts));
  }
  ASSIGN_OR_RETURN(result.model, coordinator->Publish(shares, vocabulary));
  stats.publication_seconds = SecondsSince(start);
  if (options.on_step) {
    options.on_step(IterationReport{-1, stats.publication_seconds, {}, 0});
  }

  for (int p = 0; p < n; ++p) {
    result.assignments.push_back(roles.parties[p]->Assignments());
    result.mixtures.push_back(roles.parties[p]->DocumentTopicMixtures());
  }
  crypto::NetworkStats net = network->Stats();
  stats.rounds = net.rounds;
  for (const crypto::PartyTraffic& traffic : net.parties) stats.bytes_sent.push_back(traffic.bytes_sent);
  stats.partial_decryptions_per_iteration = plan.PartialDecryptionsPerIteration(decryptors);
  stats.partial_decryptions = plan.PartialDecryptionsPerIteration(decryptors) * options.iterations +
                              plan.PartialDecryptionsForPublication(decryptors);
  result.num_parties = n;
  result.threshold = t;
  return result;
}

}  // namespace pplda::coordinator

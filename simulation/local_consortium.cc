#include "simulation/local_consortium.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/thread_pool.h"
#include "coordinator/consortium_policy.h"
#include "coordinator/lda_coordinator.h"
#include "crypto/mpc_config.h"
#include "lda/corpus.h"
#include "lda/gibbs_state.h"
#include "privacy/document_caps.h"
#include "simulation/in_process_party_group.h"

namespace pplda::simulation {
namespace {

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

}  // namespace

absl::StatusOr<LocalConsortiumResult> RunLocalConsortium(
    std::vector<ConsortiumParty> parties, const lda::Vocabulary& vocabulary,
    const crypto::DealtKey& key,
    const party::ConsortiumRngFactory& rng_factory, const LocalConsortiumOptions& options) {
  const int holders = static_cast<int>(parties.size());
  ASSIGN_OR_RETURN(const int n, coordinator::ComputeParties(holders));
  if (n > holders) parties.push_back(ConsortiumParty{"helper", {}, {}});
  if (key.public_key == nullptr || key.public_key->num_parties() != n ||
      static_cast<int>(key.shares.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the Paillier key must be dealt to the ", n, " compute parties (",
        n > holders ? "including the helper" : "all", ")"));
  }
  if (options.iterations < 0) {
    return absl::InvalidArgumentError(absl::StrCat("iterations must be >= 0, got ",
                                                   options.iterations));
  }
  const int t = coordinator::MpcThreshold(n);
  ASSIGN_OR_RETURN(crypto::MpcConfig config,
                   crypto::MpcConfig::Create(n, t, crypto::MpcConfig::kDefaultSigma,
                                             options.shared_randomness));
  LocalConsortiumResult result;
  party::SecureLdaOptions lda_options = options.lda;
  if (options.dp.has_value()) {
    privacy::DpCountOptions dp = *options.dp;
    dp.noise_parties = n;
    dp.noise_coalition = t;
    RETURN_IF_ERROR(privacy::ValidateDpCountOptions(dp, options.iterations));
    for (int p = 0; p < n; ++p) {
      for (size_t m = 0; m < parties[p].documents.size(); ++m) {
        lda::Document doc{"", parties[p].documents[m]};
        if (privacy::CapDocument(doc, dp.caps).tokens.size() != doc.tokens.size()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "party ", parties[p].name, ", document ", m,
              " exceeds the DP caps (--dp-max-tokens ", dp.caps.max_tokens,
              ", --dp-max-term-count ", dp.caps.max_per_term, "): cap the documents first"));
        }
      }
    }
    ASSIGN_OR_RETURN(party::SecureDpSetup setup,
                     party::SetUpSecureDp(dp, options.iterations, n, t, vocabulary.size(),
                                          options.lda.num_topics));
    lda_options.dp = std::move(setup.noise);
    result.dp_training = std::move(setup.description);
    result.accountant = std::move(setup.accountant);
  }
  std::vector<int64_t> tokens;
  std::vector<InProcessPartyInput> inputs;
  for (int p = 0; p < n; ++p) {
    tokens.push_back(CountTokens(parties[p]));
    result.party_names.push_back(parties[p].name);
  }
  ASSIGN_OR_RETURN(party::SecureLdaPlan plan,
                   party::SecureLdaPlan::Create(lda_options, vocabulary.size(), tokens,
                                                key.public_key->paillier(), config));
  for (int p = 0; p < n; ++p) {
    // DP: the initial topics must be unpredictable too (the twin's argument
    // treats every draw as the mechanism's secret randomness, and a public
    // seed indexed by position would tie other documents' topics to the
    // target's presence): drawn from the party's own source, not recorded.
    std::vector<std::vector<int>> topics;
    if (options.dp.has_value() && parties[p].initial_topics.empty()) {
      // One uniform topic per token from the party's kInitialTopics source,
      // the derivation of a party daemon without initial_topics_seed
      // (party/party_session.cc), so both publish the same model for the
      // same deterministic test sources.
      std::unique_ptr<crypto::SecureRng> rng =
          rng_factory(p, party::PartyRandomSource::kInitialTopics);
      if (rng == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat("no random source for party ", p));
      }
      for (const std::vector<lda::TermId>& d : parties[p].documents) {
        std::vector<int> z(d.size());
        for (int& k : z) k = static_cast<int>(rng->UniformUint64(static_cast<uint64_t>(plan.num_topics())));
        topics.push_back(std::move(z));
      }
    } else {
      topics = InitialTopics(parties[p], plan.num_topics(), options.seed, p);
    }
    inputs.push_back(InProcessPartyInput{std::move(parties[p].documents), std::move(topics)});
  }
  ThreadPool pool(options.threads);
  ASSIGN_OR_RETURN(std::unique_ptr<InProcessPartyGroup> group,
                   InProcessPartyGroup::Create(std::move(inputs), options.run_id, plan, config,
                                               key, rng_factory, &pool));
  ASSIGN_OR_RETURN(std::unique_ptr<coordinator::LdaCoordinator> coordinator,
                   coordinator::LdaCoordinator::Create(options.run_id, plan, key.public_key,
                                                       &pool));
  coordinator::RunDriverOptions driver;
  driver.iterations = options.iterations;
  uint64_t rounds_at_start = 0, rounds_at_end = 0;
  driver.on_step = [&](const IterationReport& r) {
    if (r.iteration == 0) rounds_at_start = group->network().Stats().rounds;
    if (r.iteration == options.iterations) rounds_at_end = group->network().Stats().rounds;
    if (options.on_step) options.on_step(r);
  };
  ASSIGN_OR_RETURN(coordinator::DrivenRun run,
                   coordinator::DriveRun(*coordinator, *group, vocabulary, driver));
  result.model = std::move(run.model);

  ConsortiumStats& stats = result.stats;
  stats.init_seconds = run.stats.init_seconds;
  stats.iteration_seconds = run.stats.iteration_seconds;
  stats.publication_seconds = run.stats.publication_seconds;
  stats.phases = run.stats.phases;
  stats.aggregation_seconds = run.stats.aggregation_seconds;
  stats.coordinator_bytes = run.stats.coordinator_bytes;
  for (int p = 0; p < n; ++p) {
    result.assignments.push_back(group->party(p).Assignments());
    result.mixtures.push_back(group->party(p).DocumentTopicMixtures());
  }
  const crypto::NetworkStats net = group->network().Stats();
  stats.rounds = net.rounds;
  stats.iteration_rounds = rounds_at_end - rounds_at_start;
  for (const crypto::PartyTraffic& traffic : net.parties) stats.bytes_sent.push_back(traffic.bytes_sent);
  const int decryptors = key.public_key->threshold();
  stats.partial_decryptions_per_iteration = plan.PartialDecryptionsPerIteration(decryptors);
  stats.partial_decryptions = plan.PartialDecryptionsPerIteration(decryptors) * options.iterations +
                              plan.PartialDecryptionsForPublication(decryptors);
  result.num_parties = n;
  result.threshold = t;
  return result;
}

}  // namespace pplda::simulation

#include "simulation/local_consortium.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/thread_pool.h"
#include "coordinator/lda_coordinator.h"
#include "crypto/mpc/mpc_config.h"
#include "lda/corpus.h"
#include "lda/gibbs_state.h"
#include "privacy/document_caps.h"
#include "protocol/consortium_policy.h"
#include "protocol/run_parameters.h"
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

// Secure DP training takes documents already within the caps (the parties
// cap their own; a document over them would break the sensitivity).
absl::Status CheckWithinDpCaps(const std::vector<ConsortiumParty>& parties,
                               const privacy::DocumentCaps& caps) {
  for (const ConsortiumParty& party : parties) {
    for (size_t m = 0; m < party.documents.size(); ++m) {
      lda::Document doc{"", party.documents[m]};
      if (privacy::CapDocument(doc, caps).tokens.size() != doc.tokens.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "party ", party.name, ", document ", m, " exceeds the DP caps (--dp-max-tokens ",
            caps.max_tokens, ", --dp-max-term-count ", caps.max_per_term,
            "): cap the documents first"));
      }
    }
  }
  return absl::OkStatus();
}

// The key dealt to the n compute parties (a helper included), a run
// length, and with DP valid options and documents within the caps.
absl::Status CheckInputs(const std::vector<ConsortiumParty>& parties, int holders,
                         const crypto::DealtKey& key, const LocalConsortiumOptions& options,
                         const std::vector<ConsortiumParty>& data_holders) {
  const int n = static_cast<int>(parties.size());
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
  if (!options.dp.has_value()) return absl::OkStatus();
  privacy::DpCountOptions dp = *options.dp;
  dp.noise_parties = n;
  dp.noise_coalition = protocol::MpcThreshold(n);
  RETURN_IF_ERROR(privacy::ValidateDpCountOptions(dp, options.iterations));
  RETURN_IF_ERROR(CheckWithinDpCaps(data_holders, dp.caps));
  return CheckWithinDpCaps(parties, dp.caps);
}

// The compute parties and the data holders outside the committee: the
// entries of `parties` (and a helper for two) without a committee; a
// committee of options.committee data-less members serving them otherwise.
absl::Status SplitRoles(std::vector<ConsortiumParty> parties, const LocalConsortiumOptions& options,
                        std::vector<ConsortiumParty>& members,
                        std::vector<ConsortiumParty>& data_holders) {
  if (options.committee == 0) {
    ASSIGN_OR_RETURN(const int n, protocol::ComputeParties(static_cast<int>(parties.size())));
    members = std::move(parties);
    if (n > static_cast<int>(members.size())) members.push_back(ConsortiumParty{"helper", {}, {}});
    return absl::OkStatus();
  }
  if (options.committee < 3 || options.committee % 2 == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("a committee of ", options.committee,
                     " compute parties: the MPC needs an odd number, 3 or more"));
  }
  if (parties.empty()) {
    return absl::InvalidArgumentError("a committee needs at least one data holder");
  }
  for (int j = 0; j < options.committee; ++j) {
    members.push_back(ConsortiumParty{absl::StrCat("committee-", j), {}, {}});
  }
  data_holders = std::move(parties);
  return absl::OkStatus();
}

// Party p's initial topics. With DP they must be unpredictable too (the
// twin's argument treats every draw as the mechanism's secret randomness,
// and a public seed indexed by position would tie other documents' topics
// to the target's presence): one uniform topic per token from the party's
// kInitialTopics source, not recorded, the derivation of a party daemon
// without initial_topics_seed (party/party_session.cc), so both publish the
// same model for the same deterministic test sources. Without DP: the
// caller's topics, or the seeded ones.
absl::StatusOr<std::vector<std::vector<int>>> StartTopics(
    const ConsortiumParty& party, int p, int num_topics, const LocalConsortiumOptions& options,
    const party::ConsortiumRngFactory& rng_factory) {
  if (!options.dp.has_value() || !party.initial_topics.empty()) {
    return InitialTopics(party, num_topics, options.seed, p);
  }
  std::unique_ptr<crypto::SecureRng> rng = rng_factory(p, party::PartyRandomSource::kInitialTopics);
  if (rng == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("no random source for party ", p));
  }
  std::vector<std::vector<int>> topics;
  for (const std::vector<lda::TermId>& d : party.documents) {
    std::vector<int> z(d.size());
    for (int& k : z) k = static_cast<int>(rng->UniformUint64(static_cast<uint64_t>(num_topics)));
    topics.push_back(std::move(z));
  }
  return topics;
}

// What the simulated network and the plan say of the run, beside the
// driver's statistics.
void AddNetworkStats(const crypto::NetworkStats& net, const protocol::SecureLdaPlan& plan,
                     int decryptors, int iterations, ConsortiumStats* stats) {
  stats->rounds = net.rounds;
  for (const crypto::PartyTraffic& traffic : net.parties) {
    stats->bytes_sent.push_back(traffic.bytes_sent);
  }
  stats->partial_decryptions_per_iteration = plan.PartialDecryptionsPerIteration(decryptors);
  stats->partial_decryptions = plan.PartialDecryptionsPerIteration(decryptors) * iterations +
                               plan.PartialDecryptionsForPublication(decryptors);
}

}  // namespace

absl::StatusOr<LocalConsortiumResult> RunLocalConsortium(
    std::vector<ConsortiumParty> parties, const lda::Vocabulary& vocabulary,
    const crypto::DealtKey& key, const party::ConsortiumRngFactory& rng_factory,
    const LocalConsortiumOptions& options) {
  const int with_documents = static_cast<int>(parties.size());
  std::vector<ConsortiumParty> members, data_holders;
  RETURN_IF_ERROR(SplitRoles(std::move(parties), options, members, data_holders));
  const int n = static_cast<int>(members.size());
  const int h = static_cast<int>(data_holders.size());
  RETURN_IF_ERROR(CheckInputs(members, with_documents, key, options, data_holders));
  LocalConsortiumResult result;
  std::vector<int64_t> tokens, holder_tokens;
  for (const ConsortiumParty& p : members) {
    tokens.push_back(CountTokens(p));
    result.party_names.push_back(p.name);
  }
  for (const ConsortiumParty& p : data_holders) {
    holder_tokens.push_back(CountTokens(p));
    result.party_names.push_back(p.name);
  }
  // The plan as the coordinator daemon and every party session derive it.
  const protocol::RunPlanInputs plan_inputs{options.lda, options.dp, options.iterations, n,
                                            options.shared_randomness};
  ASSIGN_OR_RETURN(protocol::RunPlan run_plan,
                   protocol::DeriveRunPlan(plan_inputs, vocabulary.size(), tokens,
                                           key.public_key->paillier(), holder_tokens));
  const protocol::SecureLdaPlan& plan = run_plan.lda;
  const crypto::MpcConfig& config = run_plan.mpc;
  if (run_plan.dp.has_value()) {
    result.dp_training = run_plan.dp->description;
    result.accountant = run_plan.dp->accountant;
  }
  // Owner o's inputs: its documents and start topics (sources of owner o).
  auto input_of = [&](ConsortiumParty& p, int o) -> absl::StatusOr<InProcessPartyInput> {
    ASSIGN_OR_RETURN(std::vector<std::vector<int>> topics,
                     StartTopics(p, o, plan.num_topics(), options, rng_factory));
    return InProcessPartyInput{std::move(p.documents), std::move(topics)};
  };
  std::vector<InProcessPartyInput> inputs, holder_inputs;
  for (int p = 0; p < n; ++p) {
    ASSIGN_OR_RETURN(InProcessPartyInput input, input_of(members[p], p));
    inputs.push_back(std::move(input));
  }
  for (int i = 0; i < h; ++i) {
    ASSIGN_OR_RETURN(InProcessPartyInput input, input_of(data_holders[i], plan.HolderOwner(i)));
    holder_inputs.push_back(std::move(input));
  }
  ThreadPool pool(options.threads);
  ASSIGN_OR_RETURN(std::unique_ptr<InProcessPartyGroup> group,
                   InProcessPartyGroup::Create(std::move(inputs), options.run_id, plan, config, key,
                                               rng_factory, &pool, std::move(holder_inputs)));
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
  static_cast<coordinator::RunStats&>(stats) = run.stats;
  for (int p = 0; p < n; ++p) {
    result.assignments.push_back(group->party(p).Assignments());
    result.mixtures.push_back(group->party(p).DocumentTopicMixtures());
  }
  for (int i = 0; i < h; ++i) {
    result.assignments.push_back(group->holder(i).Assignments());
    result.mixtures.push_back(group->holder(i).DocumentTopicMixtures());
    stats.holder_seconds.push_back(group->holder(i).times().Total());
  }
  if (crypto::SimulatedNetwork* links = group->holder_network(); links != nullptr) {
    const crypto::NetworkStats traffic = links->Stats();
    for (const crypto::PartyTraffic& t : traffic.parties) {
      stats.link_bytes_sent.push_back(t.bytes_sent);
      stats.link_bytes_received.push_back(t.bytes_received);
    }
    stats.link_rounds = traffic.rounds;
  }
  AddNetworkStats(group->network().Stats(), plan, key.public_key->threshold(), options.iterations,
                  &stats);
  stats.iteration_rounds = rounds_at_end - rounds_at_start;
  result.num_parties = n;
  result.num_holders = h;
  result.threshold = config.threshold();
  return result;
}

}  // namespace pplda::simulation

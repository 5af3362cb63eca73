#include "coordinator/daemon/run_publication.h"

#include <gmpxx.h>

#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/status_macros.h"
#include "coordinator/published_model_metadata.h"
#include "privacy/dp_training.h"
#include "privacy/privacy_accountant.h"
#include "privacy/privacy_unit.h"
#include "protocol/consortium_policy.h"
#include "protocol/encrypted_counts.h"
#include "protocol/run_dp_budget.h"
#include "protocol/two_holder_disclosure.h"
#include "protocol/wire.h"

namespace pplda::coordinator {
namespace {

protocol::LeakageContext DaemonLeakage(const RunPublication& p) {
  protocol::LeakageContext leakage;
  leakage.setting =
      "secure multi-party run over the network (party daemons, untrusted coordinator)";
  leakage.key_origin = protocol::KeyOriginLabel(p.key->origin());
  leakage.data_holders = protocol::DataHolders(p.context->tokens);
  leakage.compute_parties = p.consortium->num_compute_parties();
  leakage.holders_outside_committee = p.consortium->num_data_holders();
  leakage.modulus_bits = static_cast<int>(mpz_sizeinbase(p.key->paillier().n().get_mpz_t(), 2));
  leakage.insecure_deterministic_rng_seed = p.context->insecure_deterministic_rng_seed;
  return leakage;
}

// The unit: one document as each party's daemon reads it. The parties'
// reading options (split, window) are theirs and unknown here, so the unit
// is stated as such (docs/privacy.md, "The privacy unit").
privacy::PrivacyUnit DaemonDocumentUnit() {
  privacy::PrivacyUnit unit;
  unit.name = "document as its party's daemon reads it";
  unit.description =
      "one document of a party's corpus as its daemon's reading options cut it (with "
      "split input a window or paragraph, not the source file: see each party's config)";
  unit.part_of_a_file = true;
  return unit;
}

// The DP statement of the run's whole budget as requested: the vocabulary's
// part first, then training's (protocol/run_dp_budget.h).
absl::StatusOr<nlohmann::json> DpPrivacy(const RunPublication& p,
                                         const protocol::LeakageContext& leakage) {
  const RunContext& c = *p.context;
  const pplda::v1::RunParameters& parameters = c.parameters;
  const std::optional<protocol::RunDpVocabulary>& vocabulary = c.dp_vocabulary;
  privacy::DpTrainingOptions requested;
  requested.counts = protocol::DpOptionsFromParameters(parameters);
  if (vocabulary.has_value()) {
    requested.vocabulary =
        privacy::DpVocabularyOptions{parameters.dp_vocab_epsilon(), parameters.dp_vocab_delta(),
                                     static_cast<int>(parameters.dp_vocab_max_terms())};
  }
  ASSIGN_OR_RETURN(const privacy::PrivacyAccountant accountant,
                   protocol::ComposeRunAccountant(parameters.dp_epsilon(), parameters.dp_delta(),
                                                  vocabulary ? &vocabulary->plan : nullptr,
                                                  vocabulary ? &vocabulary->accountant : nullptr,
                                                  p.dp->accountant));
  DpPublication dp{&requested, &accountant, DaemonDocumentUnit(), p.dp->description,
                   vocabulary ? &vocabulary->plan : nullptr};
  nlohmann::json statement = PublishedPrivacyStatement(leakage, &dp);
  if (c.session_id != c.run_id) {
    statement["earlier_starts"] = absl::StrCat(
        "this run started over ", p.start - 1,
        " time(s), after a participant was lost before its first saved boundary; an earlier "
        "start may have released its own DP vocabulary to the parties and the coordinator. "
        "Each start is a release of its own, debited in each data holder's ledger under its "
        "own id; the budget above covers this model's start only");
  }
  return statement;
}

nlohmann::json PartyNames(const RunPublication& p) {
  nlohmann::json names = nlohmann::json::array();
  for (const net::Participant& party : p.consortium->owners()) names.push_back(party.name);
  return names;
}

}  // namespace

absl::StatusOr<nlohmann::json> PublishedRunMetadata(const RunPublication& p) {
  const RunContext& c = *p.context;
  const std::string& vocabulary_sha256 = c.run_parameters.vocabulary_sha256();
  nlohmann::json m = nlohmann::json::object();
  m["pplda_version"] = PPLDA_VERSION;
  m["created"] = absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::Now(), absl::UTCTimeZone());
  nlohmann::json& training = m["training"];
  training = SecureTrainingRecord(
      "secure (consortium over the network)", static_cast<int>(c.parameters.iterations()),
      c.parameters.draw_method(), c.parameters.verify_conversion(), p.run->model, p.run->stats);
  training["run_id"] = c.run_id;
  training["consortium"] = p.consortium->name();
  training["decrypted_counts_digest"] = protocol::DigestHex(p.run->decrypted_digest);
  training["mpc_bytes_sent_party0_last_iteration"] = p.last_iteration.mpc_bytes_sent_party0;
  training["mpc_rounds_last_iteration"] = p.last_iteration.mpc_rounds;
  if (p.resumed_after_iteration >= 0) {
    // The coordinator restarted; the timings above cover what ran after.
    training["resumed_after_iteration"] = p.resumed_after_iteration;
  }
  if (c.session_id != c.run_id) {
    // Started over (a loss before the first saved boundary): the parties
    // knew this start as session_id.
    training["start"] = p.start;
    training["session_id"] = c.session_id;
  }
  const protocol::LeakageContext leakage = DaemonLeakage(p);
  if (p.dp == nullptr) {
    nlohmann::json parties = nlohmann::json::array();
    const nlohmann::json names = PartyNames(p);
    for (size_t i = 0; i < c.tokens.size(); ++i) {
      parties.push_back({{"name", names[i]}, {"tokens", c.tokens[i]}});
    }
    const size_t vocabulary_size = c.selected_vocabulary.has_value()
                                       ? c.selected_vocabulary->size()
                                       : p.consortium_vocabulary->size();
    m["corpus"] = {{"parties", parties},
                   {"vocabulary_size", vocabulary_size},
                   {"vocabulary_sha256", vocabulary_sha256}};
    m["privacy"] = PublishedPrivacyStatement(leakage, nullptr);
    return m;
  }
  // Parameters only: no timing, byte or round count, no per-party token
  // count (exact statistics of the documents).
  EraseExactStatistics(&training);
  m["corpus"] = {{"parties", PartyNames(p)}, {"vocabulary_sha256", vocabulary_sha256}};
  if (c.selected_vocabulary.has_value()) {
    m["corpus"]["vocabulary"] = {
        {"source", "secure DP set union over the consortium's public candidates"},
        {"candidates", p.consortium_vocabulary->size()},
        {"candidates_sha256", p.consortium_vocabulary_sha256}};
  }
  ASSIGN_OR_RETURN(m["privacy"], DpPrivacy(p, leakage));
  return m;
}

}  // namespace pplda::coordinator

// PartyResources: what a party daemon holds across runs (loaded at start
// by party/daemon/party_daemon.cc) and hands every session of a run,
// whatever its role: its owner index and the consortium's shape, its key
// share or the public key, its documents, its state folder, its random
// sources and its party.toml policies.
#ifndef PPLDA_PARTY_PARTY_RESOURCES_H_
#define PPLDA_PARTY_PARTY_RESOURCES_H_

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "base/thread_pool.h"
#include "crypto/paillier/paillier_key_share.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "lda/corpus.h"
#include "party/party_randomness.h"
#include "party/privacy_ledger.h"

namespace pplda::party {

// The per-run DP ceiling a participant takes when its party.toml sets
// none: epsilon 10 (the order of the DP topic-model literature's largest
// budgets) and delta 1e-5 (below 1 / the documents of any corpus pplda has
// been run on; `pplda run start`'s default).
inline constexpr PrivacyBudget kDefaultRunDpCeiling{10.0, 1e-5};

// The most a run may make a participant hold, whoever asked for it: K x V
// topic-term cells (its count tables; the packed matrix is smaller) and
// K x D document-topic cells (its documents' counts and mixtures), 2^27
// each (1 GiB of 8-byte cells; K = 1,000 topics over 100,000 terms is
// 10^8).
inline constexpr int64_t kMaxRunCells = int64_t{1} << 27;

// What a party daemon holds across runs (loaded at start).
struct PartyResources {
  // 0-based owner index (net/consortium_file.h): the compute party index,
  // or num_parties + data_index for a data holder; the run transport's
  // party id.
  int party_index = 0;
  int num_parties = 0;  // the committee's compute parties
  int num_holders = 0;  // data holders outside the committee
  int data_index = -1;  // a data holder's index; -1 for a compute party
  // Compute parties: the key share (outlives the session). Data holders:
  // none, and the public key instead.
  const crypto::PaillierKeyShare* key_share = nullptr;
  crypto::ThresholdPublicKeyPtr public_key;
  const lda::Corpus* corpus = nullptr;  // over the consortium vocabulary; may be empty (helper)
  std::string vocabulary_sha256;
  std::string participant;  // this party's name in the consortium (run state files)
  std::optional<uint64_t> initial_topics_seed;  // none: from rng_factory
  std::filesystem::path state_dir;
  ThreadPool* pool = nullptr;
  PartyRngFactory rng_factory;  // this party's sources
  // INSECURE, tests only: the seed when rng_factory gives the deterministic
  // sources (reported to the coordinator at Join).
  std::optional<uint64_t> insecure_deterministic_rng_seed;
  // party.toml accept_two_holder_disclosure (protocol/two_holder_disclosure.h):
  // without it a data-holding party refuses, at Prepare, a run with exactly
  // two data holders and no DP.
  bool accept_two_holder_disclosure = false;
  // party.toml privacy_budget_* (party/privacy_ledger.h): set, this data
  // holder joins only DP runs within what is left of it, debited in
  // state_dir at Prepare.
  std::optional<PrivacyBudget> privacy_budget;
  // party.toml max_run_epsilon and max_run_delta: the most one run may
  // spend of this participant's documents; a DP run asking more is refused
  // at Join, whoever picked its budget (the coordinator is untrusted).
  PrivacyBudget run_dp_ceiling = kDefaultRunDpCeiling;
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_PARTY_RESOURCES_H_

// PartyDaemonConfig: a party daemon's TOML config (party.toml), validated at
// start; every error names the file and the key.
//
//   [party]
//   name = "alpha"                  # this participant in the consortium file
//   consortium = "consortium.toml"
//   documents = "docs/"             # omit for a data-less helper
//   vocabulary = "vocabulary.txt"   # the consortium's public vocabulary
//   key_share = "keys/alpha.key"    # 0600; compute parties only
//   public_key = "keys/public.key"  # data holders (role data) only: they
//                                   # encrypt with it and hold no key share
//   state_dir = "state/alpha"       # created 0700; mixtures per run
//   listen = "0.0.0.0:7101"         # PartyControl + PartyLink (+ health); omit in
//                                   # relay mode (relay = true in the consortium file:
//                                   # the party never listens, it dials the coordinator)
//   box_key = "certs/alpha.box"     # X25519 secret key (0600), sealing relayed MPC
//                                   # frames; required when the consortium has a
//                                   # relay-mode party (every participant then
//                                   # relays its MPC traffic)
//   metrics_listen = "127.0.0.1:9101"   # optional: /metrics, /healthz
//   threads = 0                     # 0 = all cores
//   initial_topics_seed = 7         # optional; default: the OS generator
//   receive_timeout_seconds = 600   # a peer silent this long fails the run
//   accept_two_holder_disclosure = false   # this data holder joins runs with
//                                   # exactly two data holders and no DP, where
//                                   # each holder learns the other's topic-term
//                                   # counts (refused at Prepare otherwise)
//   privacy_budget_epsilon = 8      # optional, with privacy_budget_delta: the
//   privacy_budget_delta = 1e-5     # DP budget of this party's documents over
//                                   # all runs (party/privacy_ledger.h): it joins
//                                   # only DP runs that fit in what is left, and
//                                   # no run without DP
//   max_run_epsilon = 10            # the most one DP run may spend of this
//   max_run_delta = 1e-5            # party's documents (defaults shown,
//                                   # party_resources.h): a run asking more is
//                                   # refused at Join, naming both figures
//   insecure_deterministic_rng_seed = 42   # INSECURE, TESTS ONLY: every random
//                                   # source of this party from a seeded stream
//                                   # (party/party_randomness.h), the streams
//                                   # `pplda simulate --insecure-deterministic-rng-seed`
//                                   # gives this party; default: the OS generator.
//                                   # Refused (an error naming the key) unless
//                                   # built with PPLDA_INSECURE_TEST_RANDOMNESS
//                                   # (OFF by default in Release builds)
//   insecure_capture_sent_payloads = "capture/alpha.capture"   # INSECURE, TESTS
//                                   # ONLY: every plaintext MPC payload this party
//                                   # sends, shares in the clear (party/daemon/
//                                   # sent_payload_capture.h); refused like the seed
//   [input]                         # how documents are read (pplda prepare's options)
//   format = "auto"  split = "sentences"  window_words = 400  max_tokens = 20
//   [tls]
//   ca = "certs/ca.pem"  cert = "certs/alpha.pem"  key = "certs/alpha.key"
#ifndef PPLDA_PARTY_DAEMON_PARTY_DAEMON_CONFIG_H_
#define PPLDA_PARTY_DAEMON_PARTY_DAEMON_CONFIG_H_

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "net/common_daemon_config.h"
#include "party/party_resources.h"
#include "party/privacy_ledger.h"

namespace pplda::party {

// name, consortium, vocabulary, state_dir, metrics_listen, threads and the
// [tls] files: net::CommonDaemonConfig's.
struct PartyDaemonConfig : net::CommonDaemonConfig {
  std::optional<std::filesystem::path> documents;
  std::optional<std::filesystem::path> key_share;   // compute parties
  std::optional<std::filesystem::path> public_key;  // data holders
  std::optional<std::string> listen;                // absent in relay mode
  std::optional<std::filesystem::path> box_key;
  std::optional<uint64_t> initial_topics_seed;
  int receive_timeout_seconds = 600;
  bool accept_two_holder_disclosure = false;
  std::optional<PrivacyBudget> privacy_budget;
  PrivacyBudget run_dp_ceiling = kDefaultRunDpCeiling;
  std::optional<uint64_t> insecure_deterministic_rng_seed;              // tests only
  std::optional<std::filesystem::path> insecure_capture_sent_payloads;  // tests only
  std::string format = "auto";
  std::string split = "none";
  int window_words = 100;
  int max_tokens = 0;
};

// Loads and validates `path`; insecure_deterministic_rng_seed is refused when
// !party::InsecureTestRandomnessAllowed() (party/party_randomness.h).
absl::StatusOr<PartyDaemonConfig> LoadPartyDaemonConfig(const std::filesystem::path& path);
// The same with the build's gate given (tests: the refusal of a build without
// PPLDA_INSECURE_TEST_RANDOMNESS, in any build).
absl::StatusOr<PartyDaemonConfig> LoadPartyDaemonConfig(const std::filesystem::path& path,
                                                        bool insecure_test_randomness_allowed);

}  // namespace pplda::party

#endif  // PPLDA_PARTY_DAEMON_PARTY_DAEMON_CONFIG_H_

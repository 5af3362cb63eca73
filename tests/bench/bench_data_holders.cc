// A committee serving data holders (simulation/local_consortium.h with
// options.committee), one configuration per process so that its peak
// memory is its own: the deterministic SOTU slice of
// tests/protocol/protocol_test_util.h (50 sentence windows per era, each
// capped at 20 tokens: 150 documents, 3,000 tokens) dealt round-robin by
// document to --holders data holders, K = 5, a fixed --bits test key for
// the committee, --iterations secure iterations. --committee 0 runs the
// same documents with every holder a compute party (the baseline: today's
// roles), which needs --holders >= 2.
// Prints one JSON object: seconds per iteration (and party 0's phases, and
// the slowest data holder's own seconds; in one process every role shares
// the 2 cores, so these overlap),
// MPC rounds per iteration, bytes per iteration (the whole run's over the
// iterations: set-up and publication included) sent by the busiest
// committee member over the MPC and over the holders' links, sent and
// received by the busiest data holder, the coordinator's, the peak
// resident memory, and powm_ms, one mpz_powm mod N^2 with a 2|N| + 64-bit
// exponent measured in the same run.
// Run: build/tests/bench/bench_data_holders --committee 3 --holders 10 --bits 2048
// (tests/bench/data_holders_table.sh runs the table of docs/performance.md).
#include <gmpxx.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "crypto/paillier/paillier_testing.h"
#include "nlohmann/json.hpp"
#include "simulation/local_consortium.h"
#include "tests/bench/powm_baseline.h"
#include "tests/protocol/protocol_test_util.h"

namespace pplda {
namespace {

struct Args {
  int committee = 3, holders = 10, bits = 1024, iterations = 3;
};

bool ParseArgs(int argc, char** argv, Args& a) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (flag == "--committee") {
      a.committee = value;
    } else if (flag == "--holders") {
      a.holders = value;
    } else if (flag == "--bits") {
      a.bits = value;
    } else if (flag == "--iterations") {
      a.iterations = value;
    } else {
      return false;
    }
  }
  return argc % 2 == 1 && a.holders >= 1 && a.iterations >= 1;
}

uint64_t Max(const std::vector<uint64_t>& v, size_t begin, size_t end) {
  uint64_t m = 0;
  for (size_t i = begin; i < end && i < v.size(); ++i) m = std::max(m, v[i]);
  return m;
}

int Run(const Args& a) {
  auto slice = protocol_testing::SotuSlice(50, 20, 0);
  if (!slice.ok()) {
    std::fprintf(stderr, "%s\n", std::string(slice.status().message()).c_str());
    return 1;
  }
  std::vector<simulation::ConsortiumParty> parties(a.holders);
  for (int i = 0; i < a.holders; ++i) parties[i].name = "holder" + std::to_string(i);
  int64_t tokens = 0;
  for (int m = 0; m < slice->train.num_documents(); ++m) {
    parties[m % a.holders].documents.push_back(slice->train.documents[m].tokens);
    tokens += static_cast<int64_t>(slice->train.documents[m].tokens.size());
  }
  const int n = a.committee > 0 ? a.committee : (a.holders == 2 ? 3 : a.holders);
  auto key = crypto::MakeTestKey(a.bits, crypto::SharingScheme::kShamir, n, (n - 1) / 2 + 1, 3);
  if (!key.ok()) {
    std::fprintf(stderr, "%s\n", std::string(key.status().message()).c_str());
    return 1;
  }
  simulation::LocalConsortiumOptions options;
  options.lda.num_topics = 5;
  options.iterations = a.iterations;
  options.committee = a.committee;
  auto result = simulation::RunLocalConsortium(std::move(parties), slice->train.vocabulary, *key,
                                               protocol_testing::SeededRngs(17), options);
  if (!result.ok()) {
    std::fprintf(stderr, "%s\n", std::string(result.status().message()).c_str());
    return 1;
  }
  const simulation::ConsortiumStats& s = result->stats;
  const double it = a.iterations;
  const size_t members = static_cast<size_t>(result->num_parties);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  nlohmann::json phases = nlohmann::json::object();
  const auto seconds = s.phases.Seconds();
  for (size_t i = 0; i < seconds.size(); ++i) {
    phases[std::string(protocol::kPhaseNames[i])] = seconds[i] / it;
  }
  nlohmann::json out = {
      {"committee", a.committee},
      {"holders", a.holders},
      {"compute_parties", result->num_parties},
      {"bits", a.bits},
      {"tokens", tokens},
      {"iterations", a.iterations},
      {"s_per_iteration", s.iteration_seconds / it},
      {"phases_s_per_iteration", phases},
      {"mpc_rounds_per_iteration", static_cast<double>(s.iteration_rounds) / it},
      {"link_rounds", s.link_rounds},
      {"member_mpc_bytes_per_iteration", Max(s.bytes_sent, 0, members) / it},
      {"member_link_bytes_per_iteration", Max(s.link_bytes_sent, 0, members) / it},
      {"holder_bytes_sent_per_iteration",
       Max(s.link_bytes_sent, members, s.link_bytes_sent.size()) / it},
      {"holder_bytes_received_per_iteration",
       Max(s.link_bytes_received, members, s.link_bytes_received.size()) / it},
      {"coordinator_bytes_per_iteration", s.coordinator_bytes / it},
      {"member_s_per_iteration", s.phases.Total() / it},
      {"slowest_holder_s_per_iteration",
       s.holder_seconds.empty()
           ? 0.0
           : *std::max_element(s.holder_seconds.begin(), s.holder_seconds.end()) / it},
      {"peak_rss_mb", usage.ru_maxrss / 1024.0},
      {"powm_ms", 1e3 * bench::PowmSeconds(*key)}};
  std::printf("%s\n", out.dump().c_str());
  return 0;
}

}  // namespace
}  // namespace pplda

int main(int argc, char** argv) {
  pplda::Args args;
  if (!pplda::ParseArgs(argc, argv, args)) {
    std::fprintf(stderr,
                 "usage: bench_data_holders [--committee N] [--holders H] [--bits B] "
                 "[--iterations I]\n");
    return 2;
  }
  return pplda::Run(args);
}

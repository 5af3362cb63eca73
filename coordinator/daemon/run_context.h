// RunContext: what the coordinator daemon holds of one start of a run once
// its parties joined (and the DP vocabulary, when any, was selected), or
// what it reads back from the run's saved boundary when it resumes.
// Plain data; thread-safety of a value.
#ifndef PPLDA_COORDINATOR_DAEMON_RUN_CONTEXT_H_
#define PPLDA_COORDINATOR_DAEMON_RUN_CONTEXT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lda/vocabulary.h"
#include "proto/party_control_service.pb.h"
#include "protocol/run_dp_budget.h"

namespace pplda::coordinator {

struct RunContext {
  std::string run_id;
  // The id the parties know this start by: the protocol (plan digest,
  // updates, state header) uses it; files and status, run_id.
  std::string session_id;
  pplda::v1::RunParameters parameters;      // as started
  pplda::v1::RunParameters run_parameters;  // vocabulary_sha256 = the run's vocabulary's
  std::vector<int64_t> tokens;              // per owner (net/consortium_file.h), owner order
  std::optional<protocol::RunDpVocabulary> dp_vocabulary;
  std::optional<lda::Vocabulary> selected_vocabulary;  // DP vocabulary runs
  std::optional<uint64_t> insecure_deterministic_rng_seed;
};

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_DAEMON_RUN_CONTEXT_H_

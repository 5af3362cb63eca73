// The differential-privacy options shared by `pplda train` and
// `pplda audit` (the audit must train its shadows exactly as the real run):
//   --dp-epsilon E [--dp-delta D]       DP noise on the published counts;
//                                       needs --max-tokens L (sensitivity);
//   --dp-vocab-epsilon E1 [--dp-vocab-delta D1] [--dp-vocab-max-terms N]
//                                       DP vocabulary selection.
// What they imply for loading the corpus:
//   - DP vocabulary: raw documents only (a prepared folder's vocabulary was
//     filtered by document frequency, which is not private), and --min-df /
//     --max-df are replaced by the DP selection (set to 1 and 1.0);
//   - DP model: every training document is cut to its first L tokens, also
//     when the input is a prepared folder.
#ifndef PPLDA_CLI_DP_FLAGS_H_
#define PPLDA_CLI_DP_FLAGS_H_

#include <cstdint>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "cli/input_flags.h"
#include "lda/corpus.h"
#include "privacy/dp_training.h"

namespace pplda::cli {

struct DpFlags {
  double epsilon = 0;  // 0 = no DP noise on the model
  double delta = 1e-5;
  double vocab_epsilon = 0;  // 0 = no DP vocabulary selection
  double vocab_delta = 1e-5;
  int vocab_max_terms = 20;
};

void AddDpFlags(CLI::App* app, DpFlags* flags);

// The options the flags ask for (InvalidArgument naming the flag when they
// conflict with the input flags, e.g. --dp-epsilon without --max-tokens or
// --dp-vocab-epsilon with a prepared folder).
absl::StatusOr<privacy::DpTrainingOptions> DpOptionsFrom(const DpFlags& dp,
                                                         const InputFlags& input);

// `input` adjusted for DP vocabulary selection (min_df 1, max_df 1.0), with
// a log line when that changed the user's options.
InputFlags InputFlagsForDp(const InputFlags& input, const privacy::DpTrainingOptions& options,
                           bool quiet);

// Cuts every document to its first L tokens when the model is DP; returns
// how many documents were cut.
int64_t ApplyDpCap(const privacy::DpTrainingOptions& options, lda::Corpus* corpus);

}  // namespace pplda::cli

#endif  // PPLDA_CLI_DP_FLAGS_H_

// The privacy options shared by `pplda train` and `pplda audit` (the audit
// must train its shadows exactly as the real run):
//   --dp-vocab-epsilon E1 [--dp-vocab-delta D1] [--dp-vocab-max-terms N]
//       DP vocabulary selection: an (E1, D1)-DP release of the list of terms
//       (privacy/dp_vocabulary.h); the budget covers that list only;
//   --final-noise-sigma S
//       discrete Gaussian noise added once to the final counts: a heuristic
//       with NO differential-privacy guarantee (privacy/final_count_noise.h);
//       no epsilon or delta is printed or stored for it;
//   --dp-epsilon, --dp-delta
//       removed: they claimed (epsilon, delta)-DP for that same final-count
//       noise, which does not give it. Still recognised, so that using them
//       is an error that says why and names the replacement.
// What they imply for loading the corpus:
//   - DP vocabulary: raw documents only (a prepared folder's vocabulary was
//     filtered by document frequency, which is not private), and --min-df /
//     --max-df are replaced by the DP selection (set to 1 and 1.0).
// What they imply for the output: the privacy unit (one document as pplda
// reads it; with --split a window or paragraph, not the source file) and
// what was privatised, printed on stdout; warnings on stderr when the
// vocabulary or the counts are not private (ReportPrivacy).
#ifndef PPLDA_CLI_DP_FLAGS_H_
#define PPLDA_CLI_DP_FLAGS_H_

#include <cstdint>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "cli/input_flags.h"
#include "lda/corpus.h"
#include "privacy/dp_training.h"
#include "privacy/privacy_accountant.h"
#include "privacy/privacy_unit.h"

namespace pplda::cli {

struct DpFlags {
  double final_noise_sigma = 0;  // 0 = no final-count noise
  double vocab_epsilon = 0;      // 0 = no DP vocabulary selection
  double vocab_delta = 1e-5;
  int vocab_max_terms = 20;
  // The removed options: any value given is an error (DpOptionsFrom).
  double removed_epsilon = 0;
  double removed_delta = 0;
};

void AddDpFlags(CLI::App* app, DpFlags* flags);

// The options the flags ask for (InvalidArgument naming the flag when they
// conflict with the input flags, e.g. --dp-vocab-epsilon with a prepared
// folder, or when a removed option is used).
absl::StatusOr<privacy::DpTrainingOptions> DpOptionsFrom(const DpFlags& dp,
                                                         const InputFlags& input);

// `input` adjusted for DP vocabulary selection (min_df 1, max_df 1.0), with
// a log line when that changed the user's options.
InputFlags InputFlagsForDp(const InputFlags& input, const privacy::DpTrainingOptions& options,
                           bool quiet);

// The privacy unit of documents loaded with `input`.
privacy::PrivacyUnit PrivacyUnitFor(const InputFlags& input);

// Tells the user what the privacy options give, when any is set:
// warnings (spdlog, stderr, shown even with --quiet) when the vocabulary is
// not private and when the counts are not private; on stdout, the budget of
// what was privatised only (the vocabulary, from `accountant`; nothing when
// it is empty or null), labelled with what it covers, and the privacy unit
// with the group-privacy bound for a whole file; the final-count noise with
// the statement that it has no DP guarantee. `publishing` is true for
// `pplda train` (a model is released) and false for the audit (nothing is
// released: the line says the budget applies to each model).
void ReportPrivacy(const privacy::DpTrainingOptions& options,
                   const privacy::PrivacyAccountant* accountant, const privacy::PrivacyUnit& unit,
                   bool publishing);

}  // namespace pplda::cli

#endif  // PPLDA_CLI_DP_FLAGS_H_

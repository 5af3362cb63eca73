// The privacy options shared by `pplda train` and `pplda audit` (the audit
// must train its shadows exactly as the real run):
//   --dp-vocab-epsilon E1 [--dp-vocab-delta D1] [--dp-vocab-max-terms N]
//       DP vocabulary selection: an (E1, D1)-DP release of the list of terms
//       (privacy/dp_vocabulary.h); the budget covers that list only;
//   --final-noise-sigma S
//       discrete Gaussian noise added once to the final counts: a heuristic
//       with NO differential-privacy guarantee (privacy/final_count_noise.h);
//       no epsilon or delta is printed or stored for it;
//   --dp-epsilon E [--dp-delta D] [--dp-max-tokens L] [--dp-max-term-count c]
//   [--dp-noisy-iterations R] [--dp-sample-rate q]
//       (defaults L = 20, c = 1, R = min(10, --iterations), and N = 5 for
//       the vocabulary: the settings of docs/privacy.md's utility study)
//       DP training for the whole run (privacy/dp_count_training.h): the
//       batched sampler draws against noisy counts released at R of the
//       iterations, documents capped at L tokens and c per term, each
//       release of the counts of a fresh Poisson sample of the documents
//       (rate q, default 1 = all; `pplda train` and `pplda audit` only, not
//       the secure protocol), divided by q; (E, D) is
//       the run's budget, the DP vocabulary included (its (E1, D1) is
//       debited first; without --dp-vocab-delta its delta is D / 2). Needs
//       the batched sampler (SamplerForDp). These
//       names used to mean noise added once to the final counts with a
//       false (epsilon, delta) claim; that mode is --final-noise-sigma now
//       and claims nothing. --dp-delta, --dp-max-tokens,
//       --dp-max-term-count, --dp-noisy-iterations and --dp-sample-rate
//       without --dp-epsilon are an error naming the flag; a rate outside
//       [2^-12, 1] or not a number is an error naming --dp-sample-rate.
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

// --dp-noisy-iterations when not given: min(kDefaultNoisyIterations,
// --iterations).
inline constexpr int kAutoNoisyIterations = -1;
inline constexpr int kDefaultNoisyIterations = 10;
// --dp-vocab-max-terms when not given (N), also for `pplda vocab --dp`.
inline constexpr int kDefaultDpVocabMaxTerms = 5;

struct DpFlags {
  double final_noise_sigma = 0;  // 0 = no final-count noise
  double vocab_epsilon = 0;      // 0 = no DP vocabulary selection
  double vocab_delta = 1e-5;
  // The defaults of N, L, c and R are the settings docs/privacy.md measures
  // ("Utility study"): within 15% of the non-private model's perplexity and
  // coherence on the same vocabulary at epsilon 8 on sentence windows.
  int vocab_max_terms = kDefaultDpVocabMaxTerms;  // N
  double epsilon = 0;  // 0 = no DP training
  double delta = 1e-5;
  int max_tokens = 20;     // L
  int max_per_term = 1;    // c
  // R; 0 = every iteration; kAutoNoisyIterations = min(10, --iterations),
  // resolved by DpOptionsFrom.
  int noisy_iterations = kAutoNoisyIterations;
  double sample_rate = 1;    // q; 1 = every document in every release
  // Set by AddDpFlags: whether the training options were given (they need
  // --dp-epsilon).
  const CLI::Option* epsilon_option = nullptr;
  const CLI::Option* delta_option = nullptr;
  const CLI::Option* vocab_delta_option = nullptr;
  const CLI::Option* max_tokens_option = nullptr;
  const CLI::Option* max_per_term_option = nullptr;
  const CLI::Option* noisy_iterations_option = nullptr;
  const CLI::Option* sample_rate_option = nullptr;
};

// All of them, --dp-sample-rate included: `pplda train` and `pplda audit`.
void AddDpFlags(CLI::App* app, DpFlags* flags);
// The DP vocabulary flags only (--dp-vocab-epsilon, --dp-vocab-delta,
// --dp-vocab-max-terms): `pplda simulate`, whose DP vocabulary is the secure
// one over public candidates (--dp-vocab-candidates).
void AddDpVocabularyFlags(CLI::App* app, DpFlags* flags);
// The DP training flags only (--dp-epsilon, --dp-delta, --dp-max-tokens,
// --dp-max-term-count, --dp-noisy-iterations): `pplda simulate`, whose
// vocabulary is a file or the union, and which has no final-count noise.
void AddDpTrainingFlags(CLI::App* app, DpFlags* flags);

// The options the flags ask for (InvalidArgument naming the flag when they
// conflict with the input flags, e.g. --dp-vocab-epsilon with a prepared
// folder, or a DP training option is given without --dp-epsilon), for a run
// of `iterations` Gibbs iterations (--dp-noisy-iterations defaults to
// min(10, iterations)).
absl::StatusOr<privacy::DpTrainingOptions> DpOptionsFrom(const DpFlags& dp,
                                                         const InputFlags& input,
                                                         int iterations);
// R as DpOptionsFrom resolves it.
int ResolvedNoisyIterations(const DpFlags& dp, int iterations);

// `input` adjusted for DP vocabulary selection (min_df 1, max_df 1.0), with
// a log line when that changed the user's options.
InputFlags InputFlagsForDp(const InputFlags& input, const privacy::DpTrainingOptions& options,
                           bool quiet);

// The sampler to train with: `kind` unless DP training is on, then
// "batched" (InvalidArgument naming --sampler when `given` and not batched:
// DP training needs every token drawn against the iteration's start counts).
absl::StatusOr<std::string> SamplerForDp(const std::string& kind, bool given,
                                         const privacy::DpTrainingOptions& options);

// The privacy unit of documents loaded with `input`.
privacy::PrivacyUnit PrivacyUnitFor(const InputFlags& input);

// Tells the user what the privacy options give, when any is set:
// warnings (spdlog, stderr, shown even with --quiet) when the vocabulary is
// not private and when the counts are not private; on stdout, the budget of
// what was privatised only (from `accountant`, or from the options when it
// is null; nothing when nothing DP was released), labelled with what it
// covers (the whole model, the counts given the vocabulary, or the
// vocabulary only), the noise of DP training, and the privacy unit with the
// group-privacy bound for a whole file; the final-count noise with the
// statement that it has no DP guarantee. `publishing` is true for
// `pplda train` (a model is released) and false for the audit (nothing is
// released: the line says the budget applies to each model).
void ReportPrivacy(const privacy::DpTrainingOptions& options,
                   const privacy::PrivacyAccountant* accountant, const privacy::PrivacyUnit& unit,
                   bool publishing);

}  // namespace pplda::cli

#endif  // PPLDA_CLI_DP_FLAGS_H_

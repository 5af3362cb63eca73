// Final-count noise: exact discrete Gaussian noise N_Z(0, sigma^2) added
// once to every topic-term count n_k(t) of a trained model, then negative
// counts clamped to 0.
//
// NO DIFFERENTIAL-PRIVACY GUARANTEE. This is a heuristic, kept so that its
// effect can be measured (`pplda audit`), not a DP mechanism: the final
// counts of a collapsed Gibbs chain depend on every document through the
// chain (one document can move other documents' assignments), so their
// sensitivity to one document is not bounded, and no (epsilon, delta)
// follows from any sigma. Nothing that uses this file may print or store an
// epsilon or delta for the noised counts. (An earlier version of this
// noise was calibrated from an epsilon and published as "(epsilon,
// delta)-DP"; that claim was false and is gone. DP training that holds for
// the whole run adds noise at every noisy iteration and draws against it:
// privacy/dp_count_training.h, `--dp-epsilon` today.)
//
// sigma is given directly. For reference, the old final-step `--dp-epsilon E` used
// sigma^2 = L^2 / (2 rho(E, delta)) for documents capped at L tokens
// (NominalSigmaForEpsilon below): sigma 34.5, 64.8 and 245 for L = 50,
// delta 1e-5 and E = 8, 4, 1.
//
// Errors: InvalidArgument naming the option when sigma is not in
// (0, 2^40] (--final-noise-sigma).
// Thread-safety: a pure function of its inputs and the rng's stream.
#ifndef PPLDA_PRIVACY_FINAL_COUNT_NOISE_H_
#define PPLDA_PRIVACY_FINAL_COUNT_NOISE_H_

#include <gmpxx.h>

#include <cstdint>

#include "absl/status/statusor.h"
#include "crypto/random/secure_rng.h"
#include "lda/lda_model.h"
#include "nlohmann/json.hpp"

namespace pplda::privacy {

struct FinalCountNoiseOptions {
  double sigma = 0;  // > 0
};

absl::Status ValidateFinalCountNoiseOptions(const FinalCountNoiseOptions& options);

struct FinalCountNoise {
  FinalCountNoiseOptions options;
  mpq_class sigma_squared;  // sigma^2 rounded up to a multiple of 2^-20
  // How many noisy counts fell below 0 and were set to 0. An exact,
  // data-dependent figure: for tests and the operator's log only, never
  // written into a model file (Describe() leaves it out).
  int64_t clamped_cells = 0;

  // The model file's and the audit's record of the noise: its parameters and
  // the statement that it carries no DP guarantee. Holds no epsilon or delta
  // and nothing that depends on the data.
  nlohmann::json Describe() const;
};

// Adds the noise to model->topic_term_counts in place (the model is left
// untouched on error).
absl::StatusOr<FinalCountNoise> AddFinalCountNoise(const FinalCountNoiseOptions& options,
                                                   crypto::SecureRng& rng, lda::LdaModel* model);

// The sigma the old final-step `--dp-epsilon E --dp-delta D --max-tokens L` added
// (sqrt of DiscreteGaussianVariance(L, E, D)), so that a user of the old
// option can ask for the same noise: a noise scale, not a guarantee.
absl::StatusOr<double> NominalSigmaForEpsilon(int32_t max_tokens_per_document, double epsilon,
                                              double delta);

// The sentence every output about this noise carries.
inline constexpr char kFinalCountNoiseDisclaimer[] =
    "heuristic with NO differential-privacy guarantee: the final counts of a Gibbs chain depend "
    "on every document through the chain, so their sensitivity is not bounded and no (epsilon, "
    "delta) holds for them";

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_FINAL_COUNT_NOISE_H_

// SecureDpNoise: the public parameters of DP training in a secure run
// (docs/protocol.md, "DP training"; docs/privacy.md, "Secure DP
// training"), and each compute party's noise for one release.
//
// Derived identically by every party and the coordinator from the public DP
// options (privacy/dp_count_training.h CalibrateDistributedCountNoise with
// n = the compute parties and t = the MPC threshold): the run's iteration
// count T, the 1-based iterations that start with a release (the plaintext
// twin's schedule s_r shifted by one), every party's share variance s^2 and
// the share bound B.
//
// A release at the start of iteration i: every compute party p draws
// Z_p(t, k) ~ N_Z(0, s^2) clamped to [-B, B] for every (term, topic) cell
// (privacy/distributed_discrete_gaussian.h SampleNoiseShare, exact integer
// sampler over the party's DP-noise source: libsodium in production),
// and its noise totals Z_p(k) = sum_t Z_p(t, k). NoiseForRelease returns
// them term-major; the party encrypts them in the CountUpdate layout and
// sends them with its update of iteration i - 1 (party/lda_party.h).
// Invariants (Validate): T >= 1; the noisy iterations strictly increasing
// in [1, T]; s^2 >= 1; B in [1, 2^50].
// Thread-safety: a plain value; NoiseForRelease as the rng.
#ifndef PPLDA_PROTOCOL_SECURE_DP_NOISE_H_
#define PPLDA_PROTOCOL_SECURE_DP_NOISE_H_

#include <gmpxx.h>

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crypto/random/secure_rng.h"
#include "nlohmann/json.hpp"
#include "privacy/distributed_discrete_gaussian.h"
#include "privacy/dp_count_training.h"
#include "privacy/privacy_accountant.h"

namespace pplda::protocol {

struct SecureDpNoise {
  int iterations = 0;                 // T
  std::vector<int> noisy_iterations;  // 1-based, increasing
  mpq_class share_variance;           // s^2
  int64_t share_bound = 0;            // B

  bool IsNoisy(int iteration) const;
  absl::Status Validate() const;
};

// From the calibration and the twin's 0-based schedule.
SecureDpNoise MakeSecureDpNoise(const privacy::DistributedNoise& noise,
                                const std::vector<int>& schedule, int iterations);

struct NoiseShares {
  std::vector<int64_t> term_major;  // V x K, |entry| <= B
  std::vector<int64_t> totals;      // K, sum over terms
};

// A run's DP setup from its public DP options, identical at every
// participant: the accountant with the run's budget, the truncation and
// every noisy iteration debited (before anything is computed: a refused
// release is never made), the SecureDpNoise of the plan, and the mechanism's
// record (DescribeDpCountTraining with the distributed noise). n compute
// parties, t = the MPC threshold (the coalition the noise must withstand).
// Errors: ValidateDpCountOptions's and the calibration's (naming the flag).
struct SecureDpSetup {
  SecureDpNoise noise;
  privacy::PrivacyAccountant accountant;
  nlohmann::json description;
};
absl::StatusOr<SecureDpSetup> SetUpSecureDp(const privacy::DpCountOptions& options,
                                            int iterations, int parties, int coalition,
                                            int32_t num_terms, int num_topics);

// One party's shares for one release. InvalidArgument when the parameters
// do not Validate.
absl::StatusOr<NoiseShares> NoiseForRelease(const SecureDpNoise& dp, int32_t num_terms,
                                            int num_topics, crypto::SecureRng& rng);

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_SECURE_DP_NOISE_H_

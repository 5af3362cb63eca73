// DP training for the whole run (DESIGN section 6): the batched
// collapsed Gibbs sampler (lda/batched_gibbs_sampler.h) drawing against
// noisy global topic-term counts, with the noise of every release debited
// from the run's PrivacyAccountant. Plaintext, one party.
//
// Mechanism. Documents are capped first (privacy/document_caps.h: at most L
// tokens, at most c per term), so one document's tokens form a K x V count
// matrix of squared L2 norm at most Delta^2 = floor(L/c) c^2 + (L mod c)^2
// <= L c whatever their topics. Of the T iterations, R (the noisy ones,
// 1 <= R <= T) start with a release
//     N_r = C(z) + Z_r,   Z_r(t, k) ~ N_Z(0, sigma^2) i.i.d. (exact sampler,
//                         privacy/discrete_gaussian.h, randomness from the
//                         SecureRng: libsodium in `pplda train`),
// C(z) the exact topic-term counts of the current assignments; negative
// noisy counts are clamped to 0 (and, as post-processing, counts above
// 2^31 - 1 to that), because the sampler's weights (n_k(t) + beta) must be
// non-negative. The topic totals the draws use are derived from the
// UNCLAMPED noisy matrix and then clamped, n_k = max(sum_t N_r(t, k), 0)
// (post-processing, no extra noise): the secure protocol computes exactly
// this function, its noisy totals being the fold of the noisy rows
// (party/lda_party.h, DP mode), so the twin and the secure run agree.
//
// Distributed noise (options.noise_parties = n > 0, the plaintext twin of
// the secure protocol): Z_r(t, k) is the sum of n shares, each
// N_Z(0, s^2) clamped to [-B, B], calibrated by
// privacy/distributed_discrete_gaussian.h for a coalition of
// options.noise_coalition = t parties (s^2 = sigma^2 / (n - t), the KLS21
// summation bound with its tau term); the truncation's delta is debited as
// its own release before the first noisy iteration.
// Each iteration, noisy or not, draws every token of document m against the
// LATEST release and document m's own tokens, assignments and n_m(k) only
// (the batched sampler's SetDrawCounts); the exact C(z) is read by the
// releases and nothing else.
//
// Which iterations touch the data of other documents: exactly the R noisy
// ones, through N_r. A non-noisy iteration reads the last release (public)
// and each document's own data: it is post-processing plus per-document
// local work. Release r is at the start of iteration s_r (0-based),
//     s_r = floor(r (T - 1) / (R - 1)) for R >= 2,  s_0 = 0 when R = 1,
// so the first iteration always has a release and (R >= 2) the last
// iteration starts with one. The published model is the last release N_{R-1}
// (the counts of the last noisy iteration, already paid for: post-
// processing). The last iteration's draws are not published; the exact
// counts, the assignments z and the document-topic counts never are.
//
// Privacy (adjacency: add or remove one document as pplda reads it,
// privacy/privacy_unit.h). Reveal to the adversary, besides every N_r, the
// assignments of every document but the target d: they evolve from the
// releases and their own data only, by the same kernel in both worlds. Given
// that history, N_r = C_others + C_d(z_d) + Z_r with Z_r fresh, and
// z_d's distribution given the history is SOME distribution over
// assignments; for each assignment the two worlds' outputs are Gaussians
// whose means differ by C_d(z_d), of squared norm <= Delta^2, so each release
// is Delta^2 / (2 sigma^2)-zCDP (CKS20 Thm. 14), and mixing over z_d keeps
// that (Renyi divergence is jointly quasi-convex, van Erven & Harremoes 2014
// Thm. 13). The R releases compose adaptively (rho adds, BS16 Lemma 2.3):
// R Delta^2 / (2 sigma^2)-zCDP, converted with BS16 Prop. 1.3 and composed
// with the vocabulary's (epsilon, delta) by the accountant
// (privacy/privacy_accountant.h). The Gibbs draws must be unpredictable to
// the adversary (the argument treats them as the mechanism's randomness, and
// per-document streams are indexed by position, which adding a document
// shifts): TrainWithNoisyCounts draws the sampler's seed from the noise
// SecureRng and never records it.
//
// Calibration (CalibrateCountNoise): the budget (E, D) of the accountant,
// minus what its (epsilon, delta) releases (the vocabulary) spent, gives
// rho = ((sqrt(ln(1/D') + E') - sqrt(ln(1/D')))^2 (1 - 1e-9) for the R
// releases; sigma^2 = R Delta^2 / (2 rho) rounded up to a multiple of 2^-20
// (privacy/zcdp_calibration.h DiscreteGaussianForComposition).
//
// Poisson subsampling (options.sample_rate = q < 1, --dp-sample-rate; central
// noise only). Release r samples the documents afresh: document m is in
// S_r independently with probability exactly q (PoissonSampleDocuments:
// one uniform 64-bit integer from the noise SecureRng compared with the
// integer q 2^64; no floating point), and
//     N_r = C_{S_r}(z) + Z_r,   Z_r(t, k) ~ N_Z(0, sigma_q^2) i.i.d.,
// C_{S_r}(z) the topic-term counts of the sampled documents' current
// assignments. The draws and the published model use the estimate of the
// whole corpus's counts N_r / q, each cell rounded to the nearest integer
// (llround; the batched sampler's SetDrawCounts takes integers), then
// clamped and totalled exactly as above (ClampNoisyCounts on the scaled
// unclamped cells): post-processing. S_r, its size and the scaled estimate
// before clamping are never published or logged. Privacy: as above, given
// the history and every other document's inclusion, the two worlds'
// outputs for each z_d are N_Z(c, sigma^2) against the mixture
// (1 - q) N_Z(c, sigma^2) + q N_Z(c + C_d(z_d), sigma^2); the Poisson-
// subsampled discrete Gaussian's Renyi DP bounds both directions at every
// integer order 2..256 (privacy/sampled_gaussian_rdp.h: the exact A_alpha of
// Mironov, Talwar & Zhang 2019 for one direction, our symmetry argument
// for the other), mixing over z_d keeps it (quasi-convexity, as above), and
// the R releases compose as RDP releases in the accountant, converted by
// Canonne, Kamath & Steinke 2020 Prop. 12. Calibration
// (CalibrateSampledCountNoise): the smallest sigma_q^2 on the 2^-20 grid
// whose R releases convert to at most (E', D') (the budget minus the
// vocabulary's), by bisection. q = 1 is the mechanism above, bit for bit:
// no sampling draw, the zCDP accounting and BS16 conversion.
//
// Errors (InvalidArgument naming the flag): options out of range
// (ValidateDpCountOptions); FailedPrecondition when the accountant has no
// budget, already holds zCDP releases, or (during training) refuses a
// release: training stops and nothing is returned.
// Thread-safety: pure functions of their inputs and the rng's stream; the
// sampler uses `threads` threads internally.
#ifndef PPLDA_PRIVACY_DP_COUNT_TRAINING_H_
#define PPLDA_PRIVACY_DP_COUNT_TRAINING_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "crypto/random/secure_rng.h"
#include "lda/corpus.h"
#include "lda/gibbs_state.h"
#include "lda/lda_model.h"
#include "lda/sampler_options.h"
#include "lda/term_topic_counts.h"
#include "nlohmann/json.hpp"
#include "privacy/discrete_gaussian.h"
#include "privacy/distributed_discrete_gaussian.h"
#include "privacy/document_caps.h"
#include "privacy/privacy_accountant.h"
#include "privacy/sampled_gaussian_rdp.h"
#include "privacy/zcdp_calibration.h"

namespace pplda::privacy {

struct DpCountOptions {
  double epsilon = 0;        // the run's budget, vocabulary included (--dp-epsilon)
  double delta = 1e-5;       // (--dp-delta)
  DocumentCaps caps;         // L, c
  int noisy_iterations = 0;  // R; 0 = every iteration (--dp-noisy-iterations)
  // Distributed noise (secure runs and their plaintext twin): 0 = one
  // central discrete Gaussian; n >= 1: the sum of n parties' shares, of
  // which up to noise_coalition = t may be known to the adversary.
  int noise_parties = 0;
  int noise_coalition = 0;
  // q (--dp-sample-rate): each release samples every document with
  // probability q; 1 = every document (the full release). Central noise only.
  double sample_rate = 1;
};

// InvalidArgument naming the flag: epsilon, delta (ValidateEpsilonDelta
// ranges, --dp-epsilon / --dp-delta) and caps (ValidateDpCountBudget);
// with ValidateDpCountOptions also iterations in [1, 10^7]
// (--iterations), noisy_iterations in [0, iterations] and not 1 when
// iterations > 1 (--dp-noisy-iterations: one release would publish the
// noisy counts of the random start), sample_rate in [2^-12, 1]
// (--dp-sample-rate).
absl::Status ValidateDpCountBudget(const DpCountOptions& options);
absl::Status ValidateDpCountOptions(const DpCountOptions& options, int iterations);

// R for `iterations` (noisy_iterations, or iterations when 0).
int NoisyReleases(const DpCountOptions& options, int iterations);

// s_0 < ... < s_{R-1}, as in the header. Requires 1 <= releases <= iterations.
std::vector<int> ReleaseSchedule(int iterations, int releases);

// sigma^2 for the R releases from what `accountant`'s budget leaves.
absl::StatusOr<CompositionNoise> CalibrateCountNoise(const DpCountOptions& options,
                                                     int iterations,
                                                     const PrivacyAccountant& accountant);

// sigma_q^2 for the R sampled releases (options.sample_rate < 1) from what
// `accountant`'s budget leaves; errors as CalibrateCountNoise.
absl::StatusOr<SampledGaussianNoise> CalibrateSampledCountNoise(
    const DpCountOptions& options, int iterations, const PrivacyAccountant& accountant);

// The distributed calibration (options.noise_parties > 0): the shares for
// V x K cells per release from what `accountant`'s budget leaves, after
// the truncation's delta (DistributedNoise::truncation_delta).
// InvalidArgument naming the flag for noise_parties / noise_coalition out of
// range or a sample_rate below 1 (--dp-sample-rate: not built for the
// secure protocol); otherwise as CalibrateCountNoise.
absl::StatusOr<DistributedNoise> CalibrateDistributedCountNoise(
    const DpCountOptions& options, int iterations, int32_t num_terms, int num_topics,
    const PrivacyAccountant& accountant);

// The post-processing shared by the twin and the secure run, on the
// UNCLAMPED noisy cells N (term-major V x K): cells max(N, 0) (and at most
// 2^31 - 1), totals n_k = max(sum_t N(t, k), 0). clamped_cells (those set
// to 0) is an exact figure for tests and the operator's log only.
struct NoisyCounts {
  std::vector<int32_t> term_major;
  std::vector<int64_t> totals;  // K
  int64_t clamped_cells = 0;
};
NoisyCounts ClampNoisyCounts(const std::vector<int64_t>& noisy_term_major, int num_topics);

// One release: exact + noise per cell, then ClampNoisyCounts. The noise is
// N_Z(0, sigma^2) (central), or the sum of n clamped shares (distributed).
NoisyCounts NoisyCountRelease(const lda::TermTopicCounts& exact, const DiscreteGaussian& noise,
                              crypto::SecureRng& rng);
NoisyCounts DistributedNoisyCountRelease(const lda::TermTopicCounts& exact,
                                         const DistributedNoise& noise,
                                         const DiscreteGaussian& share, crypto::SecureRng& rng);
// One sampled release (q < 1): the Poisson sample of the documents of
// `state` (PoissonSampleDocuments, first, from `rng`), their topic-term
// counts plus N_Z(0, sigma_q^2) per cell (term-major, from `rng`), every
// cell divided by q and rounded to the nearest integer, then
// ClampNoisyCounts. Requires ValidateSampleRate(q).
NoisyCounts SampledNoisyCountRelease(const lda::GibbsState& state, double q,
                                     const DiscreteGaussian& noise, crypto::SecureRng& rng);

// The release recorded in the accountant for one noisy iteration.
DpRelease NoisyIterationRelease(const DpCountOptions& options, const CompositionNoise& noise);
// The same for distributed noise, and the truncation's (0, delta) release.
DpRelease DistributedIterationRelease(const DpCountOptions& options,
                                      const DistributedNoise& noise);
DpRelease ShareTruncationRelease(const DistributedNoise& noise);
// The Renyi-DP release of one sampled noisy iteration (q < 1).
DpRelease SampledIterationRelease(const DpCountOptions& options, const SampledGaussianNoise& noise);

struct DpCountTraining {
  lda::LdaModel model;  // counts: the last release (divided by q); metadata: empty
  // sigma^2, R and Delta^2 of the releases (rho_per_release is 0 when
  // sampled: the accounting is `sampled`'s).
  CompositionNoise noise;
  std::optional<SampledGaussianNoise> sampled;  // when options.sample_rate < 1
  std::optional<DistributedNoise> distributed;  // when options.noise_parties > 0
  std::vector<int> schedule;
  int64_t clamped_cells_last = 0;  // exact: operator's log only
};

// Trains on `capped` (already capped by options.caps; InvalidArgument
// naming a document that is not) for `iterations` iterations, calibrating
// from and debiting *accountant. sampler.seed is ignored (drawn from
// noise_rng); sampler.threads is used. `progress`, when set, is called
// after every iteration with the number done.
absl::StatusOr<DpCountTraining> TrainWithNoisyCounts(
    const lda::Corpus& capped, const lda::SamplerOptions& sampler, int iterations,
    const DpCountOptions& options, crypto::SecureRng& noise_rng, PrivacyAccountant* accountant,
    const std::function<void(int)>& progress = nullptr);

// The model file's record of the mechanism: caps, sensitivity, sigma, rho
// per release, R, T, schedule rule, clamping, totals, what is published,
// the seed's secrecy. Parameters only, nothing computed from the documents.
// With `distributed`, its record is added under "distributed_noise"; with
// `sampled` (q < 1), the sampling, q, the estimate N / q and the Renyi-DP
// accounting replace the zCDP figures ("rho_per_iteration", "rho_total").
nlohmann::json DescribeDpCountTraining(const DpCountOptions& options, int iterations,
                                       const CompositionNoise& noise,
                                       const DistributedNoise* distributed = nullptr,
                                       const SampledGaussianNoise* sampled = nullptr);

inline constexpr char kDpCountMechanism[] =
    "DP batched collapsed Gibbs: at the start of each noisy iteration the exact topic-term "
    "counts plus i.i.d. discrete Gaussian noise N_Z(0, sigma^2) per cell (exact sampler), "
    "negative noisy counts clamped to 0; every iteration draws against the latest noisy counts "
    "with topic totals summed from the unclamped noisy counts and clamped to 0";

inline constexpr char kSampledDpCountMechanism[] =
    "DP batched collapsed Gibbs with Poisson-sampled documents: at the start of each noisy "
    "iteration every document is included independently with probability q, the topic-term "
    "counts of the included documents plus i.i.d. discrete Gaussian noise N_Z(0, sigma^2) per "
    "cell (exact sampler) are released, divided by q and rounded to the nearest integer, "
    "negative cells clamped to 0; every iteration draws against the latest such estimate with "
    "topic totals summed from its unclamped cells and clamped to 0";

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DP_COUNT_TRAINING_H_

// DP set union over a public candidate list: the vocabulary release of a
// secure run (docs/privacy.md,
// "Secure DP vocabulary"). The consortium agrees on a public list of U
// candidate terms (for example the vocabulary of a public corpus, made with
// `pplda prepare`); each data holder counts, for every candidate, how many of
// its documents contribute it; the counts are summed under encryption with
// distributed discrete Gaussian noise (party/dp_vocabulary_party.h), and the
// candidates whose noisy count reaches a threshold are the vocabulary. The
// candidates' strings are public, so what is released is which of them are
// selected (and the noisy counts, to the parties that decrypt them).
//
// Mechanism and privacy, for add or remove one document (the unit of
// privacy/privacy_unit.h):
//   - policy: a document contributes its at most N = max_terms_per_document
//     most frequent candidate terms (ties by first occurrence), each once;
//     terms outside the list contribute nothing;
//   - the released vector is h + sum_p Z_p over ALL U candidates, h(u) the
//     number of documents contributing u and Z_p the shares of the n compute
//     parties, N_Z(0, s^2) per candidate clamped to [-B, B]. One document
//     changes h by +-1 on at most N candidates: L2 sensitivity sqrt(N), so
//     the release is rho = (sqrt(N) / (sqrt(n - t) s) + tau sqrt(U))^2 / 2
//     -zCDP against any coalition of t parties knowing their own shares
//     (privacy/distributed_discrete_gaussian.h: Kairouz, Liu & Steinke 2021,
//     Prop. 14), converted by Bun & Steinke Prop. 1.3. Every candidate is
//     noised whether or not a document holds it, so unlike the central DP
//     set union (privacy/dp_vocabulary.h) no threshold delta is needed: the
//     selection, noisy count >= T, is post-processing for every T;
//   - truncation of the shares to [-B, B] adds its delta (ChooseShareBound),
//     recorded as its own release.
// Calibration: s^2 from (epsilon, delta) as CalibrateDistributedNoise with
// one release over d = U cells, the truncation's delta (at most 1e-10 of
// delta) taken off first. Default threshold: T = ceil(sqrt(2 n s^2 ln U)),
// so that a candidate no document holds is selected with probability at
// most 1/U (the summed noise is sqrt(n) s-subgaussian, CKS20 Cor. 9): about
// one false term in expectation; any T >= 1 may be given instead.
//
// Ranges (InvalidArgument naming the option): epsilon, delta as
// ValidateEpsilonDelta; max_terms_per_document in [1, 10^6]; parties in
// [1, 64]; coalition in [0, parties - 1]; threshold >= 0 (0 = the default);
// candidates in [1, 2^31 - 1].
// Thread-safety: pure functions; NoiseShares as the rng.
#ifndef PPLDA_PRIVACY_DP_CANDIDATE_UNION_H_
#define PPLDA_PRIVACY_DP_CANDIDATE_UNION_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/random/secure_rng.h"
#include "lda/corpus.h"
#include "lda/vocabulary.h"
#include "nlohmann/json.hpp"
#include "privacy/distributed_discrete_gaussian.h"
#include "privacy/dp_vocabulary.h"
#include "privacy/privacy_accountant.h"

namespace pplda::privacy {

// epsilon, delta and max_terms_per_document (N) as DpVocabularyOptions.
struct CandidateUnionOptions : DpVocabularyOptions {
  int parties = 3;                  // n: compute parties adding noise shares
  int coalition = 1;                // t: shares a coalition may know
  // Data holders outside the committee that contribute histograms without
  // noise (the packing sums n + holders contributions).
  int holders = 0;
  int64_t threshold = 0;            // T; 0 = the default rule above
};

absl::Status ValidateCandidateUnionOptions(const CandidateUnionOptions& options);

// The public parameters, identical at every participant.
struct CandidateUnionPlan {
  CandidateUnionOptions options;
  int32_t candidates = 0;  // U
  DistributedNoise noise;  // s^2, B, tau, rho of the release
  int64_t threshold = 0;   // T

  // What the release spends: the truncation's (0, delta_t) and the zCDP
  // release (rho), for an accountant with the budget (epsilon, delta).
  DpRelease TruncationRelease() const;
  DpRelease Release() const;
  // The parameters and analysis, for the vocabulary's privacy record.
  nlohmann::json Describe() const;
};

absl::StatusOr<CandidateUnionPlan> PlanCandidateUnion(const CandidateUnionOptions& options,
                                                      int32_t candidates);

// h(u) = number of `corpus`'s documents contributing candidate u under the
// policy above; `corpus`'s terms are matched to `candidates` by string.
std::vector<int64_t> CandidateHistogram(const lda::Corpus& corpus,
                                        const lda::Vocabulary& candidates,
                                        int max_terms_per_document);

// One compute party's shares: U draws of N_Z(0, s^2) clamped to [-B, B].
absl::StatusOr<std::vector<int64_t>> CandidateNoiseShares(const CandidateUnionPlan& plan,
                                                          crypto::SecureRng& rng);

// The candidates with noisy count >= T, ascending. InvalidArgument when
// the vector's size is not U.
absl::StatusOr<std::vector<lda::TermId>> SelectCandidates(const CandidateUnionPlan& plan,
                                                          absl::Span<const int64_t> noisy);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DP_CANDIDATE_UNION_H_

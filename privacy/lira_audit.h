// The membership-inference audit a party runs on its own documents before a
// model is published: the likelihood-ratio attack (LiRA) on topic models of
// Manzonelli, Zhang & Vadhan ("Membership Inference Attacks and Privacy in
// Topic Modeling", sec. 3 and appendices A-B), evaluated the way Carlini et
// al. (IEEE S&P 2022, sec. VI) evaluate LiRA.
//
// Procedure, for a corpus of D documents and N shadows:
//   1. M = N + 1 models are trained, each on a random half of the documents
//      (MembershipPlan: complementary pairs, so every document is in about
//      half of the models), with the ShadowTrainer (the same pipeline and
//      parameters as the real run; model j uses the seed drawn from stream
//      (kShadowSeedStreams | j) of options.seed).
//   2. zeta(Phi_j, d) = max_theta log p(d | theta, Phi_j) is computed for
//      every model j and every document d (ZetaScorer, certified to
//      options.zeta.tolerance nats).
//   3. Every model in turn is the held-out target and the other N are its
//      shadows: per-document Gaussian fits, online and offline scores, and
//      the pooled ROC over all M x D (target, document) pairs
//      (EvaluateLira).
// Both cores: models are trained and scored in parallel, one model per
// worker thread (options.threads, 0 = every core). The result depends only
// on the corpus, the trainer, N and the seed, never on the thread count.
//
// Limits (ValidateAuditRequest), each with an error naming the figure:
//   - at least kMinAuditDocuments documents, else FailedPrecondition: with
//     fewer, every model trains on under 50 documents and the audit would
//     describe an unrepresentative pipeline (the refusal the issue asks for);
//   - N in [kMinShadows, kMaxShadows], else InvalidArgument;
//   - corpus too small for the requested shadows: the M x floor(D/2)
//     non-member scores must number at least kMinNonMemberScores, so that a
//     0.1% false-positive rate is resolved (FailedPrecondition, saying how
//     many shadows would suffice);
//   - too many shadows for the corpus: the M x D zeta matrix must fit in
//     kMaxZetaMatrixBytes (ResourceExhausted, saying the largest N that fits).
// Trainer errors abort the audit (the status of the lowest failing model,
// prefixed with its index).
//
// Thread-safety: RunLiraAudit may run concurrently with itself; the trainer
// must satisfy the ShadowTrainer contract.
#ifndef PPLDA_PRIVACY_LIRA_AUDIT_H_
#define PPLDA_PRIVACY_LIRA_AUDIT_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lda/corpus.h"
#include "nlohmann/json.hpp"
#include "privacy/lira_evaluation.h"
#include "privacy/membership_plan.h"
#include "privacy/shadow_trainer.h"
#include "privacy/zeta_statistic.h"

namespace pplda::privacy {

inline constexpr int32_t kMinAuditDocuments = 100;
inline constexpr int kMinShadows = 8;
inline constexpr int kMaxShadows = 1024;
inline constexpr int64_t kMinNonMemberScores = 1000;
inline constexpr int64_t kMaxZetaMatrixBytes = int64_t{4} << 30;

struct AuditOptions {
  int num_shadows = 64;  // shadows per target, N; M = N + 1 models are trained
  uint64_t seed = 1;
  int threads = 0;       // models trained at once; 0 = every core; in [0, 1024]
  LiraOptions lira;
  ZetaOptions zeta;
  // Called after each model is trained and scored with (models done, M);
  // calls are serialised and `done` increases by one each time.
  std::function<void(int done, int total)> on_model_done;
};

struct AuditTiming {
  double wall_seconds = 0;
  double train_seconds = 0;  // summed over models (CPU time of the workers)
  double score_seconds = 0;  // zeta computation, summed over models
  double evaluate_seconds = 0;
  int threads = 0;
};

struct ZetaConvergence {
  int64_t documents_scored = 0;   // M x D
  int64_t not_converged = 0;      // scores whose certified gap exceeded the tolerance
  double max_gap = 0;             // largest certified gap, nats
  double mean_iterations = 0;     // objective evaluations per score
};

// The options a result was computed with (for its report).
struct AuditParameters {
  int num_shadows = 0;
  uint64_t seed = 0;
  ZetaOptions zeta;
  VarianceMode variance = VarianceMode::kAuto;
};

struct AuditResult {
  AuditParameters parameters;
  MembershipPlan plan;
  ZetaMatrix zeta;
  LiraEvaluation evaluation;
  std::vector<DocumentExposure> exposures;  // one per document
  AuditTiming timing;
  ZetaConvergence convergence;
  nlohmann::json trainer;  // ShadowTrainer::Describe()
  int32_t num_documents = 0;
  int64_t num_tokens = 0;
  int32_t vocabulary_size = 0;
};

// The limits that do not depend on the corpus: the shadow range, threads,
// zeta options (InvalidArgument naming the option).
absl::Status ValidateAuditOptions(const AuditOptions& options);

// All the limits above, for a corpus of `num_documents` documents.
absl::Status ValidateAuditRequest(int32_t num_documents, const AuditOptions& options);

// Steps 1-3 above. Errors: corpus.Validate(), ValidateAuditRequest, the
// trainer's, and EvaluateLira's.
absl::StatusOr<AuditResult> RunLiraAudit(const lda::Corpus& corpus, const ShadowTrainer& trainer,
                                         const AuditOptions& options);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_LIRA_AUDIT_H_

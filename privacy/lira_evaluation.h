// Scoring a LiRA audit from the statistic of every document against every
// model: zeta(Phi_j, d) for models j = 0..M-1 trained on the halves of a
// MembershipPlan.
//
// Leave-one-out evaluation (Carlini et al. 2022, sec. VI): every model j in
// turn is the target whose training set the attacker tries to recover, and
// the other M - 1 models are its shadows. For target j and document d:
//   in-samples  = { zeta(Phi_i, d) : i != j, d in model i }
//   out-samples = { zeta(Phi_i, d) : i != j, d not in model i }
//   online score  = log N(zeta(Phi_j, d); in fit) - log N(zeta(Phi_j, d); out fit)
//   offline score = (zeta(Phi_j, d) - mean_out) / sd_out   (lira_statistics.h)
// with label "member" iff d is in model j. The ROC of each variant pools
// all M x D (target, document) pairs.
//
// Variance (VarianceMode): per-document fits need many shadows; with few,
// LiRA uses one variance for all documents (Carlini et al., "fixed
// variance"). kAuto uses per-document variances when there are at least
// kPerDocumentVarianceMinShadows shadows per target and the pooled
// within-document variance of the target's shadows (PooledVariance, per side)
// otherwise. A per-document variance that cannot be estimated (fewer than 2
// samples, or 0) also falls back to the pooled one; such fallbacks are
// counted. Variances are floored at kMinVariance.
//
// Errors: InvalidArgument when the matrix and plan disagree in size, a zeta
// is not finite (naming model and document), M < 3, or a document has no in
// or no out shadow for some target (naming both; cannot happen with
// MembershipPlan and M >= 4).
//
// Thread-safety: pure functions over values.
#ifndef PPLDA_PRIVACY_LIRA_EVALUATION_H_
#define PPLDA_PRIVACY_LIRA_EVALUATION_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "privacy/lira_statistics.h"
#include "privacy/membership_plan.h"
#include "privacy/roc_curve.h"

namespace pplda::privacy {

enum class VarianceMode { kAuto, kPerDocument, kGlobal };

// "auto", "per-document", "global"; InvalidArgument naming the value otherwise.
absl::StatusOr<VarianceMode> ParseVarianceMode(std::string_view name);
std::string_view VarianceModeName(VarianceMode mode);

inline constexpr int kPerDocumentVarianceMinShadows = 64;
inline constexpr double kMinVariance = 1e-12;

// zeta(Phi_j, d) at values[j * num_documents + d].
struct ZetaMatrix {
  int num_models = 0;
  int32_t num_documents = 0;
  std::vector<double> values;
  double at(int model, int32_t document) const {
    return values[static_cast<size_t>(model) * num_documents + document];
  }
};

struct LiraOptions {
  VarianceMode variance = VarianceMode::kAuto;
};

// One variant's scores over all (target, document) pairs and its figures.
struct VariantEvaluation {
  std::vector<double> scores;      // index j * D + d
  std::vector<uint8_t> is_member;  // same index
  RocCurve roc;
  double auc = 0;
  double tpr_at_0_1_percent_fpr = 0;
  double tpr_at_1_percent_fpr = 0;
  double tpr_at_10_percent_fpr = 0;
  double best_balanced_accuracy = 0;
};

struct LiraEvaluation {
  VariantEvaluation online;
  VariantEvaluation offline;
  int targets = 0;              // M
  int shadows_per_target = 0;   // M - 1
  bool per_document_variance = false;
  int64_t variance_fallbacks = 0;  // (target, document, side) fits that used the pooled variance
};

absl::StatusOr<LiraEvaluation> EvaluateLira(const ZetaMatrix& zeta, const MembershipPlan& plan,
                                            const LiraOptions& options);

// How exposed each document is, over all M models (no target left out):
// its in and out fits and the separation
//   (mean_in - mean_out) / sqrt((var_in + var_out) / 2)
// (0 when both variances are 0). Documents with a large separation are the
// ones the attack identifies. Requires zeta and plan of the same size.
struct DocumentExposure {
  GaussianFit in;
  GaussianFit out;
  double separation = 0;
};
std::vector<DocumentExposure> DocumentExposures(const ZetaMatrix& zeta, const MembershipPlan& plan);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_LIRA_EVALUATION_H_

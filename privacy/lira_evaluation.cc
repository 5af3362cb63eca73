#include "privacy/lira_evaluation.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"

namespace pplda::privacy {
namespace {

absl::Status CheckInputs(const ZetaMatrix& zeta, const MembershipPlan& plan) {
  if (zeta.num_models != plan.num_models() || zeta.num_documents != plan.num_documents() ||
      zeta.values.size() != static_cast<size_t>(zeta.num_models) * zeta.num_documents) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "zeta matrix (%d models x %d documents, %d values) does not match the membership plan "
        "(%d models x %d documents)",
        zeta.num_models, zeta.num_documents, zeta.values.size(), plan.num_models(),
        plan.num_documents()));
  }
  if (zeta.num_models < 3) {
    return absl::InvalidArgumentError(
        absl::StrFormat("LiRA evaluation needs at least 3 models, got %d", zeta.num_models));
  }
  for (int j = 0; j < zeta.num_models; ++j) {
    for (int32_t d = 0; d < zeta.num_documents; ++d) {
      if (!std::isfinite(zeta.at(j, d))) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "zeta of document %d against model %d is not finite (%g)", d, j, zeta.at(j, d)));
      }
    }
  }
  return absl::OkStatus();
}

struct ShadowFits {
  std::vector<GaussianFit> in;
  std::vector<GaussianFit> out;
};

// Every document's in and out fits over all models except `target` (-1: none).
ShadowFits FitShadows(const ZetaMatrix& zeta, const MembershipPlan& plan, int target) {
  ShadowFits fits;
  fits.in.resize(zeta.num_documents);
  fits.out.resize(zeta.num_documents);
  std::vector<double> in, out;
  for (int32_t d = 0; d < zeta.num_documents; ++d) {
    in.clear();
    out.clear();
    for (int i = 0; i < zeta.num_models; ++i) {
      if (i == target) continue;
      (plan.IsMember(i, d) ? in : out).push_back(zeta.at(i, d));
    }
    fits.in[d] = FitGaussian(in);
    fits.out[d] = FitGaussian(out);
  }
  return fits;
}

double ChooseVariance(const GaussianFit& fit, bool per_document, double pooled,
                      int64_t* fallbacks) {
  double variance = pooled;
  if (per_document) {
    if (fit.n >= 2 && fit.variance > 0) {
      variance = fit.variance;
    } else {
      ++*fallbacks;
    }
  }
  return std::max(variance, kMinVariance);
}

absl::Status Summarise(VariantEvaluation* v) {
  ASSIGN_OR_RETURN(v->roc, ComputeRocCurve(v->scores, v->is_member));
  v->auc = AreaUnderCurve(v->roc);
  v->tpr_at_0_1_percent_fpr = TprAtFpr(v->roc, 0.001);
  v->tpr_at_1_percent_fpr = TprAtFpr(v->roc, 0.01);
  v->tpr_at_10_percent_fpr = TprAtFpr(v->roc, 0.1);
  v->best_balanced_accuracy = BestBalancedAccuracy(v->roc);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<VarianceMode> ParseVarianceMode(std::string_view name) {
  if (name == "auto") return VarianceMode::kAuto;
  if (name == "per-document") return VarianceMode::kPerDocument;
  if (name == "global") return VarianceMode::kGlobal;
  return absl::InvalidArgumentError(absl::StrFormat(
      "variance mode must be auto, per-document or global, got \"%s\"", std::string(name)));
}

std::string_view VarianceModeName(VarianceMode mode) {
  switch (mode) {
    case VarianceMode::kAuto: return "auto";
    case VarianceMode::kPerDocument: return "per-document";
    case VarianceMode::kGlobal: return "global";
  }
  return "auto";
}

absl::StatusOr<LiraEvaluation> EvaluateLira(const ZetaMatrix& zeta, const MembershipPlan& plan,
                                            const LiraOptions& options) {
  RETURN_IF_ERROR(CheckInputs(zeta, plan));
  LiraEvaluation result;
  const int m = zeta.num_models;
  const int32_t docs = zeta.num_documents;
  result.targets = m;
  result.shadows_per_target = m - 1;
  result.per_document_variance =
      options.variance == VarianceMode::kPerDocument ||
      (options.variance == VarianceMode::kAuto && m - 1 >= kPerDocumentVarianceMinShadows);
  const size_t pairs = static_cast<size_t>(m) * docs;
  for (VariantEvaluation* v : {&result.online, &result.offline}) {
    v->scores.resize(pairs);
    v->is_member.resize(pairs);
  }
  for (int j = 0; j < m; ++j) {
    const ShadowFits fits = FitShadows(zeta, plan, j);
    const double pooled_in = PooledVariance(fits.in);
    const double pooled_out = PooledVariance(fits.out);
    for (int32_t d = 0; d < docs; ++d) {
      const GaussianFit& in = fits.in[d];
      const GaussianFit& out = fits.out[d];
      if (in.n == 0 || out.n == 0) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "document %d has no %s shadow model for target model %d", d,
            in.n == 0 ? "member" : "non-member", j));
      }
      const double var_in =
          ChooseVariance(in, result.per_document_variance, pooled_in, &result.variance_fallbacks);
      const double var_out = ChooseVariance(out, result.per_document_variance, pooled_out,
                                            &result.variance_fallbacks);
      const double x = zeta.at(j, d);
      const size_t index = static_cast<size_t>(j) * docs + d;
      result.online.scores[index] = OnlineLiraScore(x, in.mean, var_in, out.mean, var_out);
      result.offline.scores[index] = OfflineLiraScore(x, out.mean, var_out);
      result.online.is_member[index] = result.offline.is_member[index] = plan.IsMember(j, d);
    }
  }
  RETURN_IF_ERROR(Summarise(&result.online));
  RETURN_IF_ERROR(Summarise(&result.offline));
  return result;
}

std::vector<DocumentExposure> DocumentExposures(const ZetaMatrix& zeta,
                                                const MembershipPlan& plan) {
  const ShadowFits fits = FitShadows(zeta, plan, -1);
  std::vector<DocumentExposure> exposures(zeta.num_documents);
  for (int32_t d = 0; d < zeta.num_documents; ++d) {
    DocumentExposure& e = exposures[d];
    e.in = fits.in[d];
    e.out = fits.out[d];
    const double spread = std::sqrt((e.in.variance + e.out.variance) / 2);
    e.separation = spread > 0 ? (e.in.mean - e.out.mean) / spread : 0.0;
  }
  return exposures;
}

}  // namespace pplda::privacy

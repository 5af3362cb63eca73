#include "privacy/dp_model_release.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "privacy/discrete_gaussian.h"
#include "privacy/zcdp_calibration.h"

namespace pplda::privacy {

absl::Status ValidateDpModelOptions(const DpModelOptions& options) {
  RETURN_IF_ERROR(ValidateEpsilonDelta(options.epsilon, options.delta, "DP model"));
  if (options.max_tokens_per_document < 1 || options.max_tokens_per_document > 10'000'000) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "DP model release needs documents capped at L tokens with L in [1, 10000000] "
        "(--max-tokens), got %d",
        options.max_tokens_per_document));
  }
  return absl::OkStatus();
}

absl::Status CheckDocumentCap(const lda::Corpus& corpus, int32_t max_tokens_per_document) {
  for (const lda::Document& doc : corpus.documents) {
    if (doc.tokens.size() > static_cast<size_t>(max_tokens_per_document)) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "document %s has %d tokens, more than the DP cap L = %d: build the corpus with "
          "--max-tokens %d so that the sensitivity bound holds",
          doc.name, doc.tokens.size(), max_tokens_per_document, max_tokens_per_document));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<DpModelNoise> AddDpNoiseToCounts(const DpModelOptions& options,
                                                crypto::SecureRng& rng, lda::LdaModel* model) {
  RETURN_IF_ERROR(ValidateDpModelOptions(options));
  DpModelNoise out;
  out.options = options;
  ASSIGN_OR_RETURN(out.sigma_squared,
                   DiscreteGaussianVariance(options.max_tokens_per_document, options.epsilon,
                                            options.delta));
  ASSIGN_OR_RETURN(DiscreteGaussian noise, DiscreteGaussian::Create(out.sigma_squared));
  for (int64_t& count : model->topic_term_counts) {
    count += noise.Sample(rng);
    if (count < 0) {
      count = 0;
      ++out.clamped_cells;
    }
  }
  out.cells = static_cast<int64_t>(model->topic_term_counts.size());
  return out;
}

DpRelease DpModelNoise::Release() const {
  DpRelease r;
  r.what = "topic_term_counts";
  r.mechanism = absl::StrFormat(
      "exact discrete Gaussian noise on every topic-term count, L2 sensitivity L = %d "
      "(documents capped at L tokens), negative counts clamped to 0",
      options.max_tokens_per_document);
  r.epsilon = options.epsilon;
  r.delta = options.delta;
  r.parameters = {{"max_tokens_per_document", options.max_tokens_per_document},
                  {"sigma", std::sqrt(sigma_squared.get_d())},
                  {"sigma_squared", sigma_squared.get_str()},
                  {"cells", cells},
                  {"clamped_cells", clamped_cells}};
  return r;
}

}  // namespace pplda::privacy

#include "privacy/dp_count_training.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "lda/batched_gibbs_sampler.h"

namespace pplda::privacy {

absl::Status ValidateDpCountBudget(const DpCountOptions& options) {
  if (!(options.epsilon > 0 && options.epsilon <= 1000)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the DP training epsilon must be in (0, 1000] (--dp-epsilon), got %g", options.epsilon));
  }
  if (!(options.delta > 0 && options.delta < 0.5)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the DP training delta must be in (0, 0.5) (--dp-delta), got %g", options.delta));
  }
  return ValidateDocumentCaps(options.caps);
}

absl::Status ValidateDpCountOptions(const DpCountOptions& options, int iterations) {
  RETURN_IF_ERROR(ValidateDpCountBudget(options));
  if (iterations < 1 || iterations > 10000000) {
    return absl::InvalidArgumentError(
        absl::StrFormat("iterations must be in [1, 10^7] (--iterations), got %d", iterations));
  }
  if (options.noisy_iterations < 0 || options.noisy_iterations > iterations) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--dp-noisy-iterations must be in [1, --iterations %d] (0 = every iteration), got %d",
        iterations, options.noisy_iterations));
  }
  RETURN_IF_ERROR(ValidateSampleRate(options.sample_rate));
  if (options.noisy_iterations == 1 && iterations > 1) {
    return absl::InvalidArgumentError(
        "--dp-noisy-iterations 1 with more than one iteration would publish the noisy counts "
        "of the random start (the one release is at the first iteration); use at least 2");
  }
  return absl::OkStatus();
}

int NoisyReleases(const DpCountOptions& options, int iterations) {
  return options.noisy_iterations == 0 ? iterations : options.noisy_iterations;
}

std::vector<int> ReleaseSchedule(int iterations, int releases) {
  std::vector<int> out;
  if (releases <= 1) return {0};
  out.reserve(static_cast<size_t>(releases));
  for (int r = 0; r < releases; ++r) {
    out.push_back(static_cast<int>(static_cast<int64_t>(r) * (iterations - 1) / (releases - 1)));
  }
  return out;
}

namespace {

// (epsilon, delta) the vocabulary's releases leave of the accountant's
// budget, less `reserved_delta`; InvalidArgument naming both when nothing is
// left. The accountant has a budget.
absl::StatusOr<std::pair<double, double>> LeftAfterVocabulary(const PrivacyAccountant& accountant,
                                                              double reserved_delta) {
  const PrivacyBudget& budget = *accountant.budget();
  const double epsilon = budget.epsilon - accountant.epsilon();
  const double delta = budget.delta - accountant.delta() - reserved_delta;
  if (!(epsilon > 0) || !(delta > 0)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the vocabulary's (%g, %g) leaves nothing of the run's budget (--dp-epsilon %g, "
        "--dp-delta %g) for the counts: lower --dp-vocab-epsilon / --dp-vocab-delta below "
        "them",
        accountant.epsilon(), accountant.delta(), budget.epsilon, budget.delta));
  }
  return std::make_pair(epsilon, delta);
}

// What the accountant's budget leaves for the counts' releases, after the
// checks both calibrations share (a budget, no zCDP or Renyi-DP release yet,
// something left after the vocabulary).
absl::StatusOr<std::pair<double, double>> BudgetLeftForCounts(const DpCountOptions& options,
                                                              int iterations,
                                                              const PrivacyAccountant& accountant) {
  RETURN_IF_ERROR(ValidateDpCountOptions(options, iterations));
  if (!accountant.budget()) {
    return absl::FailedPreconditionError("DP training needs an accountant with a budget");
  }
  if (accountant.zcdp_releases() > 0 || accountant.rdp_releases() > 0) {
    return absl::FailedPreconditionError(
        "the accountant already holds zCDP releases or Renyi-DP releases: calibrate DP training "
        "before any");
  }
  return LeftAfterVocabulary(accountant, 0);
}

}  // namespace

absl::StatusOr<CompositionNoise> CalibrateCountNoise(const DpCountOptions& options, int iterations,
                                                     const PrivacyAccountant& accountant) {
  ASSIGN_OR_RETURN(const auto left, BudgetLeftForCounts(options, iterations, accountant));
  return DiscreteGaussianForComposition(SensitivitySquared(options.caps), left.first, left.second,
                                        NoisyReleases(options, iterations));
}

absl::StatusOr<SampledGaussianNoise> CalibrateSampledCountNoise(
    const DpCountOptions& options, int iterations, const PrivacyAccountant& accountant) {
  ASSIGN_OR_RETURN(const auto left, BudgetLeftForCounts(options, iterations, accountant));
  return CalibrateSampledDiscreteGaussian(SensitivitySquared(options.caps), options.sample_rate,
                                          left.first, left.second,
                                          NoisyReleases(options, iterations));
}

NoisyCounts ClampNoisyCounts(const std::vector<int64_t>& noisy_term_major, int num_topics) {
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  NoisyCounts out;
  out.term_major.resize(noisy_term_major.size());
  out.totals.assign(static_cast<size_t>(num_topics), 0);
  for (size_t i = 0; i < noisy_term_major.size(); ++i) {
    int64_t v = noisy_term_major[i];
    out.totals[i % num_topics] += v;
    if (v < 0) {
      v = 0;
      ++out.clamped_cells;
    } else if (v > kMax) {
      v = kMax;
    }
    out.term_major[i] = static_cast<int32_t>(v);
  }
  for (int64_t& total : out.totals) total = std::max<int64_t>(total, 0);
  return out;
}

namespace {

template <typename Noise>
NoisyCounts AddNoise(const lda::TermTopicCounts& exact, Noise noise) {
  const int k_topics = exact.num_topics();
  std::vector<int64_t> noisy(static_cast<size_t>(exact.num_terms()) * k_topics);
  for (lda::TermId t = 0; t < exact.num_terms(); ++t) {
    const int32_t* row = exact.row(t);
    for (int k = 0; k < k_topics; ++k) {
      noisy[static_cast<size_t>(t) * k_topics + k] = static_cast<int64_t>(row[k]) + noise();
    }
  }
  return ClampNoisyCounts(noisy, k_topics);
}

}  // namespace

NoisyCounts NoisyCountRelease(const lda::TermTopicCounts& exact, const DiscreteGaussian& noise,
                              crypto::SecureRng& rng) {
  return AddNoise(exact, [&] { return noise.Sample(rng); });
}

NoisyCounts DistributedNoisyCountRelease(const lda::TermTopicCounts& exact,
                                         const DistributedNoise& noise,
                                         const DiscreteGaussian& share, crypto::SecureRng& rng) {
  return AddNoise(exact, [&] {
    return SampleSummedShares(share, noise.share_bound, noise.parties, rng);
  });
}

NoisyCounts SampledNoisyCountRelease(const lda::GibbsState& state, double q,
                                     const DiscreteGaussian& noise, crypto::SecureRng& rng) {
  const int k_topics = state.num_topics;
  const std::vector<bool> sampled = PoissonSampleDocuments(state.num_documents(), q, rng);
  std::vector<int64_t> cells(static_cast<size_t>(state.num_terms) * k_topics, 0);
  for (int32_t m = 0; m < state.num_documents(); ++m) {
    if (!sampled[m]) continue;
    const std::vector<lda::TermId>& tokens = state.tokens[m];
    for (size_t i = 0; i < tokens.size(); ++i) {
      ++cells[static_cast<size_t>(tokens[i]) * k_topics + state.z[m][i]];
    }
  }
  // The estimate of the whole corpus's counts, N / q rounded (post-
  // processing), kept within int64 for the clamp that follows.
  constexpr double kLimit = 0x1p62;
  for (int64_t& cell : cells) {
    const double scaled = static_cast<double>(cell + noise.Sample(rng)) / q;
    cell = std::llround(std::clamp(scaled, -kLimit, kLimit));
  }
  return ClampNoisyCounts(cells, k_topics);
}

absl::StatusOr<DistributedNoise> CalibrateDistributedCountNoise(
    const DpCountOptions& options, int iterations, int32_t num_terms, int num_topics,
    const PrivacyAccountant& accountant) {
  RETURN_IF_ERROR(ValidateDpCountOptions(options, iterations));
  if (options.sample_rate != 1) {
    return absl::InvalidArgumentError(
        "--dp-sample-rate below 1 is built for central noise only (pplda train and audit), not "
        "for the distributed noise of the secure protocol");
  }
  if (options.noise_parties < 1 || options.noise_parties > 64) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "distributed DP noise needs 1 to 64 compute parties, got %d", options.noise_parties));
  }
  if (options.noise_coalition < 0 || options.noise_coalition >= options.noise_parties) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the coalition the DP noise must withstand (the MPC threshold t) must be in [0, n - 1] "
        "= [0, %d], got %d",
        options.noise_parties - 1, options.noise_coalition));
  }
  if (num_terms < 1 || num_topics < 1) {
    return absl::InvalidArgumentError("distributed DP noise needs V >= 1 and K >= 1");
  }
  if (!accountant.budget()) {
    return absl::FailedPreconditionError("DP training needs an accountant with a budget");
  }
  if (accountant.zcdp_releases() > 0) {
    return absl::FailedPreconditionError(
        "the accountant already holds zCDP releases: calibrate DP training before any");
  }
  const PrivacyBudget& budget = *accountant.budget();
  // The truncation's delta (at most 1e-10 of the budget's) comes off first.
  const double truncation = std::min(0x1p-70, 1e-10 * budget.delta);
  ASSIGN_OR_RETURN(const auto left, LeftAfterVocabulary(accountant, truncation));
  const auto [epsilon, delta] = left;
  return CalibrateDistributedNoise(SensitivitySquared(options.caps), epsilon, delta,
                                   NoisyReleases(options, iterations), options.noise_parties,
                                   options.noise_coalition,
                                   static_cast<int64_t>(num_terms) * num_topics, budget.epsilon,
                                   budget.delta);
}

DpRelease NoisyIterationRelease(const DpCountOptions& options, const CompositionNoise& noise) {
  return DpRelease{
      .what = "topic_term_counts (one noisy iteration)",
      .mechanism =
          "discrete Gaussian mechanism on the topic-term counts of documents capped at L "
          "tokens and c per term (L2 sensitivity sqrt(floor(L/c) c^2 + (L mod c)^2) <= "
          "sqrt(L c)): Delta^2 / (2 sigma^2)-zCDP (Canonne, Kamath & Steinke 2020, Thm. "
          "14)",
      .parameters = {{"sigma_squared", noise.sigma_squared.get_str()},
                     {"sigma", std::sqrt(noise.sigma_squared.get_d())},
                     {"max_tokens_per_document", options.caps.max_tokens},
                     {"max_tokens_per_term", options.caps.max_per_term},
                     {"l2_sensitivity_squared", noise.sensitivity_squared}},
      .rho = noise.rho_per_release,
      .rdp = std::nullopt};
}

DpRelease DistributedIterationRelease(const DpCountOptions& options,
                                      const DistributedNoise& noise) {
  DpRelease r = NoisyIterationRelease(options, noise.composition);
  r.mechanism =
      "distributed discrete Gaussian mechanism on the topic-term counts of documents capped at "
      "L tokens and c per term: every compute party adds its own N_Z(0, s^2) share per cell "
      "under encryption; the n - t shares a coalition of t does not know give (Delta / sqrt((n - "
      "t) s^2) + tau sqrt(d))^2 / 2-zCDP (Kairouz, Liu & Steinke 2021, Prop. 14)";
  r.parameters["distributed_noise"] = DescribeDistributedNoise(noise);
  return r;
}

DpRelease SampledIterationRelease(const DpCountOptions& options,
                                  const SampledGaussianNoise& noise) {
  DpRelease r;
  r.what = "topic_term_counts (one noisy iteration, Poisson-sampled documents)";
  r.mechanism =
      "Poisson-subsampled discrete Gaussian mechanism on the topic-term counts of documents "
      "capped at L tokens and c per term, each document included with probability q: Renyi "
      "DP eps(alpha) = ln(A_alpha)/(alpha - 1) for alpha = 2..256 in both directions (A_alpha "
      "of Mironov, Talwar & Zhang 2019, exact for the discrete Gaussian; the reverse "
      "direction by the pair's reflection symmetry, privacy/sampled_gaussian_rdp.h)";
  r.rdp = noise.rdp_per_release;
  r.parameters = {{"sigma_squared", noise.sigma_squared.get_str()},
                  {"sigma", std::sqrt(noise.sigma_squared.get_d())},
                  {"sample_rate", noise.sample_rate},
                  {"max_tokens_per_document", options.caps.max_tokens},
                  {"max_tokens_per_term", options.caps.max_per_term},
                  {"l2_sensitivity_squared", noise.sensitivity_squared}};
  return r;
}

DpRelease ShareTruncationRelease(const DistributedNoise& noise) {
  DpRelease r;
  r.what = "noise share truncation (every noisy iteration)";
  r.mechanism = "each party's noise share clamped to [-B, B]: the run differs from the analysed "
                "mechanism with probability eta independent of the data, adding (1 + e^epsilon) "
                "eta to delta";
  r.epsilon = 0;
  r.delta = noise.truncation_delta;
  r.parameters = {{"share_bound", noise.share_bound},
                  {"share_variance", noise.share_variance.get_str()}};
  return r;
}

absl::StatusOr<DpCountTraining> TrainWithNoisyCounts(
    const lda::Corpus& capped, const lda::SamplerOptions& sampler, int iterations,
    const DpCountOptions& options, crypto::SecureRng& noise_rng, PrivacyAccountant* accountant,
    const std::function<void(int)>& progress) {
  std::optional<DistributedNoise> distributed;
  std::optional<SampledGaussianNoise> sampled;
  CompositionNoise noise;
  if (options.noise_parties == 0 && options.sample_rate != 1) {
    ASSIGN_OR_RETURN(sampled, CalibrateSampledCountNoise(options, iterations, *accountant));
    noise.sigma_squared = sampled->sigma_squared;
    noise.releases = sampled->releases;
    noise.sensitivity_squared = sampled->sensitivity_squared;
  } else if (options.noise_parties > 0) {
    ASSIGN_OR_RETURN(distributed,
                     CalibrateDistributedCountNoise(options, iterations, capped.vocabulary.size(),
                                                    sampler.num_topics, *accountant));
    noise = distributed->composition;
  } else {
    ASSIGN_OR_RETURN(noise, CalibrateCountNoise(options, iterations, *accountant));
  }
  for (const lda::Document& d : capped.documents) {
    if (CapDocument(d, options.caps).tokens.size() != d.tokens.size()) {
      return absl::InvalidArgumentError("document " + d.name +
                                        " exceeds the DP caps: cap the corpus first");
    }
  }
  ASSIGN_OR_RETURN(DiscreteGaussian gaussian,
                   DiscreteGaussian::Create(distributed ? distributed->share_variance
                                                        : noise.sigma_squared));
  if (distributed) RETURN_IF_ERROR(accountant->Record(ShareTruncationRelease(*distributed)));
  lda::SamplerOptions draw_options = sampler;
  draw_options.seed = noise_rng.NextUint64();  // secret: never recorded
  ASSIGN_OR_RETURN(std::unique_ptr<lda::BatchedGibbsSampler> gibbs,
                   lda::BatchedGibbsSampler::Create(capped, draw_options));
  DpCountTraining out;
  out.noise = noise;
  out.distributed = distributed;
  out.sampled = sampled;
  out.schedule = ReleaseSchedule(iterations, noise.releases);
  std::vector<int32_t> last;
  size_t next = 0;
  for (int it = 0; it < iterations; ++it) {
    if (next < out.schedule.size() && out.schedule[next] == it) {
      // Debit first: a refused release is never computed or used.
      RETURN_IF_ERROR(accountant->Record(distributed
                                             ? DistributedIterationRelease(options, *distributed)
                                         : sampled ? SampledIterationRelease(options, *sampled)
                                                   : NoisyIterationRelease(options, noise)));
      NoisyCounts release =
          distributed ? DistributedNoisyCountRelease(gibbs->state().term_topic, *distributed,
                                                     gaussian, noise_rng)
          : sampled
              ? SampledNoisyCountRelease(gibbs->state(), sampled->sample_rate, gaussian, noise_rng)
              : NoisyCountRelease(gibbs->state().term_topic, gaussian, noise_rng);
      out.clamped_cells_last = release.clamped_cells;
      last = release.term_major;
      RETURN_IF_ERROR(
          gibbs->SetDrawCounts(std::move(release.term_major), std::move(release.totals)));
      ++next;
    }
    if (!gibbs->has_draw_counts()) {
      return absl::InternalError("DP training would draw against exact counts");
    }
    gibbs->RunIteration();
    if (progress) progress(it + 1);
  }
  lda::LdaModel model = gibbs->Model();
  model.metadata = nlohmann::json::object();
  const int k_topics = model.num_topics;
  const int32_t v = model.num_terms();
  for (int k = 0; k < k_topics; ++k) {
    for (lda::TermId t = 0; t < v; ++t) {
      model.topic_term_counts[static_cast<size_t>(k) * v + t] =
          last[static_cast<size_t>(t) * k_topics + k];
    }
  }
  out.model = std::move(model);
  return out;
}

nlohmann::json DescribeDpCountTraining(const DpCountOptions& options, int iterations,
                                       const CompositionNoise& noise,
                                       const DistributedNoise* distributed,
                                       const SampledGaussianNoise* sampled) {
  nlohmann::json out = {
      {"mechanism", kDpCountMechanism},
      {"iterations", iterations},
      {"noisy_iterations", noise.releases},
      {"noisy_iteration_schedule",
       "release r at the start of iteration floor(r (T - 1) / (R - 1)) (0-based; r = 0 only "
       "when R = 1): the first and the last iteration start with one; iterations between "
       "releases draw against the latest release and each document's own data only"},
      {"max_tokens_per_document", options.caps.max_tokens},
      {"max_tokens_per_term", options.caps.max_per_term},
      {"document_truncation",
       "in reading order, a token is kept while its term has fewer than c and the document "
       "fewer than L kept tokens"},
      {"l2_sensitivity_squared", noise.sensitivity_squared},
      {"l2_sensitivity", std::sqrt(static_cast<double>(noise.sensitivity_squared))},
      {"sensitivity_bound",
       "one document adds a K x V count matrix of squared L2 norm <= floor(L/c) c^2 + "
       "(L mod c)^2 <= L c, whatever its topics"},
      {"sigma_squared", noise.sigma_squared.get_str()},
      {"sigma", std::sqrt(noise.sigma_squared.get_d())},
      {"rho_per_iteration", noise.rho_per_release},
      {"rho_total", noise.rho_per_release * noise.releases},
      {"clamping",
       "negative noisy counts set to 0 (and counts above 2^31 - 1 to that): the sampler's "
       "weights n_k(t) + beta must be non-negative; post-processing"},
      {"topic_totals",
       "derived from the unclamped noisy matrix, then clamped: n_k = max(sum_t N(t, k), 0); "
       "post-processing"},
      {"published_counts",
       "the last noisy release (the counts the last iteration drew against): post-processing; "
       "no exact count, assignment or document-topic count is published"},
      {"gibbs_seed", "secret: drawn from the noise generator and not recorded"},
      {"noise_sampler", "exact discrete Gaussian (Canonne, Kamath & Steinke 2020, Alg. 3), "
                        "integer arithmetic only"}};
  if (distributed != nullptr) out["distributed_noise"] = DescribeDistributedNoise(*distributed);
  if (sampled != nullptr) {
    out["mechanism"] = kSampledDpCountMechanism;
    out.erase("rho_per_iteration");
    out.erase("rho_total");
    out["sample_rate"] = sampled->sample_rate;
    out["document_sampling"] =
        "Poisson: at every noisy iteration each document is included independently with "
        "probability exactly q (a uniform 64-bit integer from the noise generator below the "
        "integer q 2^64); the sample is secret and never recorded";
    out["published_counts"] =
        "the last noisy release divided by q and rounded to the nearest integer, then clamped "
        "(the estimate the last iteration drew against): post-processing; no exact count, "
        "assignment, sample or document-topic count is published";
    out["accounting"] = kSampledGaussianAccounting;
    out["rdp_epsilon_per_iteration_alpha_2"] = sampled->rdp_per_release[0];
    out["rdp_epsilon_per_iteration_alpha_32"] = sampled->rdp_per_release[32 - kMinRdpOrder];
    out["conversion"] = kRdpConversion;
  }
  return out;
}

}  // namespace pplda::privacy

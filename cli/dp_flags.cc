#include "cli/dp_flags.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/number_flags.h"
#include "lda/prepared_corpus.h"
#include "privacy/final_count_noise.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {
namespace {

// --dp-delta and --dp-vocab-delta: the mechanisms need 0 < delta < 0.5.
constexpr double kMinDpDelta = 1e-300;
constexpr double kMaxDpDelta = 0.4999;

lda::InputFormat ResolvedFormat(const InputFlags& input) {
  absl::StatusOr<lda::InputFormat> format = lda::ParseInputFormat(input.format);
  if (!format.ok()) return lda::InputFormat::kAuto;
  if (*format != lda::InputFormat::kAuto) return *format;
  std::error_code ec;
  const std::filesystem::path path(input.input);
  if (std::filesystem::is_directory(path, ec)) return lda::InputFormat::kFolder;
  if (path.filename().string().rfind("docword.", 0) == 0) return lda::InputFormat::kUci;
  return lda::InputFormat::kLines;
}

}  // namespace

void AddDpVocabularyFlags(CLI::App* app, DpFlags* f) {
  app->add_option("--dp-vocab-epsilon", f->vocab_epsilon,
                  "Choose the vocabulary by DP set union, (epsilon, delta)-DP for the list of "
                  "terms only (not the counts); replaces --min-df/--max-df (0 = off)")
      ->capture_default_str()
      ->check(NumberIn<double>(0.0, 1000.0));
  f->vocab_delta_option =
      app->add_option("--dp-vocab-delta", f->vocab_delta,
                      "delta of the DP vocabulary selection (with --dp-epsilon: half of "
                      "--dp-delta unless given)")
          ->capture_default_str()
          ->check(NumberIn<double>(kMinDpDelta, kMaxDpDelta));
  app->add_option("--dp-vocab-max-terms", f->vocab_max_terms,
                  "Distinct terms each document contributes to the DP vocabulary (its most "
                  "frequent; a small N keeps the vocabulary small and the counts' noise per "
                  "term low)")
      ->capture_default_str()
      ->check(NumberIn<int>(1, 1000000));
}

void AddDpFlags(CLI::App* app, DpFlags* f) {
  AddDpVocabularyFlags(app, f);
  app->add_option("--final-noise-sigma", f->final_noise_sigma,
                  "Add discrete Gaussian noise of this sigma once to every final count: a "
                  "heuristic with NO differential-privacy guarantee (no epsilon is claimed or "
                  "stored; 0 = off)")
      ->capture_default_str()
      ->check(NumberIn<double>(0.0, 1099511627776.0));
  AddDpTrainingFlags(app, f);
  f->sample_rate_option =
      app->add_option("--dp-sample-rate", f->sample_rate,
                      "DP training: each noisy release uses a fresh Poisson sample of the "
                      "documents, each kept with this probability (in [2^-12, 1]; 1 = all), and "
                      "divides the noisy counts by it; Renyi-DP accounting of the sampled "
                      "discrete Gaussian")
          ->capture_default_str()
          ->check(NumberIn<double>(privacy::kMinSampleRate, 1.0));
}

void AddDpTrainingFlags(CLI::App* app, DpFlags* f) {
  f->epsilon_option = app->add_option("--dp-epsilon", f->epsilon,
                  "DP training for the whole run: the run's epsilon, DP vocabulary included "
                  "(noise on the counts at every noisy iteration; batched sampler; 0 = off)")
      ->capture_default_str()
      ->check(NumberIn<double>(0.0, 1000.0));
  f->delta_option = app->add_option("--dp-delta", f->delta,
                                    "The run's delta with --dp-epsilon, DP vocabulary included")
                        ->capture_default_str()
                        ->check(NumberIn<double>(kMinDpDelta, kMaxDpDelta));
  f->max_tokens_option =
      app->add_option("--dp-max-tokens", f->max_tokens,
                      "DP training: each document keeps at most L tokens (its first). The "
                      "default suits sentence windows; for longer documents raise it: while "
                      "documents are longer than L, the counts' signal to noise grows with "
                      "sqrt(L / c)")
          ->capture_default_str()
          ->check(NumberIn<int>(1, 1000000));
  f->max_per_term_option =
      app->add_option("--dp-max-term-count", f->max_per_term,
                      "DP training: each document keeps at most c tokens of any one term (L2 "
                      "sensitivity sqrt(L c))")
          ->capture_default_str()
          ->check(NumberIn<int>(1, 1000000));
  f->noisy_iterations_option =
      app->add_option("--dp-noisy-iterations", f->noisy_iterations,
                      "DP training: how many iterations release noisy counts, spread evenly, "
                      "the budget split over them; the others reuse the last release (0 = all)")
          ->default_str("10, or --iterations when fewer")
          ->check(NumberIn<int>(0, 10000000));
}

int ResolvedNoisyIterations(const DpFlags& dp, int iterations) {
  if (dp.noisy_iterations != kAutoNoisyIterations) return dp.noisy_iterations;
  return std::min(kDefaultNoisyIterations, std::max(iterations, 0));
}

absl::StatusOr<privacy::DpTrainingOptions> DpOptionsFrom(const DpFlags& dp,
                                                         const InputFlags& input,
                                                         int iterations) {
  privacy::DpTrainingOptions options;
  if (dp.epsilon == 0 && dp.epsilon_option != nullptr && dp.epsilon_option->count() > 0) {
    return absl::InvalidArgumentError(
        "the DP training epsilon must be in (0, 1000] (--dp-epsilon), got 0; omit --dp-epsilon "
        "for a run without DP training");
  }
  if (dp.epsilon != 0) {
    options.counts = privacy::DpCountOptions{
        dp.epsilon, dp.delta, privacy::DocumentCaps{dp.max_tokens, dp.max_per_term},
        ResolvedNoisyIterations(dp, iterations)};
    options.counts->sample_rate = dp.sample_rate;
    RETURN_IF_ERROR(privacy::ValidateSampleRate(dp.sample_rate));
  } else {
    const std::pair<const CLI::Option*, const char*> needs_epsilon[] = {
        {dp.delta_option, "--dp-delta"},
        {dp.max_tokens_option, "--dp-max-tokens"},
        {dp.max_per_term_option, "--dp-max-term-count"},
        {dp.noisy_iterations_option, "--dp-noisy-iterations"},
        {dp.sample_rate_option, "--dp-sample-rate"}};
    for (const auto& [option, name] : needs_epsilon) {
      if (option != nullptr && option->count() > 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            name, " is an option of DP training, which needs --dp-epsilon (the run's budget)"));
      }
    }
  }
  if (dp.final_noise_sigma > 0) {
    options.final_noise = privacy::FinalCountNoiseOptions{dp.final_noise_sigma};
  }
  if (dp.vocab_epsilon > 0) {
    if (IsPreparedInput(input)) {
      return absl::InvalidArgumentError(
          "--dp-vocab-epsilon needs raw documents: the vocabulary of the prepared folder " +
          input.input +
          " was chosen by document frequency, which is not private; pass the raw documents "
          "with --input");
    }
    if (input.no_preprocess) {
      return absl::InvalidArgumentError(
          "--dp-vocab-epsilon cannot be combined with --no-preprocess");
    }
    // With DP training the vocabulary's delta is part of the run's: half of
    // it unless the user chose one.
    const bool delta_given = dp.vocab_delta_option != nullptr && dp.vocab_delta_option->count() > 0;
    const double vocab_delta = options.counts && !delta_given ? dp.delta / 2 : dp.vocab_delta;
    options.vocabulary =
        privacy::DpVocabularyOptions{dp.vocab_epsilon, vocab_delta, dp.vocab_max_terms};
  }
  RETURN_IF_ERROR(privacy::ValidateDpTrainingOptions(options));
  return options;
}

InputFlags InputFlagsForDp(const InputFlags& input, const privacy::DpTrainingOptions& options,
                           bool quiet) {
  InputFlags out = input;
  if (!options.vocabulary) return out;
  lda::PreprocessOptions& p = out.preprocess;
  if ((p.min_df != 1 || p.max_df != 1.0) && !quiet) {
    spdlog::info("DP vocabulary selection replaces --min-df {} and --max-df {} (document "
                 "frequencies are not private)",
                 p.min_df, p.max_df);
  }
  p.min_df = 1;
  p.max_df = 1.0;
  return out;
}

absl::StatusOr<std::string> SamplerForDp(const std::string& kind, bool given,
                                         const privacy::DpTrainingOptions& options) {
  if (!options.counts) return kind;
  if (given && kind != "batched") {
    return absl::InvalidArgumentError(
        "--sampler " + kind +
        " cannot be used with --dp-epsilon: DP training uses the batched sampler (every token "
        "drawn against the noisy counts of the iteration's start); drop --sampler or pass "
        "--sampler batched");
  }
  return std::string("batched");
}

privacy::PrivacyUnit PrivacyUnitFor(const InputFlags& input) {
  const bool prepared = IsPreparedInput(input);
  absl::StatusOr<lda::SplitMode> split = lda::ParseSplitMode(input.split);
  return privacy::DescribePrivacyUnit(ResolvedFormat(input),
                                      split.ok() ? *split : lda::SplitMode::kNone,
                                      input.read.window_words, prepared);
}

void ReportPrivacy(const privacy::DpTrainingOptions& options,
                   const privacy::PrivacyAccountant* accountant, const privacy::PrivacyUnit& unit,
                   bool publishing) {
  if (!options.enabled()) return;
  const char* model = publishing ? "the model" : "each audited model";
  if (!options.vocabulary) {
    spdlog::warn("the vocabulary of {} is NOT private: it lists terms of the training documents "
                 "as chosen by the preprocessing options, and a rare term can identify a "
                 "document (--dp-vocab-epsilon selects it with DP), so {} as a whole has no DP "
                 "guarantee",
                 model, model);
  }
  if (!options.counts) {
    spdlog::warn("the topic-term counts of {} are NOT differentially private ({}; "
                 "--dp-epsilon trains them with DP), so {} as a whole has no DP guarantee",
                 model,
                 options.final_noise ? "the final-count noise is a heuristic without guarantee"
                                     : "they are exact",
                 model);
  }
  // The budget of what was privatised, and only that.
  double epsilon = 0, delta = 0;
  if (accountant != nullptr && !accountant->empty()) {
    epsilon = accountant->epsilon();
    delta = accountant->delta();
  } else if (accountant == nullptr && options.counts) {
    epsilon = options.counts->epsilon;  // the budget each model spends (at most)
    delta = options.counts->delta;
  } else if (accountant == nullptr && options.vocabulary) {
    epsilon = options.vocabulary->epsilon;
    delta = options.vocabulary->delta;
  }
  const char* each = publishing ? "" : " of each model";
  if (epsilon > 0) {
    if (options.counts && options.vocabulary) {
      std::printf("differential privacy: (%.4g, %g)-DP for %s (DP vocabulary and DP-trained "
                  "topic-term counts)\n",
                  epsilon, delta, publishing ? "the whole model" : "each audited model as a whole");
    } else if (options.counts) {
      std::printf("differential privacy: (%.4g, %g)-DP for the topic-term counts%s given the "
                  "vocabulary; the vocabulary is NOT covered\n",
                  epsilon, delta, each);
    } else {
      std::printf("differential privacy: (%g, %g)-DP for the vocabulary only (DP set union: the "
                  "list of terms%s); the topic-term counts are NOT covered\n",
                  epsilon, delta, each);
    }
    if (options.counts && accountant != nullptr && accountant->zcdp_releases() > 0) {
      double sigma = 0, rho = 0;
      int64_t sensitivity_squared = 0;
      for (const privacy::DpRelease& r : accountant->releases()) {
        if (!r.rho) continue;
        sigma = r.parameters.value("sigma", 0.0);
        sensitivity_squared = r.parameters.value("l2_sensitivity_squared", int64_t{0});
        rho = *r.rho;
      }
      std::printf("DP training: %d noisy iterations, discrete Gaussian sigma %.4g on every "
                  "count (L2 sensitivity sqrt(%lld): L = %d, c = %d), rho %.4g each, %.4g in "
                  "all (zCDP), converted by Bun-Steinke Prop. 1.3%s\n",
                  accountant->zcdp_releases(), sigma, static_cast<long long>(sensitivity_squared),
                  options.counts->caps.max_tokens, options.counts->caps.max_per_term, rho,
                  accountant->rho(),
                  options.vocabulary ? " and added to the vocabulary's (epsilon, delta)" : "");
    }
    if (options.counts && accountant != nullptr && accountant->rdp_releases() > 0) {
      double sigma = 0, q = 1;
      int64_t sensitivity_squared = 0;
      for (const privacy::DpRelease& r : accountant->releases()) {
        if (!r.rdp) continue;
        sigma = r.parameters.value("sigma", 0.0);
        q = r.parameters.value("sample_rate", 1.0);
        sensitivity_squared = r.parameters.value("l2_sensitivity_squared", int64_t{0});
      }
      std::printf(
          "DP training: %d noisy iterations, each on a Poisson sample of the documents "
          "(rate q = %g), discrete Gaussian sigma %.4g on every count (L2 sensitivity "
          "sqrt(%lld): L = %d, c = %d), counts divided by q; Renyi DP of the sampled "
          "Gaussian over orders 2..256, converted at order %d by Canonne-Kamath-Steinke "
          "Prop. 12%s\n",
          accountant->rdp_releases(), q, sigma, static_cast<long long>(sensitivity_squared),
          options.counts->caps.max_tokens, options.counts->caps.max_per_term,
          accountant->rdp_order(),
          options.vocabulary ? " and added to the vocabulary's (epsilon, delta)" : "");
    }
    std::printf("%s\n", privacy::PrivacyUnitLine(unit, epsilon, delta).c_str());
  }
  if (options.final_noise) {
    std::printf("final-count noise: sigma %g added once to every count; %s, so none is "
                "claimed or stored\n",
                options.final_noise->sigma, privacy::kFinalCountNoiseDisclaimer);
  }
}

}  // namespace pplda::cli

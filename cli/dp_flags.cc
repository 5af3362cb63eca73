#include "cli/dp_flags.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "lda/prepared_corpus.h"
#include "privacy/final_count_noise.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {
namespace {

// The error for the removed --dp-epsilon / --dp-delta, with the
// --final-noise-sigma that gives the same noise when it can be computed.
absl::Status RemovedDpEpsilonError(const DpFlags& dp, const InputFlags& input) {
  std::string same;
  const double delta = dp.removed_delta > 0 ? dp.removed_delta : 1e-5;
  if (dp.removed_epsilon > 0 && input.preprocess.max_tokens_per_doc > 0) {
    absl::StatusOr<double> sigma = privacy::NominalSigmaForEpsilon(
        input.preprocess.max_tokens_per_doc, dp.removed_epsilon, delta);
    if (sigma.ok()) {
      same = absl::StrFormat(" (--final-noise-sigma %.4g is the noise --dp-epsilon %g "
                             "--dp-delta %g --max-tokens %d added)",
                             *sigma, dp.removed_epsilon, delta,
                             input.preprocess.max_tokens_per_doc);
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "--dp-epsilon and --dp-delta were removed: they added noise once to the final Gibbs "
      "counts and claimed (epsilon, delta)-DP for them, which that noise does not give (the "
      "final counts of a Gibbs chain depend on every document through the chain, so their "
      "sensitivity is unbounded). The same noise, with no guarantee claimed, is "
      "--final-noise-sigma S",
      same,
      "; --dp-vocab-epsilon gives a DP vocabulary. DP training for the whole run is not built "
      "yet (docs/privacy.md)"));
}

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

void AddDpFlags(CLI::App* app, DpFlags* f) {
  app->add_option("--dp-vocab-epsilon", f->vocab_epsilon,
                  "Choose the vocabulary by DP set union, (epsilon, delta)-DP for the list of "
                  "terms only (not the counts); replaces --min-df/--max-df (0 = off)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1000.0));
  app->add_option("--dp-vocab-delta", f->vocab_delta, "delta of the DP vocabulary selection")
      ->capture_default_str()
      ->check(CLI::Range(1e-300, 0.4999));
  app->add_option("--dp-vocab-max-terms", f->vocab_max_terms,
                  "Distinct terms each document contributes to the DP vocabulary (its most "
                  "frequent)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  app->add_option("--final-noise-sigma", f->final_noise_sigma,
                  "Add discrete Gaussian noise of this sigma once to every final count: a "
                  "heuristic with NO differential-privacy guarantee (no epsilon is claimed or "
                  "stored; 0 = off)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1099511627776.0));
  app->add_option("--dp-epsilon", f->removed_epsilon,
                  "Removed (it claimed a DP guarantee the final-count noise does not give): an "
                  "error that names the replacement")
      ->group("");  // hidden from --help
  app->add_option("--dp-delta", f->removed_delta, "Removed with --dp-epsilon")->group("");
}

absl::StatusOr<privacy::DpTrainingOptions> DpOptionsFrom(const DpFlags& dp,
                                                         const InputFlags& input) {
  if (dp.removed_epsilon != 0 || dp.removed_delta != 0) return RemovedDpEpsilonError(dp, input);
  privacy::DpTrainingOptions options;
  if (dp.final_noise_sigma > 0) {
    options.final_noise = privacy::FinalCountNoiseOptions{dp.final_noise_sigma};
  }
  if (dp.vocab_epsilon > 0) {
    if (lda::IsPreparedCorpusDir(input.input)) {
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
    options.vocabulary =
        privacy::DpVocabularyOptions{dp.vocab_epsilon, dp.vocab_delta, dp.vocab_max_terms};
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

privacy::PrivacyUnit PrivacyUnitFor(const InputFlags& input) {
  const bool prepared = lda::IsPreparedCorpusDir(input.input);
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
                 "document (--dp-vocab-epsilon selects it with DP)",
                 model);
  }
  spdlog::warn("the topic-term counts of {} are NOT differentially private ({}); no mode of "
               "pplda makes them DP yet, so {} as a whole has no DP guarantee",
               model,
               options.final_noise ? "the final-count noise is a heuristic without guarantee"
                                   : "they are exact",
               model);
  // The budget of what was privatised, and only that.
  double epsilon = 0, delta = 0;
  if (accountant != nullptr && !accountant->empty()) {
    epsilon = accountant->epsilon();
    delta = accountant->delta();
  } else if (accountant == nullptr && options.vocabulary) {
    epsilon = options.vocabulary->epsilon;
    delta = options.vocabulary->delta;
  }
  if (epsilon > 0) {
    std::printf("differential privacy: (%g, %g)-DP for the vocabulary only (DP set union: the "
                "list of terms%s); the topic-term counts are NOT covered\n",
                epsilon, delta, publishing ? "" : " of each model");
    std::printf("%s\n", privacy::PrivacyUnitLine(unit, epsilon, delta).c_str());
  }
  if (options.final_noise) {
    std::printf("final-count noise: sigma %g added once to every count; %s, so none is "
                "claimed or stored\n",
                options.final_noise->sigma, privacy::kFinalCountNoiseDisclaimer);
  }
}

}  // namespace pplda::cli

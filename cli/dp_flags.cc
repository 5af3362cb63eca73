#include "cli/dp_flags.h"

#include "base/status_macros.h"
#include "lda/prepared_corpus.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {

void AddDpFlags(CLI::App* app, DpFlags* f) {
  app->add_option("--dp-epsilon", f->epsilon,
                  "Publish the counts with exact discrete Gaussian noise for (epsilon, delta)-DP, "
                  "document-level; needs --max-tokens L (0 = off)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1000.0));
  app->add_option("--dp-delta", f->delta, "delta of the DP model noise")
      ->capture_default_str()
      ->check(CLI::Range(1e-300, 0.4999));
  app->add_option("--dp-vocab-epsilon", f->vocab_epsilon,
                  "Choose the vocabulary by DP set union with this epsilon; replaces "
                  "--min-df/--max-df (0 = off)")
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
}

absl::StatusOr<privacy::DpTrainingOptions> DpOptionsFrom(const DpFlags& dp,
                                                         const InputFlags& input) {
  privacy::DpTrainingOptions options;
  if (dp.epsilon > 0) {
    if (input.preprocess.max_tokens_per_doc <= 0) {
      return absl::InvalidArgumentError(
          "--dp-epsilon needs --max-tokens L: the noise is calibrated to documents of at most "
          "L tokens (each document's sensitivity), e.g. --max-tokens 100");
    }
    options.model = privacy::DpModelOptions{dp.epsilon, dp.delta,
                                            input.preprocess.max_tokens_per_doc};
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

int64_t ApplyDpCap(const privacy::DpTrainingOptions& options, lda::Corpus* corpus) {
  if (!options.model) return 0;
  const size_t cap = static_cast<size_t>(options.model->max_tokens_per_document);
  int64_t cut = 0;
  for (lda::Document& d : corpus->documents) {
    if (d.tokens.size() > cap) {
      d.tokens.resize(cap);
      ++cut;
    }
  }
  return cut;
}

}  // namespace pplda::cli

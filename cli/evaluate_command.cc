// `pplda evaluate`: held-out perplexity (document completion) and UMass
// coherence of a model file on a prepared folder's test set, or on raw
// documents mapped onto the model's vocabulary.
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/command.h"
#include "cli/input_flags.h"
#include "cli/model_metadata.h"
#include "cli/number_flags.h"
#include "lda/metrics.h"
#include "lda/model_file.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {
namespace {

struct EvaluateFlags {
  InputFlags input;
  std::string model;
  lda::PerplexityOptions eval;
  bool json = false;
};

struct EvaluationData {
  lda::Corpus test;       // perplexity is measured here
  lda::Corpus reference;  // co-document frequencies for coherence
};

absl::StatusOr<EvaluationData> LoadEvaluationData(const EvaluateFlags& f, const lda::LdaModel& model,
                                                  bool quiet) {
  EvaluationData data;
  ASSIGN_OR_RETURN(const bool prepared, ReadsPreparedFolder(f.input));
  if (prepared) {
    ASSIGN_OR_RETURN(lda::PreparedCorpus prepared, lda::ReadPreparedCorpus(f.input.input));
    if (prepared.train.vocabulary.terms() != model.vocabulary.terms()) {
      return absl::InvalidArgumentError(
          "the model's vocabulary differs from the prepared folder's " + f.input.input +
          " (was the model trained on it?)");
    }
    data.test = std::move(prepared.test);
    data.reference = std::move(prepared.train);
    if (data.test.num_documents() == 0) {
      return absl::InvalidArgumentError(f.input.input +
                                        " has no test documents (prepared with --test-every 0?)");
    }
    return data;
  }
  ASSIGN_OR_RETURN(lda::RawCorpus raw, ReadInput(f.input, quiet));
  lda::PreprocessReport report;
  ASSIGN_OR_RETURN(data.test, lda::MapToVocabulary(raw, model.vocabulary,
                                                   PreprocessOptionsFrom(f.input), &report));
  LogPreprocessReport(report, quiet);
  data.reference = data.test;
  return data;
}

absl::Status RunEvaluate(const EvaluateFlags& f, const GlobalFlags& g) {
  ASSIGN_OR_RETURN(lda::LdaModel model, lda::ReadModelFile(f.model));
  ASSIGN_OR_RETURN(EvaluationData data, LoadEvaluationData(f, model, g.quiet));
  ASSIGN_OR_RETURN(double perplexity, lda::HeldOutPerplexity(model, data.test, f.eval));
  ASSIGN_OR_RETURN(lda::CoherenceResult coherence, lda::UMassCoherence(model, data.reference, 10));
  if (f.json) {
    nlohmann::json out = {{"model", f.model},
                          {"held_out_perplexity", perplexity},
                          {"umass_coherence_top10", coherence.mean},
                          {"umass_coherence_per_topic", coherence.per_topic},
                          {"test_documents", data.test.num_documents()},
                          {"test_tokens", data.test.num_tokens()},
                          {"method", PerplexityMethod(f.eval)}};
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    std::printf("held-out perplexity   %.2f  (%d documents, %lld tokens; document completion)\n",
                perplexity, data.test.num_documents(),
                static_cast<long long>(data.test.num_tokens()));
    std::printf("UMass coherence (10)  %.3f  (mean over %d topics)\n", coherence.mean,
                model.num_topics);
  }
  return absl::OkStatus();
}

}  // namespace

void AddEvaluateCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run) {
  auto flags = std::make_shared<EvaluateFlags>();
  CLI::App* app = root.add_subcommand(
      "evaluate", "Held-out perplexity and UMass coherence of a model on held-out documents");
  app->add_option("--model,-m", flags->model, "Model file (JSON)")->required();
  AddInputFlags(app, &flags->input);
  app->add_option("--sweeps", flags->eval.sweeps, "Gibbs sweeps per held-out document")
      ->capture_default_str()
      ->check(NumberIn<int>(1, 100000));
  app->add_option("--burn-in", flags->eval.burn_in, "Sweeps discarded before averaging theta")
      ->capture_default_str()
      ->check(NumberIn<int>(0, 100000));
  app->add_option("--seed", flags->eval.seed, "Random seed")
      ->capture_default_str()
      ->check(NumberIn<uint64_t>(0, UINT64_MAX));
  app->add_option("--threads", flags->eval.threads, "Threads (0 = all cores)")
      ->capture_default_str()
      ->check(NumberIn<int>(0, kMaxThreadsFlag));
  app->add_flag("--json", flags->json, "Print the figures as JSON");
  app->callback(
      [flags, &globals, run] { *run = [flags, &globals] { return RunEvaluate(*flags, globals); }; });
}

}  // namespace pplda::cli

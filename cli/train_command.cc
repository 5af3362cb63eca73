// `pplda train`: fits an LDA model with the plaintext collapsed Gibbs
// samplers on a prepared folder or raw documents, writes the model JSON and,
// when the input has a test set, reports held-out perplexity and coherence.
// With the privacy flags (cli/dp_flags.h) the vocabulary can be chosen by DP
// set union (a DP release of the list of terms), the counts trained with DP
// for the whole run (--dp-epsilon: noisy counts at every noisy iteration,
// privacy/dp_count_training.h; the accountant, with the run's budget, is
// debited by every release), and the final counts can carry heuristic
// noise (no DP guarantee, no budget). The model records the budget with
// what it covers, the mechanism and the privacy unit; the model file of such
// a run holds no exact statistic of the documents.
#include <chrono>
#include <memory>
#include <optional>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/command.h"
#include "cli/dp_flags.h"
#include "cli/input_flags.h"
#include "cli/model_metadata.h"
#include "cli/number_flags.h"
#include "cli/output_paths.h"
#include "crypto/random/buffered_rng.h"
#include "lda/collapsed_gibbs_sampler.h"
#include "lda/metrics.h"
#include "lda/model_file.h"
#include "lda/prepared_corpus.h"
#include "lda/sampler_options.h"
#include "privacy/dp_training.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {
namespace {

struct TrainFlags {
  InputFlags input;
  lda::SamplerOptions sampler;
  std::string sampler_kind = "auto";
  int iterations = 500;
  std::string out = "model.json";
  std::string mixtures_out;
  int eval_sweeps = 50;
  bool no_evaluate = false;
  DpFlags dp;
  const CLI::Option* sampler_option = nullptr;
  const CLI::Option* seed_option = nullptr;
};

// The training corpus, and a held-out one when the input was prepared.
struct TrainingData {
  lda::Corpus train;
  lda::Corpus test;
  nlohmann::json corpus_info;
};

absl::StatusOr<TrainingData> LoadTrainingData(const InputFlags& f, bool quiet) {
  ASSIGN_OR_RETURN(LoadedCorpus loaded, LoadCorpus(f, quiet));
  TrainingData data{std::move(loaded.train), std::move(loaded.test), std::move(loaded.info)};
  data.corpus_info["train_documents"] = data.train.num_documents();
  data.corpus_info["train_tokens"] = data.train.num_tokens();
  data.corpus_info["vocabulary_size"] = data.train.vocabulary.size();
  if (data.train.num_tokens() == 0) {
    return absl::InvalidArgumentError("no tokens left to train on in " + f.input +
                                      " (check the preprocessing options)");
  }
  return data;
}

// DP vocabulary selection and the DP caps before training (OS CSPRNG noise).
absl::Status PrepareForDp(const privacy::DpTrainingOptions& dp, crypto::SecureRng& rng,
                          bool quiet, TrainingData* data, privacy::PrivacyAccountant* accountant) {
  if (!dp.vocabulary && !dp.counts) return absl::OkStatus();
  ASSIGN_OR_RETURN(privacy::DpTrainingCorpus prepared,
                   privacy::PrepareDpTrainingCorpus(data->train, dp, rng, accountant));
  if (!quiet) {
    // Exact figures for the operator only; the model file does not hold them.
    if (dp.vocabulary) {
      spdlog::info("DP vocabulary: kept {} of the {} terms some document contributed; {} "
                   "documents left without tokens dropped",
                   prepared.corpus.vocabulary.size(), prepared.candidate_terms,
                   prepared.dropped_documents);
    }
    if (dp.counts) {
      spdlog::info("DP caps (L = {}, c = {}) shortened {} of {} documents",
                   dp.counts->caps.max_tokens, dp.counts->caps.max_per_term,
                   prepared.capped_documents, prepared.corpus.num_documents());
    }
  }
  data->train = std::move(prepared.corpus);
  data->corpus_info["train_documents"] = data->train.num_documents();
  data->corpus_info["train_tokens"] = data->train.num_tokens();
  data->corpus_info["vocabulary_size"] = data->train.vocabulary.size();
  return absl::OkStatus();
}

// What a model file from a run with privacy options records about its
// corpus: the options only, no figure computed from the documents.
nlohmann::json DpCorpusInfo(const InputFlags& f, const nlohmann::json& loaded_info) {
  nlohmann::json info;
  if (IsPreparedInput(f)) {
    info = {{"prepared_folder", true},
            {"preprocess", loaded_info.value("preprocess", nlohmann::json())}};
  } else {
    info = InputOptionsInfo(f);
  }
  info["input"] = f.input;
  return info;
}

// DP training for the whole run: the model is the last noisy release.
absl::StatusOr<lda::LdaModel> TrainWithDp(const TrainFlags& f, const GlobalFlags& g,
                                          const privacy::DpTrainingOptions& dp,
                                          const TrainingData& data, crypto::SecureRng& rng,
                                          privacy::PrivacyAccountant* accountant,
                                          nlohmann::json* mechanism) {
  if (f.seed_option != nullptr && f.seed_option->count() > 0) {
    spdlog::warn("--seed is not used with --dp-epsilon: the Gibbs draws of DP training must be "
                 "unpredictable, so their seed is drawn from the OS CSPRNG and not recorded");
  }
  ProgressReporter progress("train (DP)", f.iterations, "iterations", g.progress_mode());
  ASSIGN_OR_RETURN(privacy::DpCountTraining trained,
                   privacy::TrainWithNoisyCounts(
                       data.train, f.sampler, f.iterations, *dp.counts, rng, accountant,
                       [&progress](int done) { progress.Update(done, "noisy counts"); }));
  progress.Finish("noisy counts");
  if (!g.quiet) {
    // Exact figure for the operator only; the model file does not hold it.
    spdlog::info("DP training: {} of the last release's cells were negative and set to 0",
                 trained.clamped_cells_last);
  }
  *mechanism = privacy::DescribeDpCountTraining(*dp.counts, f.iterations, trained.noise, nullptr,
                                                trained.sampled ? &*trained.sampled : nullptr);
  return std::move(trained.model);
}

absl::Status RunTrain(const TrainFlags& f, const GlobalFlags& g) {
  ASSIGN_OR_RETURN(privacy::DpTrainingOptions dp, DpOptionsFrom(f.dp, f.input, f.iterations));
  ASSIGN_OR_RETURN(std::string sampler_kind,
                   SamplerForDp(f.sampler_kind,
                                f.sampler_option != nullptr && f.sampler_option->count() > 0, dp));
  if (dp.counts) {
    RETURN_IF_ERROR(privacy::ValidateDpCountOptions(*dp.counts, f.iterations));
    if (!f.mixtures_out.empty()) {
      return absl::InvalidArgumentError(
          "--mixtures cannot be used with --dp-epsilon: it would write each training "
          "document's exact topic mixture, which DP training does not release");
    }
  }
  // Where the outputs go, before any work.
  OutputPaths outputs;
  AddInputPaths(f.input, &outputs);
  RETURN_IF_ERROR(outputs.AddFile("--out", f.out));
  if (!f.mixtures_out.empty()) RETURN_IF_ERROR(outputs.AddFile("--mixtures", f.mixtures_out));
  const InputFlags input = InputFlagsForDp(f.input, dp, g.quiet);
  ASSIGN_OR_RETURN(TrainingData data, LoadTrainingData(input, g.quiet));
  crypto::SodiumRng os_rng;
  crypto::BufferedRng noise_rng(os_rng);  // one getrandom per 4 KiB of noise
  ASSIGN_OR_RETURN(privacy::PrivacyAccountant accountant, privacy::MakeDpAccountant(dp));
  RETURN_IF_ERROR(PrepareForDp(dp, noise_rng, g.quiet, &data, &accountant));
  // "auto" is resolved here, so the log and the model name the sampler run.
  if (sampler_kind == "auto") sampler_kind = lda::AutoSamplerKind(data.train, f.sampler);
  if (!g.quiet) {
    spdlog::info("training {} sampler{}: {} documents, {} tokens, {} terms, K={}, {} iterations",
                 sampler_kind, dp.counts ? " with DP" : "", data.train.num_documents(),
                 data.train.num_tokens(), data.train.vocabulary.size(), f.sampler.num_topics,
                 f.iterations);
  }
  auto start = std::chrono::steady_clock::now();
  const double tokens = static_cast<double>(data.train.num_tokens());
  nlohmann::json trace = nlohmann::json::array();
  nlohmann::json mechanism = nullptr;
  std::unique_ptr<lda::LdaSampler> sampler;
  lda::LdaModel model;
  if (dp.counts) {
    ASSIGN_OR_RETURN(model, TrainWithDp(f, g, dp, data, noise_rng, &accountant, &mechanism));
  } else {
    ASSIGN_OR_RETURN(sampler, lda::CreateSampler(sampler_kind, data.train, f.sampler));
    const int trace_every = std::max(1, f.iterations / 20);
    ProgressReporter progress("train", f.iterations, "iterations", g.progress_mode());
    std::string detail;
    for (int it = 1; it <= f.iterations; ++it) {
      sampler->RunIteration();
      if (it % trace_every == 0 || it == f.iterations) {
        double ll = sampler->LogLikelihood() / tokens;
        trace.push_back({it, ll});
        detail = absl::StrFormat("log-likelihood/token %.4f", ll);
      }
      progress.Update(it, detail);
    }
    progress.Finish(detail);
    model = sampler->Model();
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  ASSIGN_OR_RETURN(std::optional<privacy::FinalCountNoise> noise,
                   privacy::ApplyFinalCountNoise(dp, noise_rng, &model));
  if (dp.enabled()) {
    // Parameters only: no document or token count, timing or trace (each is
    // an exact statistic of the documents).
    model.metadata = nlohmann::json::object();
    const nlohmann::json training = {
        {"mode", "plaintext"},
        {"sampler", sampler_kind},
        {"iterations", f.iterations},
        {"seed", dp.counts ? nlohmann::json("secret (DP training: drawn from the OS CSPRNG)")
                           : nlohmann::json(f.sampler.seed)},
        {"threads", f.sampler.threads}};
    AddStandardMetadata(&model.metadata, training, DpCorpusInfo(input, data.corpus_info));
    const privacy::PrivacyUnit unit = PrivacyUnitFor(input);
    model.metadata["privacy"] = privacy::DpPrivacyStatement(dp, accountant, unit, noise, mechanism);
    ReportPrivacy(dp, &accountant, unit, /*publishing=*/true);
    if (!f.mixtures_out.empty()) {
      spdlog::warn("{} holds each training document's exact topic mixture: no privacy option "
                   "covers it; do not publish it",
                   f.mixtures_out);
    }
  } else {
    nlohmann::json training = {{"mode", "plaintext"},
                               {"sampler", sampler_kind},
                               {"iterations", f.iterations},
                               {"seed", f.sampler.seed},
                               {"threads", f.sampler.threads},
                               {"seconds", seconds},
                               {"tokens_per_second", tokens * f.iterations / seconds},
                               {"log_likelihood_per_token_trace", trace}};
    AddStandardMetadata(&model.metadata, training, data.corpus_info);
  }

  if (data.test.num_documents() > 0 && !f.no_evaluate) {
    lda::PerplexityOptions eval;
    eval.sweeps = f.eval_sweeps;
    eval.burn_in = f.eval_sweeps / 5;  // 10 of the default 50
    eval.seed = f.sampler.seed;
    eval.threads = f.sampler.threads;
    ASSIGN_OR_RETURN(double perplexity, lda::HeldOutPerplexity(model, data.test, eval));
    ASSIGN_OR_RETURN(lda::CoherenceResult coherence, lda::UMassCoherence(model, data.train, 10));
    std::printf("held-out perplexity %.2f (%d test documents), UMass coherence %.3f%s\n",
                perplexity, data.test.num_documents(), coherence.mean,
                dp.enabled() ? " (exact figures of your documents: not stored in the model file)"
                             : "");
    if (!dp.enabled()) {
      model.metadata["evaluation"] = {{"held_out_perplexity", perplexity},
                                      {"umass_coherence_top10", coherence.mean},
                                      {"test_documents", data.test.num_documents()},
                                      {"test_tokens", data.test.num_tokens()},
                                      {"method", PerplexityMethod(eval)}};
    }
  }
  RETURN_IF_ERROR(lda::WriteModelFile(model, f.out));
  if (!f.mixtures_out.empty() && sampler != nullptr) {
    RETURN_IF_ERROR(
        WriteTopicMixturesCsv(sampler->DocumentTopicMixtures(), data.train, f.mixtures_out));
  }
  std::printf("trained K=%d on %lld tokens in %.1f s; model written to %s%s\n",
              f.sampler.num_topics, static_cast<long long>(data.train.num_tokens()), seconds,
              f.out.c_str(), outputs.ReplacedNote(f.out).c_str());
  if (!f.mixtures_out.empty() && sampler != nullptr) {
    std::printf("topic mixtures written to %s%s\n", f.mixtures_out.c_str(),
                outputs.ReplacedNote(f.mixtures_out).c_str());
  }
  return absl::OkStatus();
}

}  // namespace

void AddTrainCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run) {
  auto flags = std::make_shared<TrainFlags>();
  CLI::App* app = root.add_subcommand("train", "Train a topic model (plaintext, one party)");
  AddInputFlags(app, &flags->input);
  app->add_option("--topics,-k", flags->sampler.num_topics, "Number of topics K")
      ->capture_default_str()
      ->check(NumberIn<int>(1, lda::kMaxTopics));
  app->add_option("--iterations,-n", flags->iterations, "Gibbs iterations")
      ->capture_default_str()
      ->check(NumberIn<int>(1, 10000000));
  flags->sampler_option =
      app->add_option("--sampler", flags->sampler_kind,
                      "auto (= sparse), sparse (the standard sampler's conditional over packed "
                      "per-term count lists; 0.4-0.7x its time), standard (collapsed Gibbs, "
                      "SparseLDA buckets; the "
                      "exact reference), mh (collapsed Gibbs by Metropolis-Hastings steps), warp "
                      "(WarpLDA's cache-efficient MH layout, approximate) or batched (the secure "
                      "protocol's twin)")
          ->capture_default_str()
          ->check(CLI::IsMember({"auto", "standard", "sparse", "mh", "warp", "batched"}));
  app->add_option("--alpha", flags->sampler.alpha, "Document-topic Dirichlet prior")
      ->capture_default_str()
      ->check(NumberIn<double>(kMinPrior, kMaxPrior));
  app->add_option("--beta", flags->sampler.beta, "Topic-term Dirichlet prior")
      ->capture_default_str()
      ->check(NumberIn<double>(kMinPrior, kMaxPrior));
  flags->seed_option = app->add_option("--seed", flags->sampler.seed,
                                       "Random seed (runs are deterministic given the seed and "
                                       "the thread count; not used by DP training, whose draws "
                                       "are seeded secretly)")
      ->capture_default_str()
      ->check(NumberIn<uint64_t>(0, UINT64_MAX));
  app->add_option("--threads", flags->sampler.threads, "Threads (0 = all cores)")
      ->capture_default_str()
      ->check(NumberIn<int>(0, kMaxThreadsFlag));
  app->add_option("--mh-steps", flags->sampler.mh_steps,
                  "Metropolis-Hastings steps per token per iteration (--sampler mh: 1-64; "
                  "warp: 2-8)")
      ->capture_default_str()
      ->check(NumberIn<int>(1, lda::kMaxMetropolisSteps));
  app->add_option("--out,-o", flags->out, "Model file to write (JSON)")->capture_default_str();
  app->add_option("--mixtures", flags->mixtures_out,
                  "Also write each training document's topic mixture to this CSV file");
  app->add_option("--eval-sweeps", flags->eval_sweeps,
                  "Gibbs sweeps per held-out document for perplexity (document completion; "
                  "the first fifth are burn-in)")
      ->capture_default_str()
      ->check(NumberIn<int>(1, 100000));
  app->add_flag("--no-evaluate", flags->no_evaluate,
                "Skip the held-out evaluation after training on a prepared folder");
  AddDpFlags(app, &flags->dp);
  app->callback([flags, &globals, run] { *run = [flags, &globals] { return RunTrain(*flags, globals); }; });
}

}  // namespace pplda::cli

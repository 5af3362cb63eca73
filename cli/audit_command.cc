// `pplda audit`: the membership-inference audit (LiRA for topic models,
// privacy/lira_audit.h) a party runs on its own documents: trains N + 1
// models on random halves with the same pipeline and parameters as
// `pplda train`, attacks each with the others as shadows, and writes the
// figures (JSON), the ROC (CSV and log-log SVG), per-document exposure and a
// Markdown report into --out. With the privacy flags (cli/dp_flags.h) every
// model goes through the pipeline the real run would use (DP vocabulary
// selection, final-count noise), so the audit measures their effect; it
// measures, it does not certify (the final-count noise has no DP guarantee,
// and the report says so).
#include <cstdio>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/command.h"
#include "cli/dp_flags.h"
#include "cli/input_flags.h"
#include "cli/model_metadata.h"
#include "cli/number_flags.h"
#include "cli/output_paths.h"
#include "lda/sampler_options.h"
#include "privacy/audit_report.h"
#include "privacy/dp_shadow_trainer.h"
#include "privacy/gibbs_shadow_trainer.h"
#include "privacy/lira_audit.h"
#include "privacy/vocabulary_shadow_trainer.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {
namespace {

struct AuditFlags {
  InputFlags input;
  privacy::GibbsTrainingOptions training;
  int shadows = 64;
  bool online_only = false;
  bool offline_only = false;
  std::string variance = "auto";
  double zeta_tolerance = 1e-6;
  uint64_t seed = 1;
  int threads = 0;
  bool fixed_vocabulary = false;
  std::string out = "audit";
  DpFlags dp;
  const CLI::Option* sampler_option = nullptr;
};

struct AuditCorpus {
  lda::Corpus corpus;
  nlohmann::json info;
  // Raw documents: every term kept, no cap; each model filters its own
  // documents with these options (VocabularyShadowTrainer). Unset for a
  // prepared folder, whose vocabulary was built once from all documents.
  std::optional<lda::PreprocessOptions> per_model_vocabulary;
};

// A prepared folder's training and test documents (one vocabulary), or raw
// documents tokenized as `pplda train` does, with every term: the
// document-frequency filtering and the cap are left to each model.
absl::StatusOr<AuditCorpus> LoadAuditCorpus(const InputFlags& f, bool fixed_vocabulary,
                                            bool quiet) {
  ASSIGN_OR_RETURN(const bool prepared, ReadsPreparedFolder(f));
  if (fixed_vocabulary && !prepared) {
    ASSIGN_OR_RETURN(LoadedCorpus loaded, LoadCorpus(f, quiet));
    AuditCorpus data{std::move(loaded.train), std::move(loaded.info), std::nullopt};
    data.info["vocabulary"] =
        "built once from all documents (--fixed-vocabulary: the paper's setting; what the "
        "vocabulary reveals is not measured)";
    return data;
  }
  InputFlags load = f;
  if (!prepared) {
    load.preprocess.min_df = 1;
    load.preprocess.max_df = 1.0;
    load.preprocess.max_tokens_per_doc = 0;
  }
  ASSIGN_OR_RETURN(LoadedCorpus loaded, LoadCorpus(load, quiet));
  AuditCorpus data{std::move(loaded.train), std::move(loaded.info), std::nullopt};
  for (lda::Document& d : loaded.test.documents) data.corpus.documents.push_back(std::move(d));
  if (prepared) {
    data.info["vocabulary"] =
        "built once by pplda prepare from all documents (every model uses it; give raw "
        "documents for a vocabulary built per model, as the real run builds it)";
    if (!quiet) {
      spdlog::warn(
          "{} is a prepared folder: every model uses its vocabulary, built from all "
          "documents, so the audit does not measure what the vocabulary reveals; give "
          "the raw documents to build each model's vocabulary from its own documents",
          f.input);
    }
  } else {
    data.per_model_vocabulary = PreprocessOptionsFrom(f);
    data.info["vocabulary"] = "built per model from its own documents";
  }
  return data;
}

// The command that reproduces this audit: every option that changes the
// result (threads do not).
std::string CommandLine(const AuditFlags& f) {
  const InputFlags& in = f.input;
  const lda::PreprocessOptions& p = in.preprocess;
  const lda::SamplerOptions& s = f.training.sampler_options;
  std::string cmd = absl::StrFormat("pplda audit --input %s --format %s --split %s", in.input,
                                    in.format, in.split);
  if (in.split == "sentences") absl::StrAppendFormat(&cmd, " --window-words %d", in.read.window_words);
  if (!in.uci_vocab.empty()) absl::StrAppend(&cmd, " --uci-vocab ", in.uci_vocab);
  if (in.no_preprocess) {
    cmd += " --no-preprocess";
  } else {
    if (in.keep_stopwords) cmd += " --keep-stopwords";
    if (!p.stopwords_path.empty()) absl::StrAppend(&cmd, " --stopwords ", p.stopwords_path);
    absl::StrAppendFormat(&cmd, " --min-length %d --max-length %d --min-df %d --max-df %g",
                          p.min_length, p.max_length, p.min_df, p.max_df);
    if (p.stem) absl::StrAppend(&cmd, " --stem --stem-language ", p.stem_language);
  }
  if (p.max_tokens_per_doc > 0) absl::StrAppendFormat(&cmd, " --max-tokens %d", p.max_tokens_per_doc);
  absl::StrAppendFormat(&cmd,
                        " --topics %d --shadows %d --iterations %d --sampler %s --alpha %g "
                        "--beta %g --seed %d --variance %s --zeta-tolerance %g",
                        s.num_topics, f.shadows, f.training.iterations,
                        f.dp.epsilon != 0 ? std::string("batched") : f.training.sampler, s.alpha,
                        s.beta, f.seed, f.variance, f.zeta_tolerance);
  if (f.dp.final_noise_sigma > 0) {
    absl::StrAppendFormat(&cmd, " --final-noise-sigma %g", f.dp.final_noise_sigma);
  }
  if (f.dp.vocab_epsilon > 0) {
    const bool delta_given =
        f.dp.vocab_delta_option != nullptr && f.dp.vocab_delta_option->count() > 0;
    const double vocab_delta = f.dp.epsilon != 0 && !delta_given ? f.dp.delta / 2 : f.dp.vocab_delta;
    absl::StrAppendFormat(&cmd, " --dp-vocab-epsilon %g --dp-vocab-delta %g --dp-vocab-max-terms %d",
                          f.dp.vocab_epsilon, vocab_delta, f.dp.vocab_max_terms);
  }
  if (f.dp.epsilon != 0) {
    absl::StrAppendFormat(&cmd,
                          " --dp-epsilon %g --dp-delta %g --dp-max-tokens %d --dp-max-term-count "
                          "%d --dp-noisy-iterations %d",
                          f.dp.epsilon, f.dp.delta, f.dp.max_tokens, f.dp.max_per_term,
                          ResolvedNoisyIterations(f.dp, f.training.iterations));
  }
  if (f.fixed_vocabulary) cmd += " --fixed-vocabulary";
  if (f.online_only) cmd += " --online";
  if (f.offline_only) cmd += " --offline";
  return cmd + " --out " + f.out;
}

void PrintFigures(const privacy::AuditResult& r, const privacy::AuditReportOptions& o) {
  auto line = [](const char* name, const privacy::VariantEvaluation& v) {
    std::printf("%s LiRA: TPR %.2f%% at 0.1%% FPR, %.2f%% at 1%% FPR, AUC %.4f\n", name,
                100 * v.tpr_at_0_1_percent_fpr, 100 * v.tpr_at_1_percent_fpr, v.auc);
  };
  if (o.online) line("online", r.evaluation.online);
  if (o.offline) line("offline", r.evaluation.offline);
}

// The plaintext trainer, wrapped in the DP pipeline when DP is asked for,
// and in the per-model vocabulary for raw documents (outermost: the real run
// filters and caps before any DP step).
absl::StatusOr<std::unique_ptr<privacy::ShadowTrainer>> MakeTrainer(
    const privacy::GibbsTrainingOptions& training, const privacy::DpTrainingOptions& dp,
    const std::optional<lda::PreprocessOptions>& per_model_vocabulary) {
  ASSIGN_OR_RETURN(std::unique_ptr<privacy::GibbsShadowTrainer> gibbs,
                   privacy::GibbsShadowTrainer::Create(training));
  std::unique_ptr<privacy::ShadowTrainer> trainer = std::move(gibbs);
  if (dp.enabled()) {
    ASSIGN_OR_RETURN(trainer, privacy::DpShadowTrainer::Create(std::move(trainer), dp, training));
  }
  if (per_model_vocabulary) {
    ASSIGN_OR_RETURN(trainer, privacy::VocabularyShadowTrainer::Create(std::move(trainer),
                                                                       *per_model_vocabulary));
  }
  return trainer;
}

absl::Status RunAudit(const AuditFlags& f, const GlobalFlags& g) {
  OutputPaths outputs;
  AddInputPaths(f.input, &outputs);
  RETURN_IF_ERROR(outputs.AddFolder("--out", f.out, OutputPaths::FolderUse::kCreateOrReuse));
  RETURN_IF_ERROR(privacy::CheckAuditOutputDir(f.out));
  privacy::AuditOptions options;
  options.num_shadows = f.shadows;
  options.seed = f.seed;
  options.threads = f.threads;
  options.zeta.tolerance = f.zeta_tolerance;
  ASSIGN_OR_RETURN(options.lira.variance, privacy::ParseVarianceMode(f.variance));
  RETURN_IF_ERROR(privacy::ValidateAuditOptions(options));
  ASSIGN_OR_RETURN(privacy::DpTrainingOptions dp,
                   DpOptionsFrom(f.dp, f.input, f.training.iterations));
  privacy::GibbsTrainingOptions training = f.training;
  ASSIGN_OR_RETURN(training.sampler,
                   SamplerForDp(f.training.sampler,
                                f.sampler_option != nullptr && f.sampler_option->count() > 0, dp));
  const InputFlags input = InputFlagsForDp(f.input, dp, g.quiet);
  ASSIGN_OR_RETURN(AuditCorpus data, LoadAuditCorpus(input, f.fixed_vocabulary, g.quiet));
  ASSIGN_OR_RETURN(std::unique_ptr<privacy::ShadowTrainer> trainer,
                   MakeTrainer(training, dp, data.per_model_vocabulary));
  RETURN_IF_ERROR(privacy::ValidateAuditRequest(data.corpus.num_documents(), options));
  const int models = f.shadows + 1;
  if (!g.quiet) {
    spdlog::info("LiRA audit: {} documents, {} tokens, {} terms; {} models (K={}, {} iterations "
                 "each) on random halves, each in turn the target of the other {}",
                 data.corpus.num_documents(), data.corpus.num_tokens(),
                 data.corpus.vocabulary.size(), models, f.training.sampler_options.num_topics,
                 f.training.iterations, f.shadows);
  }
  ProgressReporter progress("audit", models, "models", g.progress_mode());
  options.on_model_done = [&progress](int done, int) { progress.Update(done, "trained and scored"); };
  ASSIGN_OR_RETURN(privacy::AuditResult result,
                   privacy::RunLiraAudit(data.corpus, *trainer, options));
  progress.Finish();

  privacy::AuditReportOptions report;
  report.online = !f.offline_only;
  report.offline = !f.online_only;
  report.run_info = {{"command", CommandLine(f)}, {"corpus", data.info}};
  RETURN_IF_ERROR(privacy::WriteAuditOutputs(result, data.corpus, report, f.out));
  PrintFigures(result, report);
  ReportPrivacy(dp, /*accountant=*/nullptr, PrivacyUnitFor(input), /*publishing=*/false);
  std::printf(
      "audit of %d documents (%lld tokens) with %d shadows per target took %.1f s on %d threads; "
      "report in %s/report.md\n",
      result.num_documents, static_cast<long long>(result.num_tokens), f.shadows,
      result.timing.wall_seconds, result.timing.threads, f.out.c_str());
  std::printf(
      "`pplda report --model MODEL --audit %s --out report.html` shows this ROC in a "
      "model's HTML report\n",
      f.out.c_str());
  return absl::OkStatus();
}

}  // namespace

void AddAuditCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run) {
  auto flags = std::make_shared<AuditFlags>();
  CLI::App* app = root.add_subcommand(
      "audit", "Membership-inference audit (LiRA) of the training pipeline on your own documents");
  AddInputFlags(app, &flags->input);
  lda::SamplerOptions& s = flags->training.sampler_options;
  app->add_option("--topics,-k", s.num_topics, "Number of topics K (as in the real run)")
      ->capture_default_str()
      ->check(NumberIn<int>(1, lda::kMaxTopics));
  app->add_option("--shadows", flags->shadows,
                  absl::StrFormat("Shadow models per target N, in [%d, %d]; N + 1 models are "
                                  "trained. Below %d the pooled variance is used",
                                  privacy::kMinShadows, privacy::kMaxShadows,
                                  privacy::kPerDocumentVarianceMinShadows))
      ->capture_default_str()
      ->check(NumberIn<int>(privacy::kMinShadows, privacy::kMaxShadows));
  auto* online = app->add_flag("--online", flags->online_only,
                               "Report only the online attack (in and out shadows)");
  auto* offline = app->add_flag("--offline", flags->offline_only,
                                "Report only the offline attack (out shadows, one-sided test)");
  online->excludes(offline);
  app->add_option("--iterations,-n", flags->training.iterations, "Gibbs iterations per model")
      ->capture_default_str()
      ->check(NumberIn<int>(1, 10000000));
  flags->sampler_option = app->add_option("--sampler", flags->training.sampler, "standard or batched (as in the real run)")
      ->capture_default_str()
      ->check(CLI::IsMember({"standard", "batched"}));
  app->add_option("--alpha", s.alpha, "Document-topic Dirichlet prior")
      ->capture_default_str()
      ->check(NumberIn<double>(kMinPrior, kMaxPrior));
  app->add_option("--beta", s.beta, "Topic-term Dirichlet prior")
      ->capture_default_str()
      ->check(NumberIn<double>(kMinPrior, kMaxPrior));
  app->add_option("--seed", flags->seed, "Random seed (halves and every model's seed derive from it)")
      ->capture_default_str()
      ->check(NumberIn<uint64_t>(0, UINT64_MAX));
  app->add_option("--threads", flags->threads,
                  "Models trained at once, one thread each (0 = all cores)")
      ->capture_default_str()
      ->check(NumberIn<int>(0, kMaxThreadsFlag));
  app->add_option("--variance", flags->variance,
                  "Gaussian variances: auto, per-document or global (pooled)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "per-document", "global"}));
  app->add_option("--zeta-tolerance", flags->zeta_tolerance,
                  "Certified accuracy of zeta = max_theta log p(d | theta, Phi), in nats")
      ->capture_default_str()
      ->check(NumberIn<double>(1e-12, 10.0));
  app->add_flag("--fixed-vocabulary", flags->fixed_vocabulary,
                "Every model uses the vocabulary built once from all documents (the paper's "
                "setting) instead of its own, built from its documents as the real run builds "
                "it; the audit then does not measure what the vocabulary reveals");
  app->add_option("--out,-o", flags->out,
                  "Output folder (audit.json, roc.csv, roc.svg, documents.csv, report.md)")
      ->capture_default_str();
  AddDpFlags(app, &flags->dp);
  app->callback([flags, &globals, run] {
    *run = [flags, &globals] { return RunAudit(*flags, globals); };
  });
}

}  // namespace pplda::cli

// `pplda run start|status|watch|result|cancel --config FILE`: the run CLI,
// over mutual TLS to the coordinator daemon as one participant of the
// consortium (FILE is that participant's party.toml or coordinator.toml;
// coordinator/daemon/coordinator_client.h).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/atomic_file.h"
#include "base/progress.h"
#include "base/status_macros.h"
#include "cli/command.h"
#include "cli/dp_flags.h"
#include "cli/input_flags.h"
#include "cli/number_flags.h"
#include "cli/output_paths.h"
#include "cli/privacy_summary.h"
#include "coordinator/daemon/coordinator_client.h"
#include "lda/sampler_options.h"

namespace pplda::cli {
namespace {

struct RunFlags {
  std::string config;
  std::string run_id;  // empty: the latest run
  int topics = 10;
  int iterations = 50;
  double alpha = 0.1;
  double beta = 0.01;
  std::string draw = "cdf";
  bool watch = false;
  bool verify_conversion = false;
  bool accept_two_holder_disclosure = false;
  std::string out = "model.json";
  std::string reason = "cancelled from the run CLI";
  DpFlags dp;  // DP training (AddDpTrainingFlags) and the DP vocabulary
  int64_t dp_vocab_threshold = 0;
};

std::string Describe(const pplda::v1::RunStatus& s) {
  std::string line = absl::StrFormat("run %s: %s", s.run_id(), s.state());
  if (s.state() == "iterating" || s.state() == "publishing" || s.state() == "published" ||
      s.state() == "waiting") {
    absl::StrAppendFormat(&line, ", iteration %d/%d", s.iteration(), s.iterations());
  }
  if (s.seconds_per_iteration() > 0 && s.state() != "published") {
    absl::StrAppendFormat(&line, ", %.1f s/iteration, %s left", s.seconds_per_iteration(),
                          ProgressReporter::FormatDuration(s.seconds_left()));
  }
  if (s.mpc_bytes_per_iteration() > 0) {
    absl::StrAppendFormat(&line, ", %.1f MB and %d MPC rounds per iteration (party 0)",
                          s.mpc_bytes_per_iteration() / 1e6, s.mpc_rounds_per_iteration());
  }
  if (!s.phase().empty()) absl::StrAppend(&line, "\n  now: ", s.phase());
  if (s.waiting_for_size() > 0) {
    absl::StrAppend(&line, "\n  waiting for: ", absl::StrJoin(s.waiting_for(), ", "));
  }
  if (!s.error().empty()) absl::StrAppend(&line, "\n  error: ", s.error());
  return line;
}

absl::Status Watch(coordinator::CoordinatorClient& client, const std::string& run_id,
                   const std::string& config) {
  std::string last_state;
  int last_iteration = -1;
  pplda::v1::RunStatus final_status;
  RETURN_IF_ERROR(client.Watch(run_id, [&](const pplda::v1::RunStatus& s) {
    if (s.state() != last_state || s.iteration() != last_iteration) {
      std::fprintf(stderr, "%s\n", Describe(s).c_str());
      last_state = s.state();
      last_iteration = s.iteration();
    }
    final_status = s;
  }));
  if (final_status.state() == "failed" || final_status.state() == "cancelled") {
    return absl::AbortedError(absl::StrCat("run ", final_status.run_id(), " ",
                                           final_status.state(), ": ", final_status.error()));
  }
  if (final_status.state() == "published") {
    std::fprintf(stderr, "published: fetch it with `pplda run result --config %s --out model.json`\n",
                 config.c_str());
  }
  return absl::OkStatus();
}

absl::Status RunStart(const RunFlags& f) {
  ASSIGN_OR_RETURN(auto client, coordinator::CoordinatorClient::FromConfig(f.config));
  pplda::v1::RunParameters p;
  p.set_num_topics(static_cast<uint32_t>(f.topics));
  p.set_iterations(static_cast<uint32_t>(f.iterations));
  p.set_alpha(f.alpha);
  p.set_beta(f.beta);
  p.set_draw_method(f.draw);
  p.set_verify_conversion(f.verify_conversion);
  p.set_accept_two_holder_disclosure(f.accept_two_holder_disclosure);
  ASSIGN_OR_RETURN(const privacy::DpTrainingOptions dp,
                   DpOptionsFrom(f.dp, InputFlags(), f.iterations));
  if (dp.counts) {
    RETURN_IF_ERROR(privacy::ValidateDpCountOptions(*dp.counts, f.iterations));
    p.set_dp_epsilon(dp.counts->epsilon);
    p.set_dp_delta(dp.counts->delta);
    p.set_dp_max_tokens(static_cast<uint32_t>(dp.counts->caps.max_tokens));
    p.set_dp_max_term_count(static_cast<uint32_t>(dp.counts->caps.max_per_term));
    p.set_dp_noisy_iterations(static_cast<uint32_t>(dp.counts->noisy_iterations));
  }
  if (dp.vocabulary) {
    // The consortium's vocabulary file is then the public candidate list
    // (protocol/run_dp_budget.h); the coordinator checks the budget split.
    p.set_dp_vocab_epsilon(dp.vocabulary->epsilon);
    p.set_dp_vocab_delta(dp.vocabulary->delta);
    p.set_dp_vocab_max_terms(static_cast<uint32_t>(dp.vocabulary->max_terms_per_document));
    p.set_dp_vocab_threshold(f.dp_vocab_threshold);
  } else if (f.dp_vocab_threshold != 0) {
    return absl::InvalidArgumentError(
        "--dp-vocab-threshold is the DP vocabulary's: add --dp-vocab-epsilon");
  }
  ASSIGN_OR_RETURN(std::string run_id, client->Start(p));
  std::printf("%s\n", run_id.c_str());
  std::fflush(stdout);
  if (f.watch) return Watch(*client, run_id, f.config);
  return absl::OkStatus();
}

absl::Status RunStatusCommand(const RunFlags& f) {
  ASSIGN_OR_RETURN(auto client, coordinator::CoordinatorClient::FromConfig(f.config));
  ASSIGN_OR_RETURN(pplda::v1::RunStatus s, client->Status(f.run_id));
  std::printf("%s\n", Describe(s).c_str());
  return absl::OkStatus();
}

absl::Status RunWatch(const RunFlags& f) {
  ASSIGN_OR_RETURN(auto client, coordinator::CoordinatorClient::FromConfig(f.config));
  return Watch(*client, f.run_id, f.config);
}

absl::Status RunResult(const RunFlags& f) {
  OutputPaths outputs;
  outputs.AddInput("--config", f.config);
  RETURN_IF_ERROR(outputs.AddFile("--out", f.out));
  ASSIGN_OR_RETURN(auto client, coordinator::CoordinatorClient::FromConfig(f.config));
  ASSIGN_OR_RETURN(std::string json, client->Result(f.run_id));
  RETURN_IF_ERROR(WriteFileAtomically(f.out, json));
  std::printf("model written to %s%s; `pplda topics --model %s` shows its topics\n", f.out.c_str(),
              outputs.ReplacedNote(f.out).c_str(), f.out.c_str());
  std::printf("`pplda report --model %s --out report.html` makes an HTML report of it\n",
              f.out.c_str());
  // The budget the model records (or that it records none), as `pplda
  // topics` shows it.
  const nlohmann::json model = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (model.is_object()) {
    PrintPrivacySummary(PrivacySummary(model.value("metadata", nlohmann::json())));
  }
  return absl::OkStatus();
}

absl::Status RunCancel(const RunFlags& f) {
  ASSIGN_OR_RETURN(auto client, coordinator::CoordinatorClient::FromConfig(f.config));
  RETURN_IF_ERROR(client->Cancel(f.run_id, f.reason));
  std::printf("cancel requested\n");
  return absl::OkStatus();
}

void AddConfig(CLI::App* app, RunFlags* f, bool with_run_id) {
  app->add_option("--config,-c", f->config,
                  "This participant's party.toml or coordinator.toml (name, consortium, TLS)")
      ->required();
  if (with_run_id) app->add_option("--run", f->run_id, "Run id (default: the latest run)");
}

}  // namespace

void AddRunCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run) {
  CLI::App* app = root.add_subcommand("run", "Secure runs on the consortium's daemons");
  app->require_subcommand(1);
  auto f = std::make_shared<RunFlags>();
  CLI::App* start = app->add_subcommand("start", "Start a secure training run");
  AddConfig(start, f.get(), false);
  start->add_option("--topics,-k", f->topics, "Number of topics K")
      ->capture_default_str()
      ->check(NumberIn<int>(1, lda::kMaxTopics));
  start->add_option("--iterations,-n", f->iterations, "Gibbs iterations")
      ->capture_default_str()
      ->check(NumberIn<int>(0, 1000000));
  start->add_option("--alpha", f->alpha, "Document-topic prior (a multiple of 1e-6)")
      ->capture_default_str()
      ->check(NumberIn<double>(kMinPrior, kMaxPrior));
  start->add_option("--beta", f->beta, "Topic-term prior (a multiple of 1e-6)")
      ->capture_default_str()
      ->check(NumberIn<double>(kMinPrior, kMaxPrior));
  start->add_option("--draw", f->draw, "Secure draw: binary, tree or cdf (fewest rounds)")
      ->capture_default_str()
      ->check(CLI::IsMember({"binary", "tree", "cdf"}));
  start->add_flag("--watch", f->watch, "Follow the run until it ends");
  start->add_flag("--verify-conversion", f->verify_conversion,
                  "Proofs of correct decryption in every iteration, verified by every party "
                  "(about 5x the conversion's time at 1024 bits; docs/performance.md)");
  start->add_flag("--accept-two-holder-disclosure", f->accept_two_holder_disclosure,
                  "With two data holders and no DP, each learns the other's topic-term counts "
                  "(the published counts minus its own); refused without this flag (each "
                  "holder's party.toml must accept it too)");
  AddDpTrainingFlags(start, &f->dp);
  AddDpVocabularyFlags(start, &f->dp);
  start
      ->add_option("--dp-vocab-threshold", f->dp_vocab_threshold,
                   "DP vocabulary: the noisy document count a candidate needs to be kept (0 = the "
                   "default rule, docs/privacy.md)")
      ->capture_default_str()
      ->check(NumberIn<int64_t>(0, int64_t{1} << 40));
  start->callback([f, run] { *run = [f] { return RunStart(*f); }; });

  CLI::App* status = app->add_subcommand("status", "Show a run's state and who it waits for");
  AddConfig(status, f.get(), true);
  status->callback([f, run] { *run = [f] { return RunStatusCommand(*f); }; });

  CLI::App* watch = app->add_subcommand("watch", "Follow a run live until it ends");
  AddConfig(watch, f.get(), true);
  watch->callback([f, run] { *run = [f] { return RunWatch(*f); }; });

  CLI::App* result = app->add_subcommand("result", "Fetch a published model");
  AddConfig(result, f.get(), true);
  result->add_option("--out,-o", f->out, "Model file to write (JSON)")->capture_default_str();
  result->callback([f, run] { *run = [f] { return RunResult(*f); }; });

  CLI::App* cancel = app->add_subcommand("cancel", "Cancel the active run");
  AddConfig(cancel, f.get(), true);
  cancel->add_option("--reason", f->reason, "Why (logged by every daemon)");
  cancel->callback([f, run] { *run = [f] { return RunCancel(*f); }; });
  (void)globals;
}

}  // namespace pplda::cli

// `pplda topics`: each topic's top words and prevalence from a model file,
// as a readable table or JSON, and the privacy budget the model records
// (metadata.privacy: what it covers, the mechanism, the privacy unit), or
// that it records none. --format exports the model for other tools:
// pyldavis (pyLDAvis's prepared data, report/pyldavis_export.h; R = --top
// when given, else 30) and csv (topic-term weights, report/csv_export.h;
// every term unless --top is given), to stdout or --out.
#include <initializer_list>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "base/atomic_file.h"
#include "base/status_macros.h"
#include "cli/command.h"
#include "cli/number_flags.h"
#include "cli/output_paths.h"
#include "cli/privacy_summary.h"
#include "lda/metrics.h"
#include "lda/model_file.h"
#include "report/csv_export.h"
#include "report/pyldavis_export.h"

namespace pplda::cli {
namespace {

struct TopicsFlags {
  std::string model;
  int top = 10;
  bool top_given = false;
  bool json = false;
  std::string format = "table";
  std::string out;
};

// An export (--format pyldavis or csv) to --out, or stdout without it.
absl::Status RunExport(const TopicsFlags& f, const lda::LdaModel& model,
                       const OutputPaths& outputs) {
  std::string text;
  if (f.format == "pyldavis") {
    report::PyLdavisOptions options;
    if (f.top_given) options.relevant_terms = f.top;
    ASSIGN_OR_RETURN(nlohmann::json data, report::PyLdavisPreparedData(model, options));
    text = data.dump() + "\n";
  } else {
    ASSIGN_OR_RETURN(text, report::TopicTermCsv(model, f.top_given ? f.top : 0));
  }
  if (f.out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(WriteFileAtomically(f.out, text));
  std::printf("%s written to %s%s\n",
              f.format == "pyldavis" ? "pyLDAvis prepared data" : "topic-term weights (CSV)",
              f.out.c_str(), outputs.ReplacedNote(f.out).c_str());
  return absl::OkStatus();
}

absl::Status RunTopics(TopicsFlags f) {
  if (f.json) {
    if (f.format != "table" && f.format != "json") {
      return absl::InvalidArgumentError("--json and --format " + f.format + " disagree: pick one");
    }
    f.format = "json";
  }
  OutputPaths outputs;
  outputs.AddInput("--model", f.model);
  if (!f.out.empty()) {
    if (f.format != "pyldavis" && f.format != "csv") {
      return absl::InvalidArgumentError("--out is for --format pyldavis or csv");
    }
    RETURN_IF_ERROR(outputs.AddFile("--out", f.out));
  }
  ASSIGN_OR_RETURN(lda::LdaModel model, lda::ReadModelFile(f.model));
  if (f.format == "pyldavis" || f.format == "csv") return RunExport(f, model, outputs);
  const nlohmann::json privacy = PrivacySummary(model.metadata);
  auto top = lda::TopWords(model, f.top);
  auto prevalence = lda::TopicPrevalence(model);
  if (f.format == "json") {
    nlohmann::json topics = nlohmann::json::array();
    for (int k = 0; k < model.num_topics; ++k) {
      nlohmann::json words = nlohmann::json::array();
      for (const auto& [t, p] : top[k]) words.push_back({{"term", model.vocabulary.term(t)}, {"phi", p}});
      topics.push_back({{"topic", k}, {"prevalence", prevalence[k]}, {"top_words", words}});
    }
    std::printf("%s\n", nlohmann::json{{"model", f.model}, {"privacy", privacy}, {"topics", topics}}
                            .dump(2)
                            .c_str());
    return absl::OkStatus();
  }
  std::printf("%-5s  %-10s  %s\n", "topic", "prevalence", "top words");
  for (int k = 0; k < model.num_topics; ++k) {
    std::string words;
    for (const auto& [t, p] : top[k]) {
      if (!words.empty()) words += ' ';
      words += model.vocabulary.term(t);
    }
    std::printf("%-5d  %9.1f%%  %s\n", k, 100 * prevalence[k], words.c_str());
  }
  PrintPrivacySummary(privacy);
  return absl::OkStatus();
}

}  // namespace

void AddTopicsCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run) {
  auto flags = std::make_shared<TopicsFlags>();
  CLI::App* app = root.add_subcommand("topics", "Top words and prevalence of each topic of a model");
  app->add_option("--model,-m", flags->model, "Model file (JSON)")->required();
  CLI::Option* top = app->add_option("--top", flags->top,
                                     "Words shown per topic (pyldavis: R, default 30; csv: "
                                     "default every term)")
                         ->capture_default_str()
                         ->check(NumberIn<int>(1, 1000));
  app->add_flag("--json", flags->json, "Print as JSON (as --format json)");
  app->add_option("--format", flags->format,
                  "table, json, pyldavis (pyLDAvis prepared-data JSON) or csv (topic-term "
                  "weights)")
      ->capture_default_str()
      ->check(CLI::IsMember({"table", "json", "pyldavis", "csv"}));
  app->add_option("--out,-o", flags->out, "File for --format pyldavis or csv (default: stdout)");
  app->callback([flags, top, run] {
    flags->top_given = top->count() > 0;
    *run = [flags] { return RunTopics(*flags); };
  });
}

}  // namespace pplda::cli

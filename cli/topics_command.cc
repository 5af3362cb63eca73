// `pplda topics`: each topic's top words and prevalence from a model file,
// as a readable table or JSON, and the privacy budget the model records
// (metadata.privacy: what it covers, the mechanism, the privacy unit), or
// that it records none.
#include <initializer_list>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/command.h"
#include "cli/number_flags.h"
#include "cli/privacy_summary.h"
#include "lda/metrics.h"
#include "lda/model_file.h"

namespace pplda::cli {
namespace {

struct TopicsFlags {
  std::string model;
  int top = 10;
  bool json = false;
};

absl::Status RunTopics(const TopicsFlags& f) {
  ASSIGN_OR_RETURN(lda::LdaModel model, lda::ReadModelFile(f.model));
  const nlohmann::json privacy = PrivacySummary(model.metadata);
  auto top = lda::TopWords(model, f.top);
  auto prevalence = lda::TopicPrevalence(model);
  if (f.json) {
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
  app->add_option("--top", flags->top, "Words shown per topic")
      ->capture_default_str()
      ->check(NumberIn<int>(1, 1000));
  app->add_flag("--json", flags->json, "Print as JSON");
  app->callback([flags, run] { *run = [flags] { return RunTopics(*flags); }; });
}

}  // namespace pplda::cli

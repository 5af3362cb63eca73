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
#include "lda/metrics.h"
#include "lda/model_file.h"

namespace pplda::cli {
namespace {

struct TopicsFlags {
  std::string model;
  int top = 10;
  bool json = false;
};

// out[to] = from[key] (null when absent) for each (to, key) pair.
void CopyFields(const nlohmann::json& from,
                std::initializer_list<std::pair<const char*, const char*>> fields,
                nlohmann::json* out) {
  for (const auto& [to, key] : fields) (*out)[to] = from.value(key, nlohmann::json());
}

// The "privacy" summary of a model's metadata: {"differentially_private",
// "epsilon", "delta", "covers", "unit", "mechanism", "noisy_iterations",
// "sigma", "rho_total", "conversion"} from metadata.privacy (null fields
// where the model records none).
nlohmann::json PrivacySummary(const nlohmann::json& metadata) {
  const nlohmann::json p = metadata.value("privacy", nlohmann::json());
  if (!p.is_object()) return {{"differentially_private", false}, {"recorded", false}};
  nlohmann::json out = {{"recorded", true},
                        {"differentially_private", p.value("model_differentially_private", false)},
                        {"setting", p.value("setting", nlohmann::json())}};
  const nlohmann::json dp = p.value("differential_privacy", nlohmann::json());
  if (dp.is_object()) {
    CopyFields(dp, {{"epsilon", "epsilon"}, {"delta", "delta"}, {"covers", "covers"},
                    {"conversion", "conversion"}, {"rho_total", "rho"}},
               &out);
    const nlohmann::json unit = dp.value("privacy_unit", nlohmann::json());
    if (unit.is_object()) out["unit"] = unit.value("unit", nlohmann::json());
  }
  const nlohmann::json training = p.value("dp_training", nlohmann::json());
  if (training.is_object()) {
    CopyFields(training,
               {{"mechanism", "mechanism"}, {"noisy_iterations", "noisy_iterations"},
                {"iterations", "iterations"}, {"sigma", "sigma"},
                {"max_tokens_per_document", "max_tokens_per_document"},
                {"max_tokens_per_term", "max_tokens_per_term"}},
               &out);
  }
  return out;
}

std::string Text(const nlohmann::json& s, const char* key) {
  return s.contains(key) && s[key].is_string() ? s[key].get<std::string>() : "(not stated)";
}
double Number(const nlohmann::json& s, const char* key) {
  return s.contains(key) && s[key].is_number() ? s[key].get<double>() : 0.0;
}

void PrintPrivacy(const nlohmann::json& s) {
  if (!s.value("recorded", false)) {
    std::printf("privacy: none recorded (no privacy option: exact counts, no DP guarantee)\n");
    return;
  }
  const bool whole = s.value("differentially_private", false);
  if (!s.contains("epsilon") || !s["epsilon"].is_number() || !s["delta"].is_number()) {
    std::printf("privacy: no differential-privacy budget recorded; the model has NO DP "
                "guarantee\n");
    return;
  }
  std::printf("privacy: (%.4g, %g)-DP%s, covering %s\n", s["epsilon"].get<double>(),
              s["delta"].get<double>(),
              whole ? " for the whole model" : " (the model as a whole is NOT DP)",
              Text(s, "covers").c_str());
  if (s.contains("unit") && s["unit"].is_string()) {
    std::printf("privacy unit: one %s\n", s["unit"].get<std::string>().c_str());
  }
  if (s.contains("sigma") && s["sigma"].is_number()) {
    std::printf("DP training: %d noisy iterations of %d, sigma %.4g, documents capped at L = %d "
                "tokens, c = %d per term; zCDP rho %.4g in all, converted by %s\n",
                static_cast<int>(Number(s, "noisy_iterations")),
                static_cast<int>(Number(s, "iterations")), Number(s, "sigma"),
                static_cast<int>(Number(s, "max_tokens_per_document")),
                static_cast<int>(Number(s, "max_tokens_per_term")), Number(s, "rho_total"),
                Text(s, "conversion").c_str());
  }
}

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
  PrintPrivacy(privacy);
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

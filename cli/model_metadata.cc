#include "cli/model_metadata.h"

#include <fstream>

#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/atomic_file.h"

#ifndef PPLDA_VERSION
#define PPLDA_VERSION "unknown"
#endif

namespace pplda::cli {

nlohmann::json InputOptionsInfo(const InputFlags& flags) {
  lda::PreprocessOptions p = PreprocessOptionsFrom(flags);
  nlohmann::json info = {
      {"format", flags.format},
      {"split", flags.split},
      {"preprocess", p.enabled},
  };
  if (flags.split == "sentences") info["window_words"] = flags.read.window_words;
  if (p.enabled) {
    info["preprocessing"] = {{"lowercase", true},
                             {"alphabetic_only", true},
                             {"stopwords", p.remove_stopwords
                                               ? (p.stopwords_path.empty() ? "bundled-english"
                                                                           : p.stopwords_path)
                                               : "none"},
                             {"min_length", p.min_length},
                             {"max_length", p.max_length},
                             {"min_df", p.min_df},
                             {"max_df", p.max_df},
                             {"stem", p.stem ? p.stem_language : "none"},
                             {"max_tokens_per_document", p.max_tokens_per_doc}};
  }
  return info;
}

nlohmann::json PreprocessingInfo(const InputFlags& flags, const lda::PreprocessReport& r) {
  nlohmann::json info = InputOptionsInfo(flags);
  info["documents_read"] = r.documents_in;
  info["documents_dropped_empty"] = r.dropped_empty;
  info["tokens_read"] = r.tokens_in;
  return info;
}

void AddStandardMetadata(nlohmann::json* metadata, const nlohmann::json& training,
                         const nlohmann::json& corpus) {
  nlohmann::json& m = *metadata;
  if (!m.is_object()) m = nlohmann::json::object();
  m["pplda_version"] = PPLDA_VERSION;
  m["created"] = absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::Now(), absl::UTCTimeZone());
  m["training"] = training;
  m["corpus"] = corpus;
  m["privacy"] = {
      {"setting", "plaintext"},
      {"leakage",
       "Trained in plaintext by one party on its own documents: the topic-term counts are exact "
       "and no privacy protection was applied."},
      {"differential_privacy", nullptr},
      {"epsilon", nullptr},
      {"delta", nullptr}};
}

std::string PerplexityMethod(const lda::PerplexityOptions& o) {
  return absl::StrFormat(
      "document completion: theta of each held-out document estimated by %d Gibbs sweeps "
      "(burn-in %d) on half of its tokens with the model fixed, perplexity over the other half",
      o.sweeps, o.burn_in);
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  return "\"" + absl::StrReplaceAll(s, {{"\"", "\"\""}}) + "\"";
}

absl::Status WriteTopicMixturesCsv(const std::vector<std::vector<double>>& theta,
                                   const lda::Corpus& corpus, const std::string& path) {
  std::string text = "document";
  for (size_t k = 0; k < (theta.empty() ? 0 : theta[0].size()); ++k) {
    absl::StrAppendFormat(&text, ",topic_%d", k);
  }
  text += "\n";
  for (size_t m = 0; m < theta.size(); ++m) {
    text += CsvField(corpus.documents[m].name);
    for (double p : theta[m]) absl::StrAppendFormat(&text, ",%.6g", p);
    text += "\n";
  }
  // Exact per-document statistics: readable by the owner only.
  return WriteFileAtomically(path, text, FileMode::kPrivate);
}

}  // namespace pplda::cli

#include "lda/tokenizer.h"

#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "lda/bundled_stopwords.h"
#include "lda/text_file.h"
#include "lda/text_split.h"
#include "lda/unicode_text.h"
#include "libstemmer.h"

namespace pplda::lda {
namespace {

constexpr int64_t kMaxStopwordFileBytes = int64_t{16} << 20;

bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::string_view TrimAscii(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

absl::StatusOr<std::vector<std::string>> ParseStopwords(std::string_view text,
                                                        std::string_view source) {
  if (auto bad = FindInvalidUtf8(text)) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(source), ":", bad->line,
                                                   ": invalid UTF-8 at byte offset ",
                                                   bad->byte_offset));
  }
  std::vector<std::string> words;
  RETURN_IF_ERROR(ForEachLine(text, [&](int64_t, std::string_view line) {
    line = TrimAscii(line);
    if (!line.empty() && line.front() != '#') words.push_back(ToLowerCaseUtf8(line));
    return absl::OkStatus();
  }));
  return words;
}

std::string KnownStemmers() {
  std::vector<std::string> names;
  for (const char** name = sb_stemmer_list(); *name != nullptr; ++name) names.emplace_back(*name);
  return absl::StrJoin(names, ", ");
}

template <typename T>
absl::Status ReadJsonField(const nlohmann::json& json, const char* key, T* value) {
  if (!json.contains(key)) return absl::OkStatus();
  const nlohmann::json& field = json.at(key);
  bool type_ok = false;
  if constexpr (std::is_same_v<T, bool>) {
    type_ok = field.is_boolean();
  } else if constexpr (std::is_same_v<T, std::string>) {
    type_ok = field.is_string();
  } else if constexpr (std::is_integral_v<T>) {
    type_ok = field.is_number_integer();
  } else {
    type_ok = field.is_number();
  }
  if (!type_ok) {
    return absl::InvalidArgumentError(absl::StrCat("preprocessing option '", key,
                                                   "' has the wrong type: ", field.dump()));
  }
  *value = field.get<T>();
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidatePreprocessOptions(const PreprocessOptions& o) {
  const auto bad = [](std::string_view field, auto value, std::string_view rule) {
    return absl::InvalidArgumentError(absl::StrCat("preprocessing option ", std::string(field),
                                                   " = ", value, ": ", std::string(rule)));
  };
  if (o.min_length < 1) return bad("min_length", o.min_length, "must be at least 1");
  if (o.max_length < o.min_length) {
    return bad("max_length", o.max_length, "must be at least min_length");
  }
  if (o.min_df < 1) return bad("min_df", o.min_df, "must be at least 1");
  if (!(o.max_df > 0.0 && o.max_df <= 1.0)) {
    return bad("max_df", o.max_df, "must be a fraction in (0, 1]");
  }
  if (o.max_tokens_per_doc < 0) {
    return bad("max_tokens_per_doc", o.max_tokens_per_doc, "must be 0 (no cap) or positive");
  }
  return absl::OkStatus();
}

nlohmann::json PreprocessOptionsToJson(const PreprocessOptions& o) {
  return nlohmann::json{{"enabled", o.enabled},
                        {"remove_stopwords", o.remove_stopwords},
                        {"stopwords_path", o.stopwords_path},
                        {"min_length", o.min_length},
                        {"max_length", o.max_length},
                        {"min_df", o.min_df},
                        {"max_df", o.max_df},
                        {"stem", o.stem},
                        {"stem_language", o.stem_language},
                        {"max_tokens_per_doc", o.max_tokens_per_doc}};
}

absl::StatusOr<PreprocessOptions> PreprocessOptionsFromJson(const nlohmann::json& json) {
  if (!json.is_object()) {
    return absl::InvalidArgumentError("preprocessing options must be a JSON object");
  }
  PreprocessOptions o;
  RETURN_IF_ERROR(ReadJsonField(json, "enabled", &o.enabled));
  RETURN_IF_ERROR(ReadJsonField(json, "remove_stopwords", &o.remove_stopwords));
  RETURN_IF_ERROR(ReadJsonField(json, "stopwords_path", &o.stopwords_path));
  RETURN_IF_ERROR(ReadJsonField(json, "min_length", &o.min_length));
  RETURN_IF_ERROR(ReadJsonField(json, "max_length", &o.max_length));
  RETURN_IF_ERROR(ReadJsonField(json, "min_df", &o.min_df));
  RETURN_IF_ERROR(ReadJsonField(json, "max_df", &o.max_df));
  RETURN_IF_ERROR(ReadJsonField(json, "stem", &o.stem));
  RETURN_IF_ERROR(ReadJsonField(json, "stem_language", &o.stem_language));
  RETURN_IF_ERROR(ReadJsonField(json, "max_tokens_per_doc", &o.max_tokens_per_doc));
  RETURN_IF_ERROR(ValidatePreprocessOptions(o));
  return o;
}

absl::StatusOr<std::vector<std::string>> LoadStopwords(const std::string& path) {
  if (path.empty()) return ParseStopwords(BundledEnglishStopwordsText(), "bundled stop words");
  ASSIGN_OR_RETURN(std::string text, ReadFileBytes(path, kMaxStopwordFileBytes));
  return ParseStopwords(text, path);
}

int64_t CountRawTokens(const RawDocument& doc) {
  if (doc.pretokenized) return static_cast<int64_t>(doc.words.size());
  return CountWords(doc.text);
}

void Tokenizer::StemmerDeleter::operator()(sb_stemmer* stemmer) const {
  sb_stemmer_delete(stemmer);
}

Tokenizer::Tokenizer(Tokenizer&&) noexcept = default;
Tokenizer& Tokenizer::operator=(Tokenizer&&) noexcept = default;
Tokenizer::~Tokenizer() = default;

absl::StatusOr<Tokenizer> Tokenizer::Create(const PreprocessOptions& options) {
  RETURN_IF_ERROR(ValidatePreprocessOptions(options));
  Tokenizer tokenizer(options);
  if (!options.enabled) return tokenizer;
  if (options.remove_stopwords) {
    ASSIGN_OR_RETURN(std::vector<std::string> words, LoadStopwords(options.stopwords_path));
    tokenizer.stopwords_.insert(words.begin(), words.end());
  }
  if (options.stem) {
    tokenizer.stemmer_.reset(sb_stemmer_new(options.stem_language.c_str(), "UTF_8"));
    if (tokenizer.stemmer_ == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown stem language '",
                                                     options.stem_language,
                                                     "' (known: ", KnownStemmers(), ")"));
    }
  }
  return tokenizer;
}

absl::Status Tokenizer::AddWord(std::string word, std::vector<std::string>* out) {
  if (word.empty()) return absl::OkStatus();
  if (stopwords_.contains(word)) return absl::OkStatus();
  const size_t length = CountCodePoints(word);
  if (length < static_cast<size_t>(options_.min_length) ||
      length > static_cast<size_t>(options_.max_length)) {
    return absl::OkStatus();
  }
  if (stemmer_ != nullptr) {
    const sb_symbol* stemmed =
        sb_stemmer_stem(stemmer_.get(), reinterpret_cast<const sb_symbol*>(word.data()),
                        static_cast<int>(word.size()));
    if (stemmed == nullptr) return absl::InternalError("Snowball stemmer ran out of memory");
    word.assign(reinterpret_cast<const char*>(stemmed),
                static_cast<size_t>(sb_stemmer_length(stemmer_.get())));
  }
  out->push_back(std::move(word));
  return absl::OkStatus();
}

absl::Status Tokenizer::AddWordsOf(std::string_view text, std::vector<std::string>* out) {
  if (auto bad = FindInvalidUtf8(text)) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid UTF-8 at byte offset ", bad->byte_offset));
  }
  std::string word;
  size_t pos = 0;
  while (pos < text.size()) {
    const char32_t cp = DecodeUtf8At(text, &pos);
    if (IsWordLetter(cp)) {
      AppendUtf8(ToLowerCase(cp), &word);
    } else if (!word.empty()) {
      RETURN_IF_ERROR(AddWord(std::move(word), out));
      word.clear();
    }
  }
  return AddWord(std::move(word), out);
}

absl::StatusOr<std::vector<std::string>> Tokenizer::Tokenize(const RawDocument& doc) {
  std::vector<std::string> tokens;
  if (!options_.enabled) {
    if (doc.pretokenized) {
      for (const std::string& w : doc.words) {
        if (!w.empty()) tokens.push_back(w);
      }
      return tokens;
    }
    size_t i = 0;
    const std::string_view text = doc.text;
    while (i < text.size()) {
      while (i < text.size() && IsAsciiSpace(text[i])) ++i;
      size_t j = i;
      while (j < text.size() && !IsAsciiSpace(text[j])) ++j;
      if (j > i) tokens.emplace_back(text.substr(i, j - i));
      i = j;
    }
    return tokens;
  }
  absl::Status status;
  if (doc.pretokenized) {
    for (const std::string& w : doc.words) {
      status = AddWordsOf(w, &tokens);
      if (!status.ok()) break;
    }
  } else {
    status = AddWordsOf(doc.text, &tokens);
  }
  if (!status.ok()) {
    return absl::Status(status.code(), absl::StrCat("document ", doc.name, ": ",
                                                    status.message()));
  }
  return tokens;
}

absl::StatusOr<std::vector<std::string>> Tokenize(const RawDocument& doc,
                                                  const PreprocessOptions& options) {
  ASSIGN_OR_RETURN(Tokenizer tokenizer, Tokenizer::Create(options));
  return tokenizer.Tokenize(doc);
}

}  // namespace pplda::lda

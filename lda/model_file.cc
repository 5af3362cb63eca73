#include "lda/model_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/atomic_file.h"
#include "base/status_macros.h"

namespace pplda::lda {
namespace {

using nlohmann::json;

constexpr double kMaxCount = 9007199254740992.0;  // 2^53

absl::Status FieldError(const std::string& field, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat("model: field '", field, "' ", what));
}

std::string TypeName(const json& value) { return value.type_name(); }

// A value as JSON text for messages (invalid UTF-8 shown as U+FFFD).
std::string Dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

absl::StatusOr<const json*> RequiredField(const json& object,
                                          const std::string& field) {
  auto it = object.find(field);
  if (it == object.end()) return FieldError(field, "is missing");
  return &*it;
}

absl::StatusOr<double> PositiveNumber(const json& object,
                                      const std::string& field) {
  ASSIGN_OR_RETURN(const json* value, RequiredField(object, field));
  if (!value->is_number()) {
    return FieldError(field, absl::StrCat("must be a number, not a ",
                                          TypeName(*value)));
  }
  const double x = value->get<double>();
  if (!std::isfinite(x) || x <= 0) {
    return FieldError(field, absl::StrCat("is ", x, "; it must be > 0"));
  }
  return x;
}

absl::Status CheckHeader(const json& object) {
  if (auto it = object.find("format"); it != object.end()) {
    if (!it->is_string() || it->get<std::string>() != kModelFormatName) {
      return FieldError("format", absl::StrCat("is ", Dump(*it), "; expected \"",
                                               kModelFormatName, "\""));
    }
  }
  if (auto it = object.find("version"); it != object.end()) {
    if (!it->is_number_integer() ||
        it->get<int64_t>() != kModelFormatVersion) {
      return FieldError("version",
                        absl::StrCat("is ", Dump(*it), "; this reader supports version ",
                                     kModelFormatVersion));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Vocabulary> ReadVocabulary(const json& object) {
  ASSIGN_OR_RETURN(const json* value, RequiredField(object, "vocabulary"));
  if (!value->is_array()) {
    return FieldError("vocabulary", absl::StrCat("must be an array of strings, not a ",
                                                 TypeName(*value)));
  }
  if (value->empty()) return FieldError("vocabulary", "is empty");
  std::vector<std::string> terms;
  terms.reserve(value->size());
  for (size_t i = 0; i < value->size(); ++i) {
    const json& term = (*value)[i];
    if (!term.is_string()) {
      return FieldError("vocabulary", absl::StrCat("entry ", i, " is a ", TypeName(term),
                                                   "; terms must be strings"));
    }
    terms.push_back(term.get<std::string>());
  }
  absl::StatusOr<Vocabulary> vocabulary = Vocabulary::FromTerms(std::move(terms));
  if (!vocabulary.ok()) {
    return FieldError("vocabulary", std::string(vocabulary.status().message()));
  }
  return vocabulary;
}

// One count: an integer in [0, 2^53], or a float with zero fractional part.
absl::StatusOr<int64_t> ReadCount(const json& value, int k, size_t t,
                                  const Vocabulary& vocabulary) {
  auto where = [&] {
    return absl::StrCat("entry [", k, "][", t, "] (term '",
                        vocabulary.term(static_cast<TermId>(t)), "')");
  };
  if (!value.is_number()) {
    return FieldError("topic_term_counts", absl::StrCat(where(), " is a ", TypeName(value),
                                                        "; counts must be numbers"));
  }
  double x;
  if (value.is_number_unsigned()) {
    x = static_cast<double>(value.get<uint64_t>());
  } else if (value.is_number_integer()) {
    x = static_cast<double>(value.get<int64_t>());
  } else {
    x = value.get<double>();
    if (std::isfinite(x) && x != std::floor(x)) {
      return FieldError("topic_term_counts",
                        absl::StrCat(where(), " is ", Dump(value),
                                     "; counts must be integers (round published "
                                     "noisy counts before writing)"));
    }
  }
  if (x < 0) {
    return FieldError("topic_term_counts",
                      absl::StrCat(where(), " is ", Dump(value),
                                   "; counts must be >= 0 (clamp published noisy "
                                   "counts at 0 before writing)"));
  }
  if (!(x <= kMaxCount)) {
    return FieldError("topic_term_counts",
                      absl::StrCat(where(), " is ", Dump(value), "; counts must be <= 2^53"));
  }
  if (value.is_number_unsigned()) return static_cast<int64_t>(value.get<uint64_t>());
  if (value.is_number_integer()) return value.get<int64_t>();
  return static_cast<int64_t>(x);
}

absl::StatusOr<std::vector<int64_t>> ReadCounts(const json& object,
                                                const Vocabulary& vocabulary) {
  ASSIGN_OR_RETURN(const json* rows, RequiredField(object, "topic_term_counts"));
  if (!rows->is_array()) {
    return FieldError("topic_term_counts",
                      absl::StrCat("must be an array of rows (one per topic), not a ",
                                   TypeName(*rows)));
  }
  if (rows->empty()) return FieldError("topic_term_counts", "has no rows (no topics)");
  const size_t v = static_cast<size_t>(vocabulary.size());
  std::vector<int64_t> counts;
  counts.reserve(rows->size() * v);
  for (size_t k = 0; k < rows->size(); ++k) {
    const json& row = (*rows)[k];
    if (!row.is_array()) {
      return FieldError("topic_term_counts",
                        absl::StrCat("row ", k, " is a ", TypeName(row), "; expected an array"));
    }
    if (row.size() != v) {
      return FieldError("topic_term_counts",
                        absl::StrCat("row ", k, " has ", row.size(), " entries; expected ", v,
                                     " (the vocabulary size)"));
    }
    for (size_t t = 0; t < v; ++t) {
      ASSIGN_OR_RETURN(int64_t c, ReadCount(row[t], static_cast<int>(k), t, vocabulary));
      counts.push_back(c);
    }
  }
  return counts;
}

absl::Status CheckNumTopics(const json& object, size_t rows) {
  auto it = object.find("num_topics");
  if (it == object.end()) return absl::OkStatus();
  if (!it->is_number_integer()) {
    return FieldError("num_topics",
                      absl::StrCat("must be an integer, not ", Dump(*it)));
  }
  if (it->get<int64_t>() != static_cast<int64_t>(rows)) {
    return FieldError("num_topics",
                      absl::StrCat("is ", Dump(*it), " but topic_term_counts has ", rows,
                                   " rows"));
  }
  return absl::OkStatus();
}

// Line and column (1-based) of byte offset `byte` in `text`.
std::pair<size_t, size_t> LineAndColumn(const std::string& text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return absl::NotFoundError(absl::StrCat("model file '", path, "' does not exist"));
  }
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat("model file '", path, "' is a directory, not a file"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::PermissionDeniedError(absl::StrCat("cannot open model file '", path, "'"));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    return absl::DataLossError(absl::StrCat("error reading model file '", path, "'"));
  }
  return buffer.str();
}

// Every field of the model file but topic_term_counts.
json ModelFieldsWithoutCounts(const LdaModel& model) {
  json out = json::object();
  out["format"] = kModelFormatName;
  out["version"] = kModelFormatVersion;
  out["vocabulary"] = model.vocabulary.terms();
  out["alpha"] = model.alpha;
  out["beta"] = model.beta;
  out["num_topics"] = model.num_topics;
  out["metadata"] = model.metadata.is_null() ? json::object() : model.metadata;
  return out;
}

// Characters of c's decimal form (c >= 0).
size_t DecimalLength(int64_t c) {
  size_t length = 1;
  for (; c >= 10; c /= 10) ++length;
  return length;
}

// Characters CountsText writes: K rows of V numbers, commas and brackets.
size_t CountsTextLength(const LdaModel& model) {
  const size_t k = static_cast<size_t>(model.num_topics);
  size_t length = 2 + k * (static_cast<size_t>(model.num_terms()) + 1) + (k - 1);
  for (const int64_t c : model.topic_term_counts) length += DecimalLength(c);
  return length;
}

// topic_term_counts as JSON text (K rows of V integers) into out, which
// has room for exactly CountsTextLength(model) characters; returns the end.
char* CountsText(const LdaModel& model, char* out) {
  const size_t v = static_cast<size_t>(model.num_terms());
  const int64_t* counts = model.topic_term_counts.data();
  *out++ = '[';
  for (int k = 0; k < model.num_topics; ++k) {
    if (k > 0) *out++ = ',';
    *out++ = '[';
    for (size_t t = 0; t < v; ++t) {
      if (t > 0) *out++ = ',';
      const int64_t c = counts[k * v + t];
      if (c < 10) {  // most counts of a sparse model are 0
        *out++ = static_cast<char>('0' + c);
      } else {
        out = std::to_chars(out, out + 24, c).ptr;
      }
    }
    *out++ = ']';
  }
  *out++ = ']';
  return out;
}

}  // namespace

nlohmann::json ModelToJson(const LdaModel& model) {
  json rows = json::array();
  const size_t v = static_cast<size_t>(model.num_terms());
  for (int k = 0; k < model.num_topics; ++k) {
    const auto begin = model.topic_term_counts.begin() + static_cast<ptrdiff_t>(k * v);
    rows.push_back(json(std::vector<int64_t>(begin, begin + static_cast<ptrdiff_t>(v))));
  }
  json out = ModelFieldsWithoutCounts(model);
  out["topic_term_counts"] = std::move(rows);
  return out;
}

absl::StatusOr<LdaModel> ModelFromJson(const nlohmann::json& json) {
  if (!json.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat("model: expected a JSON object at the top level, not a ",
                     json.type_name()));
  }
  RETURN_IF_ERROR(CheckHeader(json));
  LdaModel model;
  ASSIGN_OR_RETURN(model.vocabulary, ReadVocabulary(json));
  ASSIGN_OR_RETURN(model.alpha, PositiveNumber(json, "alpha"));
  ASSIGN_OR_RETURN(model.beta, PositiveNumber(json, "beta"));
  ASSIGN_OR_RETURN(model.topic_term_counts, ReadCounts(json, model.vocabulary));
  const size_t rows = model.topic_term_counts.size() / model.vocabulary.size();
  RETURN_IF_ERROR(CheckNumTopics(json, rows));
  model.num_topics = static_cast<int>(rows);
  if (auto it = json.find("metadata"); it != json.end()) {
    if (!it->is_object()) {
      return FieldError("metadata", absl::StrCat("must be an object, not a ", it->type_name()));
    }
    model.metadata = *it;
  }
  RETURN_IF_ERROR(model.Validate());
  return model;
}

absl::Status WriteModelFile(const LdaModel& model, const std::string& path) {
  RETURN_IF_ERROR(model.Validate());
  // The counts (K x V numbers) are written straight into the text rather
  // than through a JSON tree of one node per number: the same text as
  // ModelToJson(model).dump(), in a fraction of the time and memory.
  std::string text;
  try {
    json fields = ModelFieldsWithoutCounts(model);
    fields["topic_term_counts"] = nullptr;
    text = fields.dump() + "\n";
  } catch (const json::type_error& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("model: cannot write '", path, "': ", e.what()));
  }
  // Keys are dumped in sorted order, so the top-level placeholder is the
  // last one: only "version" and the vocabulary's escaped strings follow it.
  constexpr std::string_view kPlaceholder = "\"topic_term_counts\":null";
  const size_t at = text.rfind(kPlaceholder);
  if (at == std::string::npos) return absl::InternalError("model: counts placeholder missing");
  // Written in place into a string of the final length (no copy of the
  // counts' text).
  const size_t counts_at = at + kPlaceholder.size() - 4;
  const size_t counts_length = CountsTextLength(model);
  std::string file(text.size() - 4 + counts_length, '\0');
  std::copy(text.begin(), text.begin() + static_cast<ptrdiff_t>(counts_at), file.begin());
  char* end = CountsText(model, file.data() + counts_at);
  if (end != file.data() + counts_at + counts_length) {
    return absl::InternalError("model: counts text length mismatch");
  }
  std::copy(text.begin() + static_cast<ptrdiff_t>(counts_at + 4), text.end(), end);
  return WriteFileAtomically(path, file);
}

absl::StatusOr<LdaModel> ReadModelFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path));
  json parsed;
  try {
    parsed = json::parse(text);
  } catch (const json::parse_error& e) {
    const auto [line, column] = LineAndColumn(text, e.byte > 0 ? e.byte - 1 : 0);
    return absl::InvalidArgumentError(absl::StrCat(
        "model file '", path, "' is not valid JSON at line ", line, ", column ",
        column, ": ", e.what()));
  } catch (const json::exception& e) {
    // E.g. out_of_range 406, a number beyond a double's range (1e400):
    // nlohmann's parser throws it without a position.
    return absl::InvalidArgumentError(
        absl::StrCat("model file '", path, "' is not valid JSON: ", e.what()));
  }
  absl::StatusOr<LdaModel> model = ModelFromJson(parsed);
  if (!model.ok()) {
    return absl::Status(model.status().code(),
                        absl::StrCat("model file '", path, "': ", model.status().message()));
  }
  return model;
}

}  // namespace pplda::lda

#include "net/daemon_config_file.h"

#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "toml++/toml.h"

namespace pplda::net {

const ConfigSchema& PartyConfigSchema() {
  static const ConfigSchema* schema = new ConfigSchema{
      {"party",
       {"name", "consortium", "documents", "vocabulary", "key_share", "public_key", "state_dir",
        "listen", "box_key", "metrics_listen", "threads", "initial_topics_seed",
        "receive_timeout_seconds", "insecure_deterministic_rng_seed",
        "insecure_capture_sent_payloads", "accept_two_holder_disclosure", "privacy_budget_epsilon",
        "privacy_budget_delta", "max_run_epsilon", "max_run_delta"}},
      {"input", {"format", "split", "window_words", "max_tokens"}},
      {"tls", {"ca", "cert", "key"}}};
  return *schema;
}

const ConfigSchema& CoordinatorConfigSchema() {
  static const ConfigSchema* schema = new ConfigSchema{
      {"coordinator",
       {"name", "consortium", "vocabulary", "public_key", "state_dir", "listen", "metrics_listen",
        "threads", "party_call_timeout_seconds", "party_restart_wait_seconds", "relay_capture"}},
      {"tls", {"ca", "cert", "key"}}};
  return *schema;
}
namespace {

std::string Dotted(std::string_view table, std::string_view key) {
  return std::string(table) + "." + std::string(key);
}

}  // namespace

struct DaemonConfigFile::Tables {
  toml::table root;
};

DaemonConfigFile::DaemonConfigFile() : tables_(std::make_unique<Tables>()) {}
DaemonConfigFile::~DaemonConfigFile() = default;
DaemonConfigFile::DaemonConfigFile(DaemonConfigFile&&) noexcept = default;
DaemonConfigFile& DaemonConfigFile::operator=(DaemonConfigFile&&) noexcept = default;

absl::StatusOr<DaemonConfigFile> DaemonConfigFile::Load(
    const std::filesystem::path& path,
    const std::map<std::string, std::vector<std::string>>& schema) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path.string(), ": cannot open config file"));
  std::ostringstream text;
  text << in.rdbuf();
  return Parse(text.str(), path, schema);
}

absl::StatusOr<DaemonConfigFile> DaemonConfigFile::Parse(
    std::string_view text, const std::filesystem::path& path,
    const std::map<std::string, std::vector<std::string>>& schema) {
  DaemonConfigFile config;
  config.path_ = path;
  try {
    config.tables_->root = toml::parse(text, path.string());
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return absl::InvalidArgumentError(absl::StrCat(path.string(), ":", where.line, ":",
                                                   where.column, ": ", std::string(e.description())));
  }
  for (const auto& [name, node] : config.tables_->root) {
    const std::string table(name.str());
    auto allowed = schema.find(table);
    if (allowed == schema.end() || !node.is_table()) {
      std::vector<std::string> tables;
      for (const auto& [t, keys] : schema) tables.push_back("[" + t + "]");
      return absl::InvalidArgumentError(absl::StrCat(path.string(), ": ", table,
                                                     ": unknown table (allowed: ",
                                                     absl::StrJoin(tables, ", "), ")"));
    }
    for (const auto& [key, value] : *node.as_table()) {
      const std::string k(key.str());
      if (std::find(allowed->second.begin(), allowed->second.end(), k) == allowed->second.end()) {
        return absl::InvalidArgumentError(absl::StrCat(path.string(), ": ", table, ".", k,
                                                       ": unknown key (allowed: ",
                                                       absl::StrJoin(allowed->second, ", "), ")"));
      }
    }
  }
  return config;
}

absl::Status DaemonConfigFile::Error(std::string_view table, std::string_view key,
                                     std::string_view what) const {
  return absl::InvalidArgumentError(
      absl::StrCat(path_.string(), ": ", std::string(table), ".", std::string(key), ": ",
                   std::string(what)));
}

absl::StatusOr<std::string> DaemonConfigFile::StringOr(std::string_view table,
                                                       std::string_view key,
                                                       std::string fallback) const {
  const toml::node* node = tables_->root.at_path(Dotted(table, key)).node();
  if (node == nullptr) return fallback;
  if (!node->is_string()) return Error(table, key, "must be a string");
  std::string value = node->as_string()->get();
  if (value.empty()) return Error(table, key, "empty");
  return value;
}

absl::StatusOr<std::string> DaemonConfigFile::String(std::string_view table,
                                                     std::string_view key) const {
  const toml::node* node = tables_->root.at_path(Dotted(table, key)).node();
  if (node == nullptr) return Error(table, key, "missing");
  return StringOr(table, key, "");
}

absl::StatusOr<std::optional<int64_t>> DaemonConfigFile::OptionalInt(std::string_view table,
                                                                     std::string_view key,
                                                                     int64_t min,
                                                                     int64_t max) const {
  const toml::node* node = tables_->root.at_path(Dotted(table, key)).node();
  if (node == nullptr) return std::nullopt;
  if (!node->is_integer()) return Error(table, key, "must be an integer");
  const int64_t v = node->as_integer()->get();
  if (v < min || v > max) {
    return Error(table, key, absl::StrCat(v, " is outside [", min, ", ", max, "]"));
  }
  return v;
}

absl::StatusOr<int64_t> DaemonConfigFile::IntOr(std::string_view table, std::string_view key,
                                                int64_t fallback, int64_t min,
                                                int64_t max) const {
  absl::StatusOr<std::optional<int64_t>> v = OptionalInt(table, key, min, max);
  if (!v.ok()) return v.status();
  return v->value_or(fallback);
}

absl::StatusOr<std::optional<double>> DaemonConfigFile::OptionalDouble(std::string_view table,
                                                                      std::string_view key,
                                                                      double min,
                                                                      double max) const {
  const toml::node* node = tables_->root.at_path(Dotted(table, key)).node();
  if (node == nullptr) return std::nullopt;
  double v = 0;
  if (node->is_floating_point()) {
    v = node->as_floating_point()->get();
  } else if (node->is_integer()) {
    v = static_cast<double>(node->as_integer()->get());
  } else {
    return Error(table, key, "must be a number");
  }
  if (!(v >= min && v <= max)) {
    return Error(table, key, absl::StrCat(v, " is outside [", min, ", ", max, "]"));
  }
  return v;
}

absl::StatusOr<bool> DaemonConfigFile::BoolOr(std::string_view table, std::string_view key,
                                              bool fallback) const {
  const toml::node* node = tables_->root.at_path(Dotted(table, key)).node();
  if (node == nullptr) return fallback;
  if (!node->is_boolean()) return Error(table, key, "must be true or false");
  return node->as_boolean()->get();
}

absl::StatusOr<std::optional<std::filesystem::path>> DaemonConfigFile::OptionalPath(
    std::string_view table, std::string_view key) const {
  const toml::node* node = tables_->root.at_path(Dotted(table, key)).node();
  if (node == nullptr) return std::nullopt;
  absl::StatusOr<std::string> text = StringOr(table, key, "");
  if (!text.ok()) return text.status();
  std::filesystem::path p(*text);
  if (p.is_relative()) p = path_.parent_path() / p;
  return p.lexically_normal();
}

absl::StatusOr<std::filesystem::path> DaemonConfigFile::Path(std::string_view table,
                                                             std::string_view key) const {
  absl::StatusOr<std::optional<std::filesystem::path>> p = OptionalPath(table, key);
  if (!p.ok()) return p.status();
  if (!p->has_value()) return Error(table, key, "missing");
  return **p;
}

absl::StatusOr<std::optional<std::string>> DaemonConfigFile::OptionalAddress(
    std::string_view table, std::string_view key) const {
  const toml::node* node = tables_->root.at_path(Dotted(table, key)).node();
  if (node == nullptr) return std::nullopt;
  absl::StatusOr<std::string> text = StringOr(table, key, "");
  if (!text.ok()) return text.status();
  const size_t colon = text->rfind(':');
  bool ok = colon != std::string::npos && colon > 0 && colon + 1 < text->size();
  int port = 0;
  if (ok) {
    for (char c : text->substr(colon + 1)) ok = ok && std::isdigit(static_cast<unsigned char>(c));
    if (ok && text->size() - colon - 1 <= 5) port = std::stoi(text->substr(colon + 1));
    ok = ok && port >= 1 && port <= 65535;
  }
  if (!ok) return Error(table, key, "\"" + *text + "\" is not host:port (port 1..65535)");
  return *text;
}

absl::StatusOr<std::string> DaemonConfigFile::Address(std::string_view table,
                                                      std::string_view key) const {
  absl::StatusOr<std::optional<std::string>> a = OptionalAddress(table, key);
  if (!a.ok()) return a.status();
  if (!a->has_value()) return Error(table, key, "missing");
  return **a;
}

}  // namespace pplda::net

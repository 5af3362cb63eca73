#include "net/metrics_registry.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"

namespace pplda::net {
namespace {

bool ValidMetricName(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

bool ValidLabelName(std::string_view name) {
  if (name.empty() || name.rfind("__", 0) == 0) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

// Help text escapes \ and newline; label values also ".
std::string Escape(absl::string_view text, bool quote) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (quote && c == '"') {
      out += "\\\"";
    } else {
      out += c;
    }
  }
  return out;
}

std::string FormatValue(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return absl::StrFormat("%.0f", v);
  return absl::StrFormat("%.17g", v);
}

std::string Series(const std::string& name, const MetricLabels& labels, double value) {
  std::string out(name);
  if (!labels.empty()) {
    out += '{';
    bool first = true;
    for (const auto& [k, v] : labels) {
      if (!first) out += ',';
      first = false;
      absl::StrAppend(&out, k, "=\"", Escape(v, /*quote=*/true), "\"");
    }
    out += '}';
  }
  absl::StrAppend(&out, " ", FormatValue(value), "\n");
  return out;
}

}  // namespace

void Counter::Increment(double by) {
  if (by > 0) value_.fetch_add(by, std::memory_order_relaxed);
}

absl::StatusOr<MetricsRegistry::Family*> MetricsRegistry::FamilyFor(std::string_view name,
                                                                     std::string_view help,
                                                                     Type type,
                                                                     const MetricLabels& labels) {
  if (!ValidMetricName(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("metric name \"", std::string(name), "\" is not valid"));
  }
  for (const auto& [k, v] : labels) {
    if (!ValidLabelName(k)) {
      return absl::InvalidArgumentError(
          absl::StrCat("metric ", std::string(name), ": label name \"", k, "\" is not valid"));
    }
  }
  auto it = families_.find(name);
  if (it == families_.end()) {
    it = families_.emplace(std::string(name), Family{std::string(help), type, {}, {}}).first;
  } else if (it->second.type != type || it->second.help != help) {
    return absl::InvalidArgumentError(absl::StrCat(
        "metric ", std::string(name), " is already registered with another type or help text"));
  }
  return &it->second;
}

absl::StatusOr<Counter*> MetricsRegistry::AddCounter(std::string_view name, std::string_view help,
                                                     const MetricLabels& labels) {
  std::lock_guard<std::mutex> lock(mu_);
  ASSIGN_OR_RETURN(Family * family, FamilyFor(name, help, Type::kCounter, labels));
  std::unique_ptr<Counter>& series = family->counters[labels];
  if (series == nullptr) series = std::make_unique<Counter>();
  return series.get();
}

absl::StatusOr<Gauge*> MetricsRegistry::AddGauge(std::string_view name, std::string_view help,
                                                 const MetricLabels& labels) {
  std::lock_guard<std::mutex> lock(mu_);
  ASSIGN_OR_RETURN(Family * family, FamilyFor(name, help, Type::kGauge, labels));
  std::unique_ptr<Gauge>& series = family->gauges[labels];
  if (series == nullptr) series = std::make_unique<Gauge>();
  return series.get();
}

std::string MetricsRegistry::Render() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  for (const auto& [name, family] : families_) {
    absl::StrAppend(&out, "# HELP ", name, " ", Escape(family.help, /*quote=*/false), "\n");
    absl::StrAppend(&out, "# TYPE ", name, " ",
                    family.type == Type::kCounter ? "counter" : "gauge", "\n");
    for (const auto& [labels, c] : family.counters) out += Series(name, labels, c->value());
    for (const auto& [labels, g] : family.gauges) out += Series(name, labels, g->value());
  }
  return out;
}

}  // namespace pplda::net

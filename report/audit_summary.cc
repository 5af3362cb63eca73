#include "report/audit_summary.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "privacy/audit_report.h"

namespace pplda::report {
namespace {

absl::StatusOr<double> Number(const nlohmann::json& object, const std::string& key,
                              const std::string& where) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_number()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": \"", key, "\" is missing or not a number"));
  }
  return object[key].get<double>();
}

absl::StatusOr<AuditVariant> ReadVariant(const std::string& name, const nlohmann::json& v,
                                         const std::string& where) {
  const std::string at = absl::StrCat(where, ": figures.", name);
  if (!v.is_object()) return absl::InvalidArgumentError(at + " is not an object");
  AuditVariant out;
  out.name = name;
  const nlohmann::json tpr = v.value("tpr_at_fpr", nlohmann::json());
  ASSIGN_OR_RETURN(out.tpr_at_0_1_percent_fpr, Number(tpr, "0.001", at + ".tpr_at_fpr"));
  ASSIGN_OR_RETURN(out.tpr_at_1_percent_fpr, Number(tpr, "0.01", at + ".tpr_at_fpr"));
  ASSIGN_OR_RETURN(out.auc, Number(v, "auc", at));
  ASSIGN_OR_RETURN(double members, Number(v, "members", at));
  ASSIGN_OR_RETURN(double non_members, Number(v, "non_members", at));
  out.members = static_cast<int64_t>(members);
  out.non_members = static_cast<int64_t>(non_members);
  const nlohmann::json roc = v.value("roc_fpr_tpr", nlohmann::json());
  if (!roc.is_array() || roc.empty()) {
    return absl::InvalidArgumentError(at + ".roc_fpr_tpr is missing or not a non-empty list");
  }
  for (size_t i = 0; i < roc.size(); ++i) {
    const nlohmann::json& p = roc[i];
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number() ||
        p[0].get<double>() < 0 || p[0].get<double>() > 1 || p[1].get<double>() < 0 ||
        p[1].get<double>() > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(at, ".roc_fpr_tpr[", i, "] is not an [fpr, tpr] pair in [0, 1]"));
    }
    out.roc.push_back({p[0].get<double>(), p[1].get<double>()});
  }
  return out;
}

}  // namespace

absl::StatusOr<AuditSummary> AuditSummaryFromJson(const nlohmann::json& json,
                                                  const std::string& where) {
  // Compared as JSON values: a field of another type is no match (value()
  // with a default of one type throws on a field of another).
  if (!json.is_object() || json.value("format", nlohmann::json()) != privacy::kAuditFormat ||
      json.value("version", nlohmann::json()) != privacy::kAuditFormatVersion) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": not a pplda audit (format \"",
                                                   privacy::kAuditFormat, "\" version ",
                                                   privacy::kAuditFormatVersion, ")"));
  }
  const nlohmann::json figures = json.value("figures", nlohmann::json());
  if (!figures.is_object() || figures.empty()) {
    return absl::InvalidArgumentError(where + ": \"figures\" is missing or empty");
  }
  AuditSummary out;
  for (const char* name : {"online", "offline"}) {
    if (!figures.contains(name)) continue;
    ASSIGN_OR_RETURN(AuditVariant v, ReadVariant(name, figures[name], where));
    out.variants.push_back(std::move(v));
  }
  if (out.variants.empty()) {
    return absl::InvalidArgumentError(where +
                                      ": \"figures\" has neither \"online\" nor \"offline\"");
  }
  out.parameters = json.value("parameters", nlohmann::json());
  out.corpus = json.value("corpus", nlohmann::json());
  out.trainer = json.value("trainer", nlohmann::json());
  return out;
}

absl::StatusOr<AuditSummary> ReadAuditSummary(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir, ec))
    return absl::NotFoundError(absl::StrCat("audit folder ", dir, " does not exist"));
  if (!fs::is_directory(dir, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat(dir, " is not a folder (the --out folder of pplda audit)"));
  }
  const std::string path = (fs::path(dir) / "audit.json").string();
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat(path, " not found: is ", dir, " the --out folder of pplda audit?"));
  }
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json json =
      nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return absl::InvalidArgumentError(path + " is not JSON");
  ASSIGN_OR_RETURN(AuditSummary out, AuditSummaryFromJson(json, path));
  out.dir = dir;
  return out;
}

}  // namespace pplda::report

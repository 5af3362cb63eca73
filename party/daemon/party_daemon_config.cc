#include "party/daemon/party_daemon_config.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "net/common_daemon_config.h"
#include "net/daemon_config_file.h"
#include "party/party_randomness.h"

namespace pplda::party {

absl::StatusOr<PartyDaemonConfig> LoadPartyDaemonConfig(const std::filesystem::path& path) {
  return LoadPartyDaemonConfig(path, InsecureTestRandomnessAllowed());
}

absl::StatusOr<PartyDaemonConfig> LoadPartyDaemonConfig(const std::filesystem::path& path,
                                                        bool insecure_test_randomness_allowed) {
  ASSIGN_OR_RETURN(net::DaemonConfigFile file,
                   net::DaemonConfigFile::Load(path, net::PartyConfigSchema()));
  PartyDaemonConfig c;
  RETURN_IF_ERROR(net::ReadCommonDaemonConfig(file, "party", c));
  ASSIGN_OR_RETURN(c.documents, file.OptionalPath("party", "documents"));
  ASSIGN_OR_RETURN(c.key_share, file.OptionalPath("party", "key_share"));
  ASSIGN_OR_RETURN(c.public_key, file.OptionalPath("party", "public_key"));
  ASSIGN_OR_RETURN(c.listen, file.OptionalAddress("party", "listen"));
  ASSIGN_OR_RETURN(c.box_key, file.OptionalPath("party", "box_key"));
  ASSIGN_OR_RETURN(std::optional<int64_t> seed,
                   file.OptionalInt("party", "initial_topics_seed", 0, INT64_MAX));
  if (seed.has_value()) c.initial_topics_seed = static_cast<uint64_t>(*seed);
  ASSIGN_OR_RETURN(int64_t timeout, file.IntOr("party", "receive_timeout_seconds", 600, 1, 86400));
  c.receive_timeout_seconds = static_cast<int>(timeout);
  ASSIGN_OR_RETURN(c.accept_two_holder_disclosure,
                   file.BoolOr("party", "accept_two_holder_disclosure", false));
  ASSIGN_OR_RETURN(std::optional<double> budget_epsilon,
                   file.OptionalDouble("party", "privacy_budget_epsilon", 1e-6, 1e6));
  ASSIGN_OR_RETURN(std::optional<double> budget_delta,
                   file.OptionalDouble("party", "privacy_budget_delta", 0, 0.5));
  if (budget_epsilon.has_value() != budget_delta.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path.string(), ": party.", budget_epsilon ? "privacy_budget_delta" : "privacy_budget_epsilon",
        ": missing (the privacy budget takes both privacy_budget_epsilon and "
        "privacy_budget_delta)"));
  }
  if (budget_epsilon.has_value()) c.privacy_budget = PrivacyBudget{*budget_epsilon, *budget_delta};
  ASSIGN_OR_RETURN(std::optional<double> max_epsilon,
                   file.OptionalDouble("party", "max_run_epsilon", 1e-6, 1000));
  ASSIGN_OR_RETURN(std::optional<double> max_delta,
                   file.OptionalDouble("party", "max_run_delta", 1e-300, 0.5));
  if (max_epsilon.has_value()) c.run_dp_ceiling.epsilon = *max_epsilon;
  if (max_delta.has_value()) c.run_dp_ceiling.delta = *max_delta;
  ASSIGN_OR_RETURN(std::optional<int64_t> rng_seed,
                   file.OptionalInt("party", "insecure_deterministic_rng_seed", 0, INT64_MAX));
  if (rng_seed.has_value()) {
    if (!insecure_test_randomness_allowed) {
      return absl::InvalidArgumentError(
          absl::StrCat(path.string(), ": party.insecure_deterministic_rng_seed: ",
                       kInsecureTestRandomnessRefused, "; remove the key"));
    }
    c.insecure_deterministic_rng_seed = static_cast<uint64_t>(*rng_seed);
  }
  ASSIGN_OR_RETURN(c.insecure_capture_sent_payloads,
                   file.OptionalPath("party", "insecure_capture_sent_payloads"));
  if (c.insecure_capture_sent_payloads.has_value() && !insecure_test_randomness_allowed) {
    return absl::InvalidArgumentError(absl::StrCat(
        path.string(), ": party.insecure_capture_sent_payloads: ", kInsecureTestRandomnessRefused,
        "; remove the key"));
  }
  ASSIGN_OR_RETURN(c.format, file.StringOr("input", "format", "auto"));
  ASSIGN_OR_RETURN(c.split, file.StringOr("input", "split", "none"));
  ASSIGN_OR_RETURN(int64_t window, file.IntOr("input", "window_words", 100, 1, 1000000));
  c.window_words = static_cast<int>(window);
  ASSIGN_OR_RETURN(int64_t cap, file.IntOr("input", "max_tokens", 0, 0, 1 << 30));
  c.max_tokens = static_cast<int>(cap);
  return c;
}

}  // namespace pplda::party

// libFuzzer target: the daemons' TOML files on arbitrary bytes. The first
// byte chooses the reader: party.toml (party/daemon/party_daemon_config.h),
// coordinator.toml (coordinator/daemon/coordinator_daemon_config.h) or the
// consortium file (net/consortium_file.h); the rest is the file. Any crash,
// sanitizer report, hang or out-of-memory is a finding; an error status is
// the expected answer to bad bytes. A consortium that reads must keep its
// promises (abort = finding): one coordinator, compute parties numbered
// 0..n-1 in file order, n in [3, 64], every participant found by its name,
// its fingerprint and (compute parties) its index.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "coordinator/daemon/coordinator_daemon_config.h"
#include "fuzz/fuzz_util.h"
#include "net/consortium_file.h"
#include "party/daemon/party_daemon_config.h"

namespace pplda::fuzz {
namespace {

void CheckConsortium(const net::Consortium& c) {
  Require(c.num_compute_parties() >= net::Consortium::kMinComputeParties &&
          c.num_compute_parties() <= net::Consortium::kMaxComputeParties);
  const std::vector<net::Participant> compute = c.compute_parties();
  Require(static_cast<int>(compute.size()) == c.num_compute_parties());
  for (size_t i = 0; i < compute.size(); ++i) {
    Require(compute[i].party_index == static_cast<int>(i));
    absl::StatusOr<net::Participant> by_index = c.FindByPartyIndex(static_cast<int>(i));
    Require(by_index.ok() && by_index->name == compute[i].name);
  }
  const std::vector<net::Participant> holders = c.data_holders();
  Require(static_cast<int>(holders.size()) == c.num_data_holders());
  for (size_t i = 0; i < holders.size(); ++i) {
    Require(holders[i].data_index == static_cast<int>(i) && holders[i].party_index == -1);
  }
  Require(c.num_compute_parties() % 2 == 1);
  int coordinators = 0, with_documents = 0;
  for (const net::Participant& p : c.participants()) {
    if (p.role == net::ParticipantRole::kCoordinator) ++coordinators;
    if (p.holds_documents()) ++with_documents;
    absl::StatusOr<net::Participant> by_name = c.FindByName(p.name);
    Require(by_name.ok() && by_name->cert_fingerprint == p.cert_fingerprint);
    absl::StatusOr<net::Participant> by_fingerprint = c.FindByFingerprint(p.cert_fingerprint);
    Require(by_fingerprint.ok() && by_fingerprint->name == p.name);
  }
  Require(coordinators == 1 && c.coordinator().party_index == -1 && with_documents >= 1);
}

}  // namespace
}  // namespace pplda::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::filesystem::path dir = pplda::fuzz::ScratchFolder("configs");
  switch (data[0] % 3) {
    case 0:
      pplda::fuzz::WriteFile(dir / "party.toml", text);
      pplda::fuzz::Trace("LoadPartyDaemonConfig",
                         pplda::party::LoadPartyDaemonConfig(
                             dir / "party.toml", /*insecure_test_randomness_allowed=*/true)
                             .status());
      break;
    case 1:
      pplda::fuzz::WriteFile(dir / "coordinator.toml", text);
      pplda::fuzz::Trace(
          "LoadCoordinatorDaemonConfig",
          pplda::coordinator::LoadCoordinatorDaemonConfig(dir / "coordinator.toml").status());
      break;
    default: {
      absl::StatusOr<pplda::net::Consortium> c =
          pplda::net::Consortium::Parse(text, "consortium.toml");
      pplda::fuzz::Trace("Consortium::Parse", c.status());
      if (c.ok()) pplda::fuzz::CheckConsortium(*c);
      break;
    }
  }
  return 0;
}

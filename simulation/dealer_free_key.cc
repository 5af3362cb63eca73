#include "simulation/dealer_free_key.h"

#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/keygen/distributed_threshold_key.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/simulated_network.h"
#include "protocol/consortium_policy.h"

namespace pplda::simulation {

absl::StatusOr<crypto::DealtKey> GenerateDealerFreeKeyInProcess(
    int modulus_bits, int parties, const party::ConsortiumRngFactory& rng_factory) {
  ASSIGN_OR_RETURN(crypto::MpcConfig config,
                   crypto::MpcConfig::Create(parties, protocol::MpcThreshold(parties)));
  ASSIGN_OR_RETURN(std::unique_ptr<crypto::SimulatedNetwork> network,
                   crypto::SimulatedNetwork::Create(parties));
  std::vector<std::unique_ptr<crypto::SecureRng>> rngs;
  for (int p = 0; p < parties; ++p) {
    rngs.push_back(rng_factory(p, party::PartyRandomSource::kKeyGeneration));
  }
  std::mutex mu;
  std::vector<std::optional<crypto::DistributedKey>> keys(parties);
  crypto::SharedModulusOptions options;
  options.modulus_bits = modulus_bits;
  RETURN_IF_ERROR(network->RunParties([&](int p) -> absl::Status {
    absl::StatusOr<std::unique_ptr<crypto::MpcEngine>> engine =
        crypto::MpcEngine::Create(config, network->transport(p), *rngs[p]);
    if (!engine.ok()) return engine.status();
    absl::StatusOr<crypto::DistributedKey> key =
        crypto::GenerateDistributedThresholdKey(options, **engine);
    if (!key.ok()) {
      return absl::Status(key.status().code(),
                          absl::StrCat("party ", p, ": ", key.status().message()));
    }
    std::lock_guard<std::mutex> lock(mu);
    keys[p].emplace(*std::move(key));
    return absl::OkStatus();
  }));
  crypto::DealtKey out;
  out.public_key = keys[0]->public_key;
  for (int p = 0; p < parties; ++p) {
    if (keys[p]->public_key->fingerprint() != out.public_key->fingerprint()) {
      return absl::InternalError(
          absl::StrCat("dealer-free key: party ", p, " derived another public key"));
    }
    out.shares.push_back(std::move(keys[p]->share));
  }
  return out;
}

}  // namespace pplda::simulation

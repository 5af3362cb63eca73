#include "simulation/in_process_party_group.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace pplda::simulation {

absl::StatusOr<std::unique_ptr<InProcessPartyGroup>> InProcessPartyGroup::Create(
    std::vector<InProcessPartyInput> inputs, const std::string& run_id,
    const protocol::SecureLdaPlan& plan, const crypto::MpcConfig& config,
    const crypto::DealtKey& key, const party::ConsortiumRngFactory& rng_factory, ThreadPool* pool) {
  const int n = plan.num_parties();
  if (static_cast<int>(inputs.size()) != n || static_cast<int>(key.shares.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat("in-process group: ", inputs.size(),
                                                   " inputs and ", key.shares.size(),
                                                   " key shares for ", n, " parties"));
  }
  auto group = std::unique_ptr<InProcessPartyGroup>(new InProcessPartyGroup());
  ASSIGN_OR_RETURN(group->network_, crypto::SimulatedNetwork::Create(n));
  for (int p = 0; p < n; ++p) {
    // The group owns the sources; the party's initial topics are given.
    auto source = [&](party::PartyRandomSource s) -> absl::StatusOr<crypto::SecureRng*> {
      std::unique_ptr<crypto::SecureRng> rng = rng_factory(p, s);
      if (rng == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat("no random source for party ", p));
      }
      group->rngs_.push_back(std::move(rng));
      return group->rngs_.back().get();
    };
    ASSIGN_OR_RETURN(crypto::SecureRng* const engine_rng,
                     source(party::PartyRandomSource::kMpcEngine));
    ASSIGN_OR_RETURN(crypto::SecureRng* const encryptor_rng,
                     source(party::PartyRandomSource::kPaillierEncryptor));
    ASSIGN_OR_RETURN(crypto::SecureRng* const proof_rng,
                     source(party::PartyRandomSource::kDecryptionProofs));
    ASSIGN_OR_RETURN(crypto::SecureRng* const key_rng,
                     source(party::PartyRandomSource::kIterationKey));
    group->randomness_.push_back(party::IterationRandomness::Draw(*key_rng));
    party::IterationRandomness& randomness = *group->randomness_.back();
    ASSIGN_OR_RETURN(std::unique_ptr<crypto::MpcEngine> engine,
                     crypto::MpcEngine::Create(config, group->network_->transport(p), *engine_rng));
    group->engines_.push_back(std::move(engine));
    ASSIGN_OR_RETURN(std::unique_ptr<crypto::PaillierEncryptor> encryptor,
                     crypto::PaillierEncryptor::Create(key.public_key->paillier(), *encryptor_rng));
    group->encryptors_.push_back(std::move(encryptor));
    ASSIGN_OR_RETURN(
        std::unique_ptr<party::LdaParty> party,
        party::LdaParty::Create(p, run_id, plan, std::move(inputs[p].documents),
                                std::move(inputs[p].topics), key.shares[p], *group->encryptors_[p],
                                *proof_rng, pool, &randomness.noise()));
    group->parties_.push_back(std::move(party));
  }
  group->config_ = config;
  if (config.pseudo_random_sharing()) {
    // The master keys of every iteration's (party/iteration_randomness.h),
    // agreed as the party daemons agree them at Prepare.
    RETURN_IF_ERROR(group->network_->RunParties([&](int p) -> absl::Status {
      ASSIGN_OR_RETURN(crypto::MpcEngine::SharedKeys keys, group->engines_[p]->AgreeSharedKeys());
      group->randomness_[p]->set_shared_keys(std::move(keys));
      return absl::OkStatus();
    }));
  }
  return group;
}

absl::Status InProcessPartyGroup::BeginIteration(int p, int iteration) {
  ASSIGN_OR_RETURN(engines_[p], randomness_[p]->Begin(iteration, *config_, network_->transport(p)));
  return absl::OkStatus();
}

absl::StatusOr<std::vector<protocol::CountUpdate>> InProcessPartyGroup::InitialCounts() {
  std::vector<protocol::CountUpdate> updates(parties_.size());
  for (size_t p = 0; p < parties_.size(); ++p) {
    ASSIGN_OR_RETURN(updates[p], parties_[p]->InitialCounts());
  }
  return updates;
}

absl::StatusOr<coordinator::IterationOutput> InProcessPartyGroup::Iterate(
    int iteration, const std::vector<protocol::CountUpdate>& previous) {
  coordinator::IterationOutput out;
  out.updates.resize(parties_.size());
  const protocol::PartyPhaseTimes before = parties_[0]->times();
  RETURN_IF_ERROR(network_->RunParties([&](int p) -> absl::Status {
    RETURN_IF_ERROR(parties_[p]->AcceptUpdates(previous));
    RETURN_IF_ERROR(BeginIteration(p, iteration));
    ASSIGN_OR_RETURN(out.updates[p], parties_[p]->RunIteration(*engines_[p]));
    return absl::OkStatus();
  }));
  out.phases = parties_[0]->times().Since(before);
  return out;
}

absl::StatusOr<std::vector<protocol::DecryptionShare>> InProcessPartyGroup::Publish(
    const std::vector<protocol::CountUpdate>& last, const protocol::CountsDigest& digest,
    int decryptors) {
  std::vector<protocol::DecryptionShare> shares(decryptors);
  RETURN_IF_ERROR(network_->RunParties([&](int p) -> absl::Status {
    RETURN_IF_ERROR(parties_[p]->AcceptUpdates(last));
    RETURN_IF_ERROR(BeginIteration(p, parties_[p]->iterations_done() + 1));
    RETURN_IF_ERROR(parties_[p]->ConfirmCounts(*engines_[p]));
    if (p < decryptors) {
      ASSIGN_OR_RETURN(shares[p], parties_[p]->DecryptModel(digest));
    }
    return absl::OkStatus();
  }));
  return shares;
}

}  // namespace pplda::simulation

#include "simulation/in_process_party_group.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace pplda::simulation {

absl::StatusOr<std::unique_ptr<InProcessPartyGroup>> InProcessPartyGroup::Create(
    std::vector<InProcessPartyInput> inputs, const std::string& run_id,
    const protocol::SecureLdaPlan& plan, const crypto::MpcConfig& config,
    const crypto::DealtKey& key, const party::ConsortiumRngFactory& rng_factory, ThreadPool* pool,
    std::vector<InProcessPartyInput> holder_inputs) {
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
  RETURN_IF_ERROR(
      group->AddHolders(std::move(holder_inputs), run_id, plan, key, rng_factory, pool));
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

absl::Status InProcessPartyGroup::AddHolders(std::vector<InProcessPartyInput> holder_inputs,
                                             const std::string& run_id,
                                             const protocol::SecureLdaPlan& plan,
                                             const crypto::DealtKey& key,
                                             const party::ConsortiumRngFactory& rng_factory,
                                             ThreadPool* pool) {
  const int n = plan.num_parties(), h = static_cast<int>(holder_inputs.size());
  if (h != plan.num_holders()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "in-process group: ", h, " data holders' inputs for a plan of ", plan.num_holders()));
  }
  if (h == 0) return absl::OkStatus();
  ASSIGN_OR_RETURN(holder_network_, crypto::SimulatedNetwork::Create(n + h));
  for (int e = 0; e < n + h; ++e) {
    ASSIGN_OR_RETURN(
        crypto::CommitteeLinks links,
        crypto::CommitteeLinks::Create(holder_network_->transport(e), config_->shamir()));
    links_.push_back(std::move(links));
  }
  for (int p = 0; p < n; ++p) parties_[p]->set_holder_links(&links_[p]);
  for (int i = 0; i < h; ++i) {
    const int owner = plan.HolderOwner(i);
    std::unique_ptr<crypto::SecureRng> shares_rng =
        rng_factory(owner, party::PartyRandomSource::kMpcEngine);
    std::unique_ptr<crypto::SecureRng> encryptor_rng =
        rng_factory(owner, party::PartyRandomSource::kPaillierEncryptor);
    if (shares_rng == nullptr || encryptor_rng == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("no random source for data holder ", i));
    }
    ASSIGN_OR_RETURN(std::unique_ptr<crypto::PaillierEncryptor> encryptor,
                     crypto::PaillierEncryptor::Create(key.public_key->paillier(), *encryptor_rng));
    rngs_.push_back(std::move(encryptor_rng));
    holder_rngs_.push_back(std::move(shares_rng));
    holder_encryptors_.push_back(std::move(encryptor));
    ASSIGN_OR_RETURN(
        std::unique_ptr<party::DataHolder> holder,
        party::DataHolder::Create(i, run_id, plan, *config_, std::move(holder_inputs[i].documents),
                                  std::move(holder_inputs[i].topics), key.public_key,
                                  *holder_encryptors_.back(), pool));
    holders_.push_back(std::move(holder));
  }
  return absl::OkStatus();
}

absl::Status InProcessPartyGroup::RunAll(const std::function<absl::Status(int)>& on_member,
                                         const std::function<absl::Status(int)>& on_holder) {
  if (holders_.empty()) return network_->RunParties(on_member);
  const int n = static_cast<int>(parties_.size());
  absl::Status status = holder_network_->RunParties([&](int e) -> absl::Status {
    absl::Status s = e < n ? on_member(e) : on_holder(e - n);
    // A failure anywhere must wake the committee's network too.
    if (!s.ok()) network_->Shutdown(s);
    return s;
  });
  return status;
}

absl::Status InProcessPartyGroup::BeginIteration(int p, int iteration) {
  ASSIGN_OR_RETURN(engines_[p], randomness_[p]->Begin(iteration, *config_, network_->transport(p)));
  return absl::OkStatus();
}

absl::StatusOr<std::vector<protocol::CountUpdate>> InProcessPartyGroup::InitialCounts() {
  std::vector<protocol::CountUpdate> updates(parties_.size() + holders_.size());
  for (size_t p = 0; p < parties_.size(); ++p) {
    ASSIGN_OR_RETURN(updates[p], parties_[p]->InitialCounts());
  }
  for (size_t h = 0; h < holders_.size(); ++h) {
    ASSIGN_OR_RETURN(updates[parties_.size() + h], holders_[h]->InitialCounts());
  }
  return updates;
}

absl::StatusOr<coordinator::IterationOutput> InProcessPartyGroup::Iterate(
    int iteration, const std::vector<protocol::CountUpdate>& previous,
    const std::vector<crypto::Ciphertext>& draw_matrix) {
  coordinator::IterationOutput out;
  const size_t n = parties_.size();
  out.updates.resize(n + holders_.size());
  const protocol::PartyPhaseTimes before = parties_[0]->times();
  RETURN_IF_ERROR(RunAll(
      [&](int p) -> absl::Status {
        RETURN_IF_ERROR(parties_[p]->AcceptUpdates(previous));
        RETURN_IF_ERROR(BeginIteration(p, iteration));
        ASSIGN_OR_RETURN(out.updates[p], parties_[p]->RunIteration(*engines_[p]));
        return absl::OkStatus();
      },
      [&](int h) -> absl::Status {
        ASSIGN_OR_RETURN(
            out.updates[n + h],
            holders_[h]->RunIteration(iteration, draw_matrix, links_[n + h], *holder_rngs_[h]));
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

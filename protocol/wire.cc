#include "protocol/wire.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/paillier/paillier_serialization.h"

namespace pplda::protocol {

pplda::v1::CountUpdateMessage CountUpdateToProto(const crypto::ThresholdPublicKey& key,
                                                 const CountUpdate& update) {
  pplda::v1::CountUpdateMessage out;
  out.set_party(static_cast<uint32_t>(update.party));
  out.set_iteration(update.iteration);
  *out.mutable_matrix() = crypto::CiphertextBatchToProto(key, update.matrix);
  *out.mutable_totals() = crypto::CiphertextBatchToProto(key, update.totals);
  if (!update.noise_matrix.empty() || !update.noise_totals.empty()) {
    *out.mutable_noise_matrix() = crypto::CiphertextBatchToProto(key, update.noise_matrix);
    *out.mutable_noise_totals() = crypto::CiphertextBatchToProto(key, update.noise_totals);
  }
  return out;
}

absl::StatusOr<CountUpdate> CountUpdateFromProto(const pplda::v1::CountUpdateMessage& proto,
                                                 const std::string& run_id,
                                                 const crypto::ThresholdPublicKey& key,
                                                 const SecureLdaPlan& plan) {
  if (proto.party() >= static_cast<uint32_t>(plan.num_owners())) {
    return absl::InvalidArgumentError(absl::StrCat("count update: party ", proto.party(),
                                                   " is not an owner of the run (",
                                                   plan.num_owners(), " owners)"));
  }
  CountUpdate u;
  u.run_id = run_id;
  u.iteration = proto.iteration();
  u.party = static_cast<int>(proto.party());
  // DP noise: parsed when present; whether it must be (the iteration after
  // starts with a release) is EncryptedCounts::Fold's check.
  if (proto.noise_matrix().ciphertexts_size() > 0 || proto.noise_totals().ciphertexts_size() > 0) {
    absl::StatusOr<std::vector<crypto::Ciphertext>> noise =
        crypto::CiphertextBatchFromProto(key, proto.noise_matrix(), plan.MatrixCiphertexts());
    if (!noise.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("count update of party ", u.party,
                                                     ", noise matrix: ", noise.status().message()));
    }
    absl::StatusOr<std::vector<crypto::Ciphertext>> noise_totals =
        crypto::CiphertextBatchFromProto(key, proto.noise_totals(), plan.TotalsCiphertexts());
    if (!noise_totals.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("count update of party ", u.party,
                                                     ", noise totals: ",
                                                     noise_totals.status().message()));
    }
    u.noise_matrix = *std::move(noise);
    u.noise_totals = *std::move(noise_totals);
  }
  // A data holder's updates after iteration 0 are empty (its deltas reach
  // the committee as shares): whether one must be is Fold's check.
  const bool empty_allowed = plan.tokens_of(u.party) == 0 || u.party >= plan.num_parties();
  const bool empty = proto.matrix().ciphertexts_size() == 0 && proto.totals().ciphertexts_size() == 0;
  if (empty_allowed && empty) return u;
  absl::StatusOr<std::vector<crypto::Ciphertext>> matrix =
      crypto::CiphertextBatchFromProto(key, proto.matrix(), plan.MatrixCiphertexts());
  if (!matrix.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("count update of party ", u.party,
                                                   ", matrix: ", matrix.status().message()));
  }
  absl::StatusOr<std::vector<crypto::Ciphertext>> totals =
      crypto::CiphertextBatchFromProto(key, proto.totals(), plan.TotalsCiphertexts());
  if (!totals.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("count update of party ", u.party,
                                                   ", totals: ", totals.status().message()));
  }
  u.matrix = *std::move(matrix);
  u.totals = *std::move(totals);
  return u;
}

absl::StatusOr<std::vector<CountUpdate>> CountUpdatesFromProto(
    const google::protobuf::RepeatedPtrField<pplda::v1::CountUpdateMessage>& protos,
    const std::string& run_id, const crypto::ThresholdPublicKey& key, const SecureLdaPlan& plan) {
  if (protos.size() != plan.num_owners()) {
    return absl::InvalidArgumentError(
        absl::StrCat(protos.size(), " count updates for ", plan.num_owners(), " owners"));
  }
  std::vector<CountUpdate> out;
  for (const pplda::v1::CountUpdateMessage& p : protos) {
    ASSIGN_OR_RETURN(CountUpdate u, CountUpdateFromProto(p, run_id, key, plan));
    out.push_back(std::move(u));
  }
  return out;
}

absl::StatusOr<std::vector<int64_t>> OwnerTokensOf(const pplda::v1::PrepareRequest& request, int n,
                                                   int h, int me, int64_t my_tokens) {
  if (request.tokens_per_party_size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("tokens_per_party: ", request.tokens_per_party_size(), " totals for ", n,
                     " compute parties"));
  }
  if (request.tokens_per_holder_size() != h) {
    return absl::InvalidArgumentError(
        absl::StrCat("tokens_per_holder: ", request.tokens_per_holder_size(), " totals for ", h,
                     " data holders"));
  }
  std::vector<int64_t> tokens(request.tokens_per_party().begin(), request.tokens_per_party().end());
  tokens.insert(tokens.end(), request.tokens_per_holder().begin(),
                request.tokens_per_holder().end());
  if (tokens[me] != my_tokens) {
    return absl::InvalidArgumentError(
        absl::StrCat(me < n ? "tokens_per_party[" : "tokens_per_holder[", me < n ? me : me - n,
                     "] = ", tokens[me], ", but this party holds ", my_tokens, " tokens"));
  }
  return tokens;
}

absl::StatusOr<DecryptionShare> DecryptionShareFromProto(
    const pplda::v1::PartialDecryptionBatch& proto, const std::string& run_id, int iteration,
    int party, const crypto::ThresholdPublicKey& key, size_t ciphertexts) {
  DecryptionShare share;
  share.run_id = run_id;
  share.iteration = iteration;
  share.party = party;
  ASSIGN_OR_RETURN(share.partials,
                   crypto::PartialDecryptionBatchFromProto(key, proto, ciphertexts));
  if (share.partials.party != party + 1) {
    return absl::InvalidArgumentError(absl::StrCat("decryption share of compute party ", party,
                                                   ": decrypted as key party ",
                                                   share.partials.party, ", expected ",
                                                   party + 1));
  }
  return share;
}

pplda::v1::PhaseSeconds PhasesToProto(const PartyPhaseTimes& t) {
  pplda::v1::PhaseSeconds p;
  p.set_selection(t.selection);
  p.set_exchange(t.exchange);
  p.set_conversion(t.conversion);
  p.set_weights(t.weights);
  p.set_draw(t.draw);
  p.set_update(t.update);
  return p;
}

PartyPhaseTimes PhasesFromProto(const pplda::v1::PhaseSeconds& p) {
  return PartyPhaseTimes{p.selection(), p.exchange(), p.conversion(),
                         p.weights(),   p.draw(),     p.update()};
}

std::optional<privacy::DpCountOptions> DpOptionsFromParameters(
    const pplda::v1::RunParameters& parameters) {
  if (parameters.dp_epsilon() == 0) return std::nullopt;
  privacy::DpCountOptions o;
  o.epsilon = parameters.dp_epsilon();
  o.delta = parameters.dp_delta();
  o.caps.max_tokens = static_cast<int>(parameters.dp_max_tokens());
  o.caps.max_per_term = static_cast<int>(parameters.dp_max_term_count());
  o.noisy_iterations = static_cast<int>(parameters.dp_noisy_iterations());
  return o;
}

}  // namespace pplda::protocol

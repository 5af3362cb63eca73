// Conversions between the coordinator <-> party messages of
// protocol_messages.h and their wire forms (proto/party_control_service.proto),
// with every check a receiver needs (crypto/paillier/paillier_serialization.h
// validates each ciphertext: key fingerprint, fixed width, in Z*_{N^2}).
// CountUpdateFromProto(proto, run_id, key, plan): the party index must be a
// party of the plan and the batches must hold the plan's counts (a party
// with no tokens sends empty batches); errors are InvalidArgument naming
// the party and the field. Run id and iteration are checked by the
// receiver's state machine (EncryptedCounts::Fold). DP noise batches, when
// present, must hold the plan's counts too; whether they are due is Fold's
// check.
// Thread-safety: pure functions.
#ifndef PPLDA_PROTOCOL_WIRE_H_
#define PPLDA_PROTOCOL_WIRE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "privacy/dp_count_training.h"
#include "proto/party_control_service.pb.h"
#include "protocol/messages.h"
#include "protocol/phase_times.h"
#include "protocol/secure_lda_plan.h"

namespace pplda::protocol {

pplda::v1::CountUpdateMessage CountUpdateToProto(const crypto::ThresholdPublicKey& key,
                                                 const CountUpdate& update);
absl::StatusOr<CountUpdate> CountUpdateFromProto(const pplda::v1::CountUpdateMessage& proto,
                                                 const std::string& run_id,
                                                 const crypto::ThresholdPublicKey& key,
                                                 const SecureLdaPlan& plan);
// One update per party, party order.
absl::StatusOr<std::vector<CountUpdate>> CountUpdatesFromProto(
    const google::protobuf::RepeatedPtrField<pplda::v1::CountUpdateMessage>& protos,
    const std::string& run_id, const crypto::ThresholdPublicKey& key, const SecureLdaPlan& plan);

// Compute party `party`'s decryption share of a run's publication, from
// its PublishReply.partials: `ciphertexts` partial decryptions made with
// key share party + 1 (crypto::PartialDecryptionBatchFromProto's checks,
// then the share's key party: InvalidArgument naming both). The proofs are
// verified by the receiver against its own fold (LdaCoordinator::Publish).
// Every owner's token total from a PrepareRequest (the committee's n, then
// the h data holders'), checking the counts and that owner `me` has
// `my_tokens`; InvalidArgument naming the field otherwise.
absl::StatusOr<std::vector<int64_t>> OwnerTokensOf(const pplda::v1::PrepareRequest& request, int n,
                                                   int h, int me, int64_t my_tokens);
absl::StatusOr<DecryptionShare> DecryptionShareFromProto(
    const pplda::v1::PartialDecryptionBatch& proto, const std::string& run_id, int iteration,
    int party, const crypto::ThresholdPublicKey& key, size_t ciphertexts);

pplda::v1::PhaseSeconds PhasesToProto(const PartyPhaseTimes& t);
PartyPhaseTimes PhasesFromProto(const pplda::v1::PhaseSeconds& p);

// The DP training options of a run (nullopt when dp_epsilon is 0); not
// validated here (privacy::ValidateDpCountOptions names the flags).
std::optional<privacy::DpCountOptions> DpOptionsFromParameters(
    const pplda::v1::RunParameters& parameters);

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_WIRE_H_

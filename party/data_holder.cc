#include "party/data_holder.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"
#include "party/holder_delta_shares.h"
#include "party/selection_message.h"
#include "protocol/data_holder_rounds.h"
#include "protocol/encrypted_counts.h"
#include "protocol/secure_draw.h"

namespace pplda::party {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

DataHolder::DataHolder(int holder, std::string run_id, const protocol::SecureLdaPlan& plan,
                       const crypto::MpcConfig& committee, crypto::ThresholdPublicKeyPtr key,
                       const crypto::PaillierEncryptor& encryptor, ThreadPool* pool)
    : holder_(holder),
      run_id_(std::move(run_id)),
      plan_(plan),
      committee_(committee),
      key_(std::move(key)),
      encryptor_(encryptor),
      evaluator_(key_->paillier()),
      pool_(pool) {}

absl::StatusOr<std::unique_ptr<DataHolder>> DataHolder::Create(
    int holder, std::string run_id, const protocol::SecureLdaPlan& plan,
    const crypto::MpcConfig& committee, std::vector<std::vector<lda::TermId>> documents,
    std::vector<std::vector<int>> topics, crypto::ThresholdPublicKeyPtr key,
    const crypto::PaillierEncryptor& encryptor, ThreadPool* pool) {
  if (holder < 0 || holder >= plan.num_holders()) {
    return absl::InvalidArgumentError(
        absl::StrCat("data holder ", holder, " is outside [0, ", plan.num_holders(), ")"));
  }
  if (committee.num_parties() != plan.num_parties()) {
    return absl::InvalidArgumentError(absl::StrCat("data holder ", holder, ": a committee of ",
                                                   committee.num_parties(), ", the plan's has ",
                                                   plan.num_parties()));
  }
  auto h = std::unique_ptr<DataHolder>(
      new DataHolder(holder, std::move(run_id), plan, committee, std::move(key), encryptor, pool));
  ASSIGN_OR_RETURN(OwnedTokens tokens,
                   OwnedTokens::Create(absl::StrCat("data holder ", holder), plan,
                                       std::move(documents), std::move(topics)));
  h->tokens_.emplace(std::move(tokens));
  if (h->num_tokens() != plan.tokens_of(h->owner())) {
    return absl::InvalidArgumentError(absl::StrCat("data holder ", holder, " holds ",
                                                   h->num_tokens(), " tokens but the plan says ",
                                                   plan.tokens_of(h->owner())));
  }
  return h;
}

absl::StatusOr<protocol::CountUpdate> DataHolder::Encrypt(const CountTables& tables,
                                                          int iteration) const {
  if (num_tokens() == 0) {
    protocol::CountUpdate empty;
    empty.run_id = run_id_;
    empty.iteration = iteration;
    empty.party = owner();
    return empty;
  }
  return EncryptCountTables(plan_, encryptor_, tables, run_id_, iteration, owner(), pool_);
}

absl::StatusOr<protocol::CountUpdate> DataHolder::InitialCounts() const {
  return Encrypt(tokens_->Counts(plan_), 0);
}

absl::StatusOr<protocol::CountsDigest> DataHolder::CheckAttestations(
    int iteration, const std::vector<crypto::Ciphertext>& matrix,
    crypto::CommitteeLinks& links) const {
  const protocol::CountsDigest digest = protocol::CiphertextsDigest(
      protocol::kDrawMatrixLabel, matrix, key_->paillier().ciphertext_bytes());
  for (int j = 0; j < plan_.num_parties(); ++j) {
    ASSIGN_OR_RETURN(std::vector<uint8_t> attested,
                     links.ReceiveFromMember(
                         j, protocol::HolderRound(iteration, protocol::HolderStep::kAttest)));
    if (attested.size() != digest.size() ||
        !std::equal(digest.begin(), digest.end(), attested.begin())) {
      return absl::FailedPreconditionError(
          absl::StrCat("data holder ", holder_, ": the counts it was handed for iteration ",
                       iteration, " are not the ones committee member ", j,
                       " agreed on (the coordinator handed it a different matrix)"));
    }
  }
  return digest;
}

absl::StatusOr<protocol::CountUpdate> DataHolder::RunIteration(
    int iteration, const std::vector<crypto::Ciphertext>& matrix, crypto::CommitteeLinks& links,
    crypto::SecureRng& rng) {
  if (iteration != iterations_done_ + 1) {
    return absl::FailedPreconditionError(absl::StrCat(
        "data holder ", holder_, ": iteration ", iteration, ", expected ", iterations_done_ + 1));
  }
  if (!links.is_client() || links.index() != holder_ ||
      links.committee_size() != plan_.num_parties()) {
    return absl::InvalidArgumentError(
        absl::StrCat("data holder ", holder_, " was given another endpoint's links"));
  }
  protocol::PartyPhaseTimes t;
  Clock::time_point start = Clock::now();
  ASSIGN_OR_RETURN(const protocol::CountsDigest digest,
                   CheckAttestations(iteration, matrix, links));
  ASSIGN_OR_RETURN(const std::vector<crypto::Ciphertext> mine,
                   tokens_->Select(plan_, matrix, evaluator_, encryptor_, pool_));
  t.selection = SecondsSince(start);

  start = Clock::now();
  RETURN_IF_ERROR(
      links.SendToCommittee(protocol::HolderRound(iteration, protocol::HolderStep::kSelection),
                            SelectionMessage(digest, *key_, mine)));
  RETURN_IF_ERROR(links.SendInput(protocol::HolderRound(iteration, protocol::HolderStep::kInputs),
                                  tokens_->Inputs(plan_.num_topics()), rng));
  t.exchange = SecondsSince(start);

  start = Clock::now();
  ASSIGN_OR_RETURN(
      const std::vector<int> topics,
      protocol::ReceiveDrawnTopics(links, committee_, plan_.draw(),
                                   protocol::HolderRound(iteration, protocol::HolderStep::kDraw),
                                   static_cast<size_t>(num_tokens())));
  t.draw = SecondsSince(start);

  start = Clock::now();
  ASSIGN_OR_RETURN(const CountTables delta, tokens_->Apply(plan_, topics));
  ASSIGN_OR_RETURN(std::vector<mpz_class> packed, PackCountTables(plan_, delta));
  const std::vector<std::vector<uint8_t>> shares =
      SplitPackedDeltas(packed, key_->paillier().n(), plan_.num_parties(), holder_, rng);
  for (mpz_class& v : packed) crypto::Wipe(v);
  for (int j = 0; j < plan_.num_parties(); ++j) {
    RETURN_IF_ERROR(links.SendToMember(
        j, protocol::HolderRound(iteration, protocol::HolderStep::kDeltas), shares[j]));
  }
  protocol::CountUpdate update;
  update.run_id = run_id_;
  update.iteration = iteration;
  update.party = owner();
  t.update = SecondsSince(start);
  times_ += t;
  iterations_done_ = iteration;
  return update;
}

absl::Status DataHolder::Restore(int iterations_done) {
  if (iterations_done_ != 0 || iterations_done < 0) {
    return absl::FailedPreconditionError(absl::StrCat("data holder ", holder_, ": restore to ",
                                                      iterations_done, " after ", iterations_done_,
                                                      " iterations"));
  }
  iterations_done_ = iterations_done;
  return absl::OkStatus();
}

std::vector<std::vector<double>> DataHolder::DocumentTopicMixtures() const {
  return tokens_->DocumentTopicMixtures(plan_.num_topics(), plan_.effective_alpha());
}

}  // namespace pplda::party

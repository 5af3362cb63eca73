#include "coordinator/daemon/remote_party_group.h"

#include <chrono>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "coordinator/concurrent_party_calls.h"
#include "coordinator/failure_root_cause.h"
#include "crypto/paillier_serialization.h"
#include "net/grpc_status.h"
#include "net/message_limits.h"
#include "net/request_check.h"
#include "party/dp_vocabulary_party.h"
#include "party/party_session.h"
#include "party/protocol_wire.h"
#include "spdlog/spdlog.h"

namespace pplda::coordinator {

RemotePartyGroup::RemotePartyGroup(std::string coordinator_name, std::string run_id,
                                   const net::Consortium& consortium,
                                   const net::TlsIdentity& identity,
                                   crypto::ThresholdPublicKeyPtr key,
                                   std::chrono::seconds call_timeout, net::RelayHub* relay)
    : name_(std::move(coordinator_name)),
      run_id_(std::move(run_id)),
      key_(std::move(key)),
      call_timeout_(call_timeout),
      relay_(relay),
      parties_(consortium.compute_parties()) {
  for (const net::Participant& p : parties_) {
    if (p.relay && relay != nullptr) {
      clients_.push_back(NewRelayPartyControlClient(*relay, p.name));
    } else {
      // A relay-mode party without a hub has no address: its calls fail
      // with Unavailable naming it (the daemon always makes the hub).
      clients_.push_back(NewGrpcPartyControlClient(identity, p));
    }
  }
}

PartyControlClient::Deadline RemotePartyGroup::Deadline() const {
  return std::chrono::system_clock::now() + call_timeout_;
}

std::string RemotePartyGroup::Describe(int party) const {
  const net::Participant& p = parties_[party];
  return absl::StrCat(p.name, " (", p.relay ? "relay mode" : p.address, ")");
}

absl::Status RemotePartyGroup::ForEachParty(const std::string& step,
                                            const std::function<absl::Status(int)>& call) {
  const int n = num_parties();
  {
    std::lock_guard<std::mutex> lock(mu_);
    waiting_.clear();
    for (int p = 0; p < n; ++p) waiting_.insert(p);
  }
  const std::vector<absl::Status> results = CallEveryParty(
      n, call, kFailureGrace,
      [&](const absl::Status& first) {
        Abort(absl::StrCat(step, ": another party failed: ", first.message()));
      },
      [&](int p) {
        std::lock_guard<std::mutex> lock(mu_);
        waiting_.erase(p);
      });
  std::vector<std::string> names;
  for (int p = 0; p < n; ++p) names.push_back(parties_[p].name);
  const int first = RootCauseParty(results, names);
  if (first < 0) return absl::OkStatus();
  const absl::Status& s = results[first];
  {
    // Lost, as far as this step can tell: every party whose own call could
    // not reach it (the root cause named may be another party's echo).
    std::lock_guard<std::mutex> lock(mu_);
    not_back_.clear();
    for (int p = 0; p < n; ++p) {
      if (results[p].code() == absl::StatusCode::kUnavailable ||
          results[p].code() == absl::StatusCode::kDeadlineExceeded) {
        not_back_.push_back(parties_[p].name);
      }
    }
  }
  absl::Status error(s.code(), absl::StrCat(step, ": party ", Describe(first), ": ", s.message()));
  Abort(std::string(error.message()));
  return error;
}

absl::Status RemotePartyGroup::Resume(int iteration, uint32_t attempt,
                                      const pplda::v1::RunParameters& parameters,
                                      const std::vector<party::CountUpdate>& sent) {
  if (plan_ == nullptr) return absl::FailedPreconditionError("resume before the plan");
  pplda::v1::ResumeRequest request;
  *request.mutable_header() = net::MakeHeader(name_, run_id_, iteration);
  *request.mutable_parameters() = parameters;
  request.set_attempt(attempt);
  const size_t ciphertext_bytes = key_->paillier().ciphertext_bytes();
  std::vector<bool> unreachable(num_parties(), false);
  const absl::Status status = ForEachParty("resume", [&](int p) -> absl::Status {
    absl::StatusOr<pplda::v1::ResumeReply> reply = clients_[p]->Resume(request, Deadline());
    if (!reply.ok()) {
      unreachable[p] = reply.status().code() == absl::StatusCode::kUnavailable ||
                       reply.status().code() == absl::StatusCode::kDeadlineExceeded;
      return reply.status();
    }
    ASSIGN_OR_RETURN(party::CountUpdate shown,
                     party::CountUpdateFromProto(reply->update(), run_id_, *key_, *plan_));
    if (party::UpdateDigest(shown, ciphertext_bytes) !=
        party::UpdateDigest(sent[p], ciphertext_bytes)) {
      return absl::FailedPreconditionError(absl::StrCat("its saved update of iteration ", iteration,
                                                        " is not the one this coordinator holds"));
    }
    return absl::OkStatus();
  });
  std::lock_guard<std::mutex> lock(mu_);
  not_back_.clear();
  for (int p = 0; p < num_parties(); ++p) {
    if (unreachable[p]) not_back_.push_back(parties_[p].name);
  }
  return status;
}

std::vector<std::string> RemotePartyGroup::not_back() const {
  std::lock_guard<std::mutex> lock(mu_);
  return not_back_;
}

void RemotePartyGroup::Abort(const std::string& reason) { SendAbort(reason, false); }

void RemotePartyGroup::EndPublished() { SendAbort("the run is published", true); }

void RemotePartyGroup::SendAbort(const std::string& reason, bool run_published) {
  std::vector<std::thread> threads;
  for (int p = 0; p < num_parties(); ++p) {
    threads.emplace_back([&, p] {
      pplda::v1::AbortRequest request;
      *request.mutable_header() = net::MakeHeader(name_, run_id_, 0);
      request.set_reason(reason);
      request.set_run_published(run_published);
      (void)clients_[p]->Abort(request,
                               std::chrono::system_clock::now() + std::chrono::seconds(10));
    });
  }
  for (std::thread& t : threads) t.join();
}

std::vector<std::string> RemotePartyGroup::waiting_for() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> names;
  for (int p : waiting_) names.push_back(parties_[p].name);
  return names;
}

RemoteCallStats RemotePartyGroup::last_iteration() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_;
}

absl::StatusOr<std::vector<int64_t>> RemotePartyGroup::Join(
    const pplda::v1::RunParameters& parameters) {
  if (relay_ != nullptr) {
    std::vector<std::string> names;
    for (const net::Participant& p : parties_) names.push_back(p.name);
    if (!relay_->WaitConnected(names, kRelayConnectWait)) {
      std::vector<std::string> missing;
      for (const std::string& name : names) {
        if (!relay_->connected(name)) missing.push_back(name);
      }
      {
        std::lock_guard<std::mutex> lock(mu_);
        not_back_ = missing;  // lost, as far as Join can tell
      }
      return absl::UnavailableError(absl::StrCat(
          "join: no stream to the coordinator's relay within ", kRelayConnectWait.count(),
          " s from ", absl::StrJoin(missing, ", "),
          " (with relay-mode parties in the consortium, every compute party's daemon keeps one "
          "open; is it running, and does it reach the coordinator?)"));
    }
  }
  std::vector<int64_t> tokens(num_parties());
  insecure_deterministic_rng_seeds_.assign(num_parties(), std::nullopt);
  iterations_ = static_cast<int>(parameters.iterations());
  RETURN_IF_ERROR(ForEachParty("join", [&](int p) -> absl::Status {
    pplda::v1::JoinRequest request;
    *request.mutable_header() = net::MakeHeader(name_, run_id_, 0);
    *request.mutable_parameters() = parameters;
    ASSIGN_OR_RETURN(pplda::v1::JoinReply reply, clients_[p]->Join(request, Deadline()));
    if (reply.party_index() != static_cast<uint32_t>(p)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "answers as compute party ", reply.party_index(), ", the consortium file says ", p));
    }
    tokens[p] = static_cast<int64_t>(reply.tokens());
    if (reply.has_insecure_deterministic_rng_seed()) {
      insecure_deterministic_rng_seeds_[p] = reply.insecure_deterministic_rng_seed();
    }
    return absl::OkStatus();
  }));
  return tokens;
}

absl::StatusOr<SelectedDpVocabulary> RemotePartyGroup::SelectDpVocabulary(
    const privacy::CandidateUnionPlan& plan, const lda::Vocabulary& candidates, ThreadPool* pool) {
  const auto start = std::chrono::steady_clock::now();
  const int n = num_parties();
  const uint64_t ct_bytes = key_->paillier().ciphertext_bytes();
  ASSIGN_OR_RETURN(crypto::PackingLayout layout,
                   party::VocabularyPackingLayout(plan, key_->paillier()));
  const size_t length = layout.NumPlaintexts(static_cast<size_t>(plan.candidates));
  SelectedDpVocabulary out;
  // 1. Every party's encrypted histogram plus noise shares.
  std::vector<party::VocabularyContribution> contributions(n);
  pplda::v1::VocabularyRequest decrypt;
  decrypt.mutable_decrypt()->mutable_contributions()->Reserve(n);
  for (int p = 0; p < n; ++p) decrypt.mutable_decrypt()->add_contributions();
  RETURN_IF_ERROR(ForEachParty("DP vocabulary (contribution)", [&](int p) -> absl::Status {
    pplda::v1::VocabularyRequest request;
    *request.mutable_header() = net::MakeHeader(name_, run_id_, 0);
    request.mutable_contribute();
    ASSIGN_OR_RETURN(pplda::v1::VocabularyReply reply,
                     clients_[p]->Vocabulary(request, Deadline()));
    contributions[p].run_id = run_id_;
    contributions[p].party = p;
    ASSIGN_OR_RETURN(contributions[p].counts,
                     crypto::CiphertextBatchFromProto(*key_, reply.contribution(), length));
    *decrypt.mutable_decrypt()->mutable_contributions(p) = std::move(*reply.mutable_contribution());
    return absl::OkStatus();
  }));
  out.coordinator_bytes += static_cast<uint64_t>(n) * (1 + n) * length * ct_bytes;
  // 2. Relayed to every party; they confirm the sum among themselves and
  // the key's threshold of them decrypt it.
  const int decryptors = key_->threshold();
  std::vector<crypto::PartialDecryptionBatch> batches(decryptors);
  pplda::v1::VocabularyRequest select;
  RETURN_IF_ERROR(ForEachParty("DP vocabulary (sum and decryption)", [&](int p) -> absl::Status {
    pplda::v1::VocabularyRequest request = decrypt;
    *request.mutable_header() = net::MakeHeader(name_, run_id_, 0);
    request.mutable_decrypt()->set_decrypt(p < decryptors);
    ASSIGN_OR_RETURN(pplda::v1::VocabularyReply reply,
                     clients_[p]->Vocabulary(request, Deadline()));
    if (p < decryptors) {
      ASSIGN_OR_RETURN(batches[p],
                       crypto::PartialDecryptionBatchFromProto(*key_, reply.partials(), length));
      if (batches[p].party != p + 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("answered with the partial decryptions of key share ", batches[p].party,
                         ", expected ", p + 1));
      }
    }
    return absl::OkStatus();
  }));
  // 3. The coordinator's own check: every proof against its own sum.
  std::vector<const party::VocabularyContribution*> by_party;
  for (const party::VocabularyContribution& c : contributions) by_party.push_back(&c);
  const std::vector<crypto::Ciphertext> sum = party::SumContributions(key_->paillier(), by_party);
  ASSIGN_OR_RETURN(
      std::vector<int64_t> noisy,
      party::DecodeNoisyCandidateCounts(key_, layout, sum, batches, plan.candidates, pool));
  ASSIGN_OR_RETURN(std::vector<lda::TermId> selected, privacy::SelectCandidates(plan, noisy));
  for (lda::TermId u : selected) out.vocabulary.Add(candidates.term(u));
  const std::string sha = party::VocabularySha256(out.vocabulary);
  for (const crypto::PartialDecryptionBatch& b : batches) {
    *select.mutable_select()->add_partials() = crypto::PartialDecryptionBatchToProto(*key_, b);
    out.coordinator_bytes += static_cast<uint64_t>(1 + n) * 3 * length * ct_bytes;
  }
  out.tokens.assign(n, 0);
  RETURN_IF_ERROR(ForEachParty("DP vocabulary (selection)", [&](int p) -> absl::Status {
    pplda::v1::VocabularyRequest request = select;
    *request.mutable_header() = net::MakeHeader(name_, run_id_, 0);
    ASSIGN_OR_RETURN(pplda::v1::VocabularyReply reply,
                     clients_[p]->Vocabulary(request, Deadline()));
    if (reply.vocabulary_sha256() != sha) {
      return absl::FailedPreconditionError(
          absl::StrCat("selected a vocabulary with SHA-256 ", reply.vocabulary_sha256(), " (",
                       reply.vocabulary_size(), " terms); the coordinator's decryption selects ",
                       sha, " (", out.vocabulary.size(), " terms)"));
    }
    out.tokens[p] = static_cast<int64_t>(reply.tokens());
    return absl::OkStatus();
  }));
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

void RemotePartyGroup::set_plan(const party::SecureLdaPlan& plan, std::vector<int64_t> tokens) {
  plan_ = std::make_unique<party::SecureLdaPlan>(plan);
  (void)tokens;
}

absl::StatusOr<std::vector<party::CountUpdate>> RemotePartyGroup::InitialCounts() {
  if (plan_ == nullptr) return absl::FailedPreconditionError("initial counts before the plan");
  std::vector<party::CountUpdate> updates(num_parties());
  RETURN_IF_ERROR(ForEachParty("prepare", [&](int p) -> absl::Status {
    pplda::v1::PrepareRequest request;
    *request.mutable_header() = net::MakeHeader(name_, run_id_, 0);
    for (int q = 0; q < num_parties(); ++q) {
      request.add_tokens_per_party(static_cast<uint64_t>(plan_->tokens_of(q)));
    }
    ASSIGN_OR_RETURN(pplda::v1::PrepareReply reply, clients_[p]->Prepare(request, Deadline()));
    ASSIGN_OR_RETURN(updates[p], party::CountUpdateFromProto(reply.initial_counts(), run_id_,
                                                             *key_, *plan_));
    return absl::OkStatus();
  }));
  return updates;
}

absl::StatusOr<IterationOutput> RemotePartyGroup::Iterate(
    int iteration, const std::vector<party::CountUpdate>& previous) {
  pplda::v1::IterateRequest request;
  *request.mutable_header() = net::MakeHeader(name_, run_id_, iteration);
  for (const party::CountUpdate& u : previous) {
    *request.add_previous() = party::CountUpdateToProto(*key_, u);
  }
  IterationOutput out;
  out.updates.resize(num_parties());
  RETURN_IF_ERROR(ForEachParty(absl::StrCat("iteration ", iteration), [&](int p) -> absl::Status {
    ASSIGN_OR_RETURN(pplda::v1::IterateReply reply, clients_[p]->Iterate(request, Deadline()));
    ASSIGN_OR_RETURN(out.updates[p],
                     party::CountUpdateFromProto(reply.update(), run_id_, *key_, *plan_));
    if (p == 0) {
      out.phases = party::PhasesFromProto(reply.phases());
      std::lock_guard<std::mutex> lock(mu_);
      last_.mpc_bytes_sent_party0 = reply.mpc_bytes_sent();
      last_.mpc_rounds = reply.mpc_rounds();
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<party::DecryptionShare>> RemotePartyGroup::Publish(
    const std::vector<party::CountUpdate>& last, const party::CountsDigest& digest,
    int decryptors) {
  pplda::v1::PublishRequest request;
  *request.mutable_header() = net::MakeHeader(name_, run_id_, iterations_ + 1);
  for (const party::CountUpdate& u : last) *request.add_last() = party::CountUpdateToProto(*key_, u);
  request.set_counts_digest(std::string(digest.begin(), digest.end()));
  std::vector<party::DecryptionShare> shares(decryptors);
  mixtures_paths_.assign(num_parties(), "");
  const size_t cts = plan_->MatrixCiphertexts() + plan_->TotalsCiphertexts();
  RETURN_IF_ERROR(ForEachParty("publication", [&](int p) -> absl::Status {
    pplda::v1::PublishRequest mine = request;
    mine.set_decrypt(p < decryptors);
    ASSIGN_OR_RETURN(pplda::v1::PublishReply reply, clients_[p]->Publish(mine, Deadline()));
    mixtures_paths_[p] = reply.mixtures_path();
    if (p < decryptors) {
      ASSIGN_OR_RETURN(shares[p], party::DecryptionShareFromProto(reply.partials(), run_id_,
                                                                  iterations_ + 1, p, *key_, cts));
    }
    return absl::OkStatus();
  }));
  return shares;
}

}  // namespace pplda::coordinator

#include "coordinator/daemon/remote_party_group.h"

#include <chrono>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "coordinator/concurrent_party_calls.h"
#include "coordinator/failure_root_cause.h"
#include "crypto/paillier/paillier_serialization.h"
#include "net/grpc_status.h"
#include "net/message_limits.h"
#include "net/request_check.h"
#include "protocol/dp_vocabulary_messages.h"
#include "protocol/vocabulary_digest.h"
#include "protocol/wire.h"
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
      parties_(consortium.owners()),
      num_committee_(consortium.num_compute_parties()) {
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
  const int n = num_owners();
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
                                      const std::vector<protocol::CountUpdate>& sent) {
  if (plan_ == nullptr) return absl::FailedPreconditionError("resume before the plan");
  pplda::v1::ResumeRequest request;
  *request.mutable_header() = net::MakeHeader(name_, run_id_, iteration);
  *request.mutable_parameters() = parameters;
  request.set_attempt(attempt);
  const size_t ciphertext_bytes = key_->paillier().ciphertext_bytes();
  std::vector<bool> unreachable(num_owners(), false);
  const absl::Status status = ForEachParty("resume", [&](int p) -> absl::Status {
    absl::StatusOr<pplda::v1::ResumeReply> reply = clients_[p]->Resume(request, Deadline());
    if (!reply.ok()) {
      unreachable[p] = reply.status().code() == absl::StatusCode::kUnavailable ||
                       reply.status().code() == absl::StatusCode::kDeadlineExceeded;
      return reply.status();
    }
    ASSIGN_OR_RETURN(protocol::CountUpdate shown,
                     protocol::CountUpdateFromProto(reply->update(), run_id_, *key_, *plan_));
    if (protocol::UpdateDigest(shown, ciphertext_bytes) !=
        protocol::UpdateDigest(sent[p], ciphertext_bytes)) {
      return absl::FailedPreconditionError(absl::StrCat("its saved update of iteration ", iteration,
                                                        " is not the one this coordinator holds"));
    }
    return absl::OkStatus();
  });
  std::lock_guard<std::mutex> lock(mu_);
  not_back_.clear();
  for (int p = 0; p < num_owners(); ++p) {
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
  for (int p = 0; p < num_owners(); ++p) {
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
          " (with relay-mode parties in the consortium, every participant's daemon keeps one "
          "open; is it running, and does it reach the coordinator?)"));
    }
  }
  std::vector<int64_t> tokens(num_owners());
  insecure_deterministic_rng_seeds_.assign(num_owners(), std::nullopt);
  iterations_ = static_cast<int>(parameters.iterations());
  RETURN_IF_ERROR(ForEachParty("join", [&](int p) -> absl::Status {
    pplda::v1::JoinRequest request;
    *request.mutable_header() = net::MakeHeader(name_, run_id_, 0);
    *request.mutable_parameters() = parameters;
    ASSIGN_OR_RETURN(pplda::v1::JoinReply reply, clients_[p]->Join(request, Deadline()));
    if (reply.party_index() != static_cast<uint32_t>(p)) {
      return absl::FailedPreconditionError(
          absl::StrCat("answers as owner ", reply.party_index(), ", the consortium file says ", p,
                       p < num_committee_ ? " (a compute party)" : " (a data holder)"));
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
  ASSIGN_OR_RETURN(crypto::PackingLayout layout,
                   protocol::VocabularyPackingLayout(plan, key_->paillier()));
  vocabulary_length_ = layout.NumPlaintexts(static_cast<size_t>(plan.candidates));
  ASSIGN_OR_RETURN(DrivenDpVocabulary driven,
                   DriveDpVocabulary(*this, plan, candidates, key_, pool));
  return SelectedDpVocabulary{std::move(driven.vocabulary), std::move(driven.tokens),
                              driven.coordinator_bytes, driven.seconds};
}

absl::StatusOr<std::vector<protocol::VocabularyContribution>> RemotePartyGroup::Contribute() {
  std::vector<protocol::VocabularyContribution> contributions(num_owners());
  RETURN_IF_ERROR(ForEachParty("DP vocabulary (contribution)", [&](int p) -> absl::Status {
    pplda::v1::VocabularyRequest request;
    *request.mutable_header() = net::MakeHeader(name_, run_id_, 0);
    request.mutable_contribute();
    ASSIGN_OR_RETURN(pplda::v1::VocabularyReply reply,
                     clients_[p]->Vocabulary(request, Deadline()));
    contributions[p].run_id = run_id_;
    contributions[p].party = p;
    ASSIGN_OR_RETURN(contributions[p].counts, crypto::CiphertextBatchFromProto(
                                                  *key_, reply.contribution(), vocabulary_length_));
    return absl::OkStatus();
  }));
  return contributions;
}

absl::StatusOr<std::vector<crypto::PartialDecryptionBatch>> RemotePartyGroup::SumAndDecrypt(
    const std::vector<protocol::VocabularyContribution>& contributions, int decryptors) {
  // Every contribution relayed to every compute party (a data holder sums
  // and decrypts nothing); they confirm the sum among themselves and
  // parties 0 .. decryptors-1 decrypt it.
  pplda::v1::VocabularyRequest relay;
  for (const protocol::VocabularyContribution& c : contributions) {
    *relay.mutable_decrypt()->add_contributions() = crypto::CiphertextBatchToProto(*key_, c.counts);
  }
  std::vector<crypto::PartialDecryptionBatch> batches(decryptors);
  RETURN_IF_ERROR(ForEachParty("DP vocabulary (sum and decryption)", [&](int p) -> absl::Status {
    if (p >= num_committee_) return absl::OkStatus();
    pplda::v1::VocabularyRequest request = relay;
    *request.mutable_header() = net::MakeHeader(name_, run_id_, 0);
    request.mutable_decrypt()->set_decrypt(p < decryptors);
    ASSIGN_OR_RETURN(pplda::v1::VocabularyReply reply,
                     clients_[p]->Vocabulary(request, Deadline()));
    if (p >= decryptors) return absl::OkStatus();
    ASSIGN_OR_RETURN(batches[p], crypto::PartialDecryptionBatchFromProto(*key_, reply.partials(),
                                                                         vocabulary_length_));
    if (batches[p].party != p + 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("answered with the partial decryptions of key share ", batches[p].party,
                       ", expected ", p + 1));
    }
    return absl::OkStatus();
  }));
  return batches;
}

absl::StatusOr<std::vector<VocabularySelection>> RemotePartyGroup::Select(
    const std::vector<crypto::PartialDecryptionBatch>& partials) {
  pplda::v1::VocabularyRequest select;
  for (const crypto::PartialDecryptionBatch& b : partials) {
    *select.mutable_select()->add_partials() = crypto::PartialDecryptionBatchToProto(*key_, b);
  }
  std::vector<VocabularySelection> selections(num_owners());
  RETURN_IF_ERROR(ForEachParty("DP vocabulary (selection)", [&](int p) -> absl::Status {
    // A data holder gets the selection from every member over its links.
    pplda::v1::VocabularyRequest request;
    if (p < num_committee_) {
      request = select;
    } else {
      request.mutable_select();
    }
    *request.mutable_header() = net::MakeHeader(name_, run_id_, 0);
    ASSIGN_OR_RETURN(pplda::v1::VocabularyReply reply,
                     clients_[p]->Vocabulary(request, Deadline()));
    selections[p] = VocabularySelection{reply.vocabulary_sha256(), reply.vocabulary_size(),
                                        static_cast<int64_t>(reply.tokens())};
    return absl::OkStatus();
  }));
  return selections;
}

void RemotePartyGroup::set_plan(const protocol::SecureLdaPlan& plan, std::vector<int64_t> tokens) {
  plan_ = std::make_unique<protocol::SecureLdaPlan>(plan);
  (void)tokens;
}

absl::StatusOr<std::vector<protocol::CountUpdate>> RemotePartyGroup::InitialCounts() {
  if (plan_ == nullptr) return absl::FailedPreconditionError("initial counts before the plan");
  std::vector<protocol::CountUpdate> updates(num_owners());
  RETURN_IF_ERROR(ForEachParty("prepare", [&](int p) -> absl::Status {
    pplda::v1::PrepareRequest request;
    *request.mutable_header() = net::MakeHeader(name_, run_id_, 0);
    for (int q = 0; q < num_owners(); ++q) {
      const auto tokens = static_cast<uint64_t>(plan_->tokens_of(q));
      if (q < num_committee_) {
        request.add_tokens_per_party(tokens);
      } else {
        request.add_tokens_per_holder(tokens);
      }
    }
    ASSIGN_OR_RETURN(pplda::v1::PrepareReply reply, clients_[p]->Prepare(request, Deadline()));
    ASSIGN_OR_RETURN(
        updates[p], protocol::CountUpdateFromProto(reply.initial_counts(), run_id_, *key_, *plan_));
    return absl::OkStatus();
  }));
  return updates;
}

absl::StatusOr<IterationOutput> RemotePartyGroup::Iterate(
    int iteration, const std::vector<protocol::CountUpdate>& previous,
    const std::vector<crypto::Ciphertext>& draw_matrix) {
  pplda::v1::IterateRequest request;
  *request.mutable_header() = net::MakeHeader(name_, run_id_, iteration);
  for (const protocol::CountUpdate& u : previous) {
    *request.add_previous() = protocol::CountUpdateToProto(*key_, u);
  }
  // A data holder gets the draw matrix and nothing of the others' updates.
  pplda::v1::IterateRequest holder_request;
  *holder_request.mutable_header() = request.header();
  if (num_holders() > 0) {
    *holder_request.mutable_draw_matrix() = crypto::CiphertextBatchToProto(*key_, draw_matrix);
  }
  IterationOutput out;
  out.updates.resize(num_owners());
  RETURN_IF_ERROR(ForEachParty(absl::StrCat("iteration ", iteration), [&](int p) -> absl::Status {
    ASSIGN_OR_RETURN(
        pplda::v1::IterateReply reply,
        clients_[p]->Iterate(p < num_committee_ ? request : holder_request, Deadline()));
    ASSIGN_OR_RETURN(out.updates[p],
                     protocol::CountUpdateFromProto(reply.update(), run_id_, *key_, *plan_));
    if (p == 0) {
      out.phases = protocol::PhasesFromProto(reply.phases());
      std::lock_guard<std::mutex> lock(mu_);
      last_.mpc_bytes_sent_party0 = reply.mpc_bytes_sent();
      last_.mpc_rounds = reply.mpc_rounds();
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<protocol::DecryptionShare>> RemotePartyGroup::Publish(
    const std::vector<protocol::CountUpdate>& last, const protocol::CountsDigest& digest,
    int decryptors) {
  pplda::v1::PublishRequest request;
  *request.mutable_header() = net::MakeHeader(name_, run_id_, iterations_ + 1);
  for (const protocol::CountUpdate& u : last)
    *request.add_last() = protocol::CountUpdateToProto(*key_, u);
  request.set_counts_digest(std::string(digest.begin(), digest.end()));
  std::vector<protocol::DecryptionShare> shares(decryptors);
  mixtures_paths_.assign(num_owners(), "");
  const size_t cts = plan_->MatrixCiphertexts() + plan_->TotalsCiphertexts();
  RETURN_IF_ERROR(ForEachParty("publication", [&](int p) -> absl::Status {
    pplda::v1::PublishRequest mine;
    if (p < num_committee_) {
      mine = request;
      mine.set_decrypt(p < decryptors);
    } else {
      *mine.mutable_header() = request.header();  // a data holder decrypts nothing
    }
    ASSIGN_OR_RETURN(pplda::v1::PublishReply reply, clients_[p]->Publish(mine, Deadline()));
    mixtures_paths_[p] = reply.mixtures_path();
    if (p < decryptors) {
      ASSIGN_OR_RETURN(shares[p], protocol::DecryptionShareFromProto(
                                      reply.partials(), run_id_, iterations_ + 1, p, *key_, cts));
    }
    return absl::OkStatus();
  }));
  return shares;
}

}  // namespace pplda::coordinator

#include "coordinator/daemon/party_control_client.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "net/grpc_status.h"
#include "net/message_limits.h"
#include "net/tls_identity.h"

namespace pplda::coordinator {
namespace {

class GrpcClient final : public PartyControlClient {
 public:
  GrpcClient(std::unique_ptr<pplda::v1::PartyControl::Stub> stub, net::Participant party)
      : stub_(std::move(stub)), party_(std::move(party)) {}

  absl::StatusOr<pplda::v1::JoinReply> Join(const pplda::v1::JoinRequest& request,
                                            Deadline deadline) override {
    return Call(&pplda::v1::PartyControl::Stub::Join, request, deadline);
  }
  absl::StatusOr<pplda::v1::VocabularyReply> Vocabulary(const pplda::v1::VocabularyRequest& request,
                                                        Deadline deadline) override {
    return Call(&pplda::v1::PartyControl::Stub::Vocabulary, request, deadline);
  }
  absl::StatusOr<pplda::v1::PrepareReply> Prepare(const pplda::v1::PrepareRequest& request,
                                                  Deadline deadline) override {
    return Call(&pplda::v1::PartyControl::Stub::Prepare, request, deadline);
  }
  absl::StatusOr<pplda::v1::IterateReply> Iterate(const pplda::v1::IterateRequest& request,
                                                  Deadline deadline) override {
    return Call(&pplda::v1::PartyControl::Stub::Iterate, request, deadline);
  }
  absl::StatusOr<pplda::v1::PublishReply> Publish(const pplda::v1::PublishRequest& request,
                                                  Deadline deadline) override {
    return Call(&pplda::v1::PartyControl::Stub::Publish, request, deadline);
  }
  absl::Status Abort(const pplda::v1::AbortRequest& request, Deadline deadline) override {
    return Call(&pplda::v1::PartyControl::Stub::Abort, request, deadline).status();
  }
  absl::StatusOr<pplda::v1::ResumeReply> Resume(const pplda::v1::ResumeRequest& request,
                                                Deadline deadline) override {
    return Call(&pplda::v1::PartyControl::Stub::Resume, request, deadline);
  }

 private:
  template <typename Request, typename Reply>
  absl::StatusOr<Reply> Call(grpc::Status (pplda::v1::PartyControl::Stub::*method)(
                                 grpc::ClientContext*, const Request&, Reply*),
                             const Request& request, Deadline deadline) {
    grpc::ClientContext context;
    context.set_deadline(deadline);
    Reply reply;
    // Only the party's own pinned certificate is believed.
    RETURN_IF_ERROR(net::CheckServerPinned(
        context, party_, net::FromGrpcStatus(((*stub_).*method)(&context, request, &reply))));
    return reply;
  }

  std::unique_ptr<pplda::v1::PartyControl::Stub> stub_;
  const net::Participant party_;
};

class RelayClient final : public PartyControlClient {
 public:
  RelayClient(net::RelayHub& hub, std::string party) : hub_(hub), party_(std::move(party)) {}

  absl::StatusOr<pplda::v1::JoinReply> Join(const pplda::v1::JoinRequest& request,
                                            Deadline deadline) override {
    pplda::v1::RelayedCall call;
    *call.mutable_join() = request;
    return Take<pplda::v1::JoinReply>(Call(std::move(call), deadline),
                                      pplda::v1::RelayedReply::kJoin,
                                      &pplda::v1::RelayedReply::mutable_join);
  }
  absl::StatusOr<pplda::v1::VocabularyReply> Vocabulary(const pplda::v1::VocabularyRequest& request,
                                                        Deadline deadline) override {
    pplda::v1::RelayedCall call;
    *call.mutable_vocabulary() = request;
    return Take<pplda::v1::VocabularyReply>(Call(std::move(call), deadline),
                                            pplda::v1::RelayedReply::kVocabulary,
                                            &pplda::v1::RelayedReply::mutable_vocabulary);
  }
  absl::StatusOr<pplda::v1::PrepareReply> Prepare(const pplda::v1::PrepareRequest& request,
                                                  Deadline deadline) override {
    pplda::v1::RelayedCall call;
    *call.mutable_prepare() = request;
    return Take<pplda::v1::PrepareReply>(Call(std::move(call), deadline),
                                         pplda::v1::RelayedReply::kPrepare,
                                         &pplda::v1::RelayedReply::mutable_prepare);
  }
  absl::StatusOr<pplda::v1::IterateReply> Iterate(const pplda::v1::IterateRequest& request,
                                                  Deadline deadline) override {
    pplda::v1::RelayedCall call;
    *call.mutable_iterate() = request;
    return Take<pplda::v1::IterateReply>(Call(std::move(call), deadline),
                                         pplda::v1::RelayedReply::kIterate,
                                         &pplda::v1::RelayedReply::mutable_iterate);
  }
  absl::StatusOr<pplda::v1::PublishReply> Publish(const pplda::v1::PublishRequest& request,
                                                  Deadline deadline) override {
    pplda::v1::RelayedCall call;
    *call.mutable_publish() = request;
    return Take<pplda::v1::PublishReply>(Call(std::move(call), deadline),
                                         pplda::v1::RelayedReply::kPublish,
                                         &pplda::v1::RelayedReply::mutable_publish);
  }
  absl::Status Abort(const pplda::v1::AbortRequest& request, Deadline deadline) override {
    pplda::v1::RelayedCall call;
    *call.mutable_abort() = request;
    return Call(std::move(call), deadline).status();
  }
  absl::StatusOr<pplda::v1::ResumeReply> Resume(const pplda::v1::ResumeRequest& request,
                                                Deadline deadline) override {
    pplda::v1::RelayedCall call;
    *call.mutable_resume() = request;
    return Take<pplda::v1::ResumeReply>(Call(std::move(call), deadline),
                                        pplda::v1::RelayedReply::kResume,
                                        &pplda::v1::RelayedReply::mutable_resume);
  }

 private:
  // The reply, or the party's own status.
  absl::StatusOr<pplda::v1::RelayedReply> Call(pplda::v1::RelayedCall call, Deadline deadline) {
    absl::StatusOr<pplda::v1::RelayedReply> reply = hub_.Call(party_, std::move(call), deadline);
    if (!reply.ok()) return reply.status();
    if (reply->status_code() != 0) {
      return absl::Status(static_cast<absl::StatusCode>(reply->status_code()),
                          reply->status_message());
    }
    return reply;
  }

  template <typename Reply>
  absl::StatusOr<Reply> Take(absl::StatusOr<pplda::v1::RelayedReply> reply,
                             pplda::v1::RelayedReply::ReplyCase expected,
                             Reply* (pplda::v1::RelayedReply::*field)()) {
    if (!reply.ok()) return reply.status();
    if (reply->reply_case() != expected) {
      return absl::InvalidArgumentError(absl::StrCat(
          "party \"", party_, "\" answered a relayed call with reply type ",
          static_cast<int>(reply->reply_case()), ", expected ", static_cast<int>(expected)));
    }
    return std::move(*((*reply).*field)());
  }

  net::RelayHub& hub_;
  const std::string party_;
};

}  // namespace

std::unique_ptr<PartyControlClient> NewGrpcPartyControlClient(const net::TlsIdentity& identity,
                                                              const net::Participant& party) {
  const int max_bytes = net::MaxMessageBytes(net::kDefaultMaxPayloadBytes);
  return std::make_unique<GrpcClient>(pplda::v1::PartyControl::NewStub(net::CreatePeerChannel(
                                          identity, party.address, party.name, max_bytes)),
                                      party);
}

std::unique_ptr<PartyControlClient> NewRelayPartyControlClient(net::RelayHub& hub,
                                                               std::string party_name) {
  return std::make_unique<RelayClient>(hub, std::move(party_name));
}

}  // namespace pplda::coordinator

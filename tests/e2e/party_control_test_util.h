// A test's own PartyControl client (proto/party_control_service.proto):
// talks to the party daemons of a LocalConsortium directly, over mutual TLS
// with the certificate of a participant of the test's choice (normally the
// coordinator's, to play the coordinator; a party's to be refused), so a
// test can send what the real coordinator never would.
#ifndef PPLDA_TESTS_E2E_PARTY_CONTROL_TEST_UTIL_H_
#define PPLDA_TESTS_E2E_PARTY_CONTROL_TEST_UTIL_H_

#include <chrono>
#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "lda/vocabulary_file.h"
#include "net/protocol_version.h"
#include "net/tls_identity.h"
#include "party/party_session.h"
#include "proto/party_control_service.grpc.pb.h"
#include "tests/e2e/e2e_test_util.h"

namespace pplda::e2e::testing {

class PartyControlClient {
 public:
  // As participant `as` (its certificate under the consortium's certs/),
  // with no message size limit of its own: what is refused for size is
  // refused by the daemon.
  static absl::StatusOr<std::unique_ptr<PartyControlClient>> Create(const LocalConsortium& c,
                                                                    const std::string& as) {
    const std::filesystem::path certs = c.certs();
    absl::StatusOr<net::TlsIdentity> identity =
        net::TlsIdentity::Load(certs / "ca.crt", certs / (as + ".crt"), certs / (as + ".key"));
    if (!identity.ok()) return identity.status();
    absl::StatusOr<lda::Vocabulary> vocabulary = lda::ReadVocabularyFile(c.vocabulary().string());
    if (!vocabulary.ok()) return vocabulary.status();
    auto client = std::unique_ptr<PartyControlClient>(new PartyControlClient());
    client->sender_ = as;
    client->vocabulary_sha256_ = protocol::VocabularySha256(*vocabulary);
    for (int i = 0; i < LocalConsortium::kParties; ++i) {
      client->stubs_.push_back(pplda::v1::PartyControl::NewStub(net::CreatePeerChannel(
          *identity, c.address(i), LocalConsortium::kPartyNames[i], INT_MAX)));
    }
    return client;
  }

  pplda::v1::PartyControl::Stub& party(int i) { return *stubs_[i]; }

  // A header as this client's participant would send it.
  pplda::v1::WireHeader Header(const std::string& run_id, int iteration) const {
    pplda::v1::WireHeader h;
    h.set_protocol_version(net::kProtocolVersion);
    h.set_run_id(run_id);
    h.set_iteration(iteration);
    h.set_sender(sender_);
    return h;
  }

  // A Join the parties accept: K = 3, the consortium's vocabulary.
  pplda::v1::JoinRequest Join(const std::string& run_id, int iterations) const {
    pplda::v1::JoinRequest request;
    *request.mutable_header() = Header(run_id, 0);
    pplda::v1::RunParameters& p = *request.mutable_parameters();
    p.set_num_topics(3);
    p.set_alpha(0.1);
    p.set_beta(0.01);
    p.set_iterations(static_cast<uint32_t>(iterations));
    p.set_draw_method("binary");
    p.set_vocabulary_sha256(vocabulary_sha256_);
    return request;
  }

  static std::unique_ptr<grpc::ClientContext> Context(
      std::chrono::seconds timeout = std::chrono::seconds(120)) {
    auto context = std::make_unique<grpc::ClientContext>();
    context->set_deadline(std::chrono::system_clock::now() + timeout);
    return context;
  }

 private:
  PartyControlClient() = default;

  std::string sender_;
  std::string vocabulary_sha256_;
  std::vector<std::unique_ptr<pplda::v1::PartyControl::Stub>> stubs_;
};

}  // namespace pplda::e2e::testing

#endif  // PPLDA_TESTS_E2E_PARTY_CONTROL_TEST_UTIL_H_

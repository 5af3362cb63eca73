// TlsIdentity: one participant's mutual-TLS material (consortium CA
// certificate, own certificate, own private key; PEM files made by
// deploy/make-certs.sh) turned into gRPC credentials, and the certificate
// pinning that identifies peers (DESIGN.md section 3, "Transport").
//
//  - Servers REQUIRE a client certificate and VERIFY it against the
//    consortium CA (a certificate from another CA fails the TLS handshake;
//    the client sees UNAVAILABLE). A CA-signed certificate is then pinned:
//    AuthenticatePeer maps its SHA-256 fingerprint to a participant of the
//    consortium file, PermissionDenied when none has it.
//  - Clients present their own certificate, trust only the consortium CA,
//    and dial a participant with the TLS target name overridden to the
//    participant's name (certificates carry SAN DNS:<name>), so a dialled
//    address cannot impersonate another participant.
//  - Fingerprints are SHA-256 of the certificate's DER encoding (libsodium),
//    64 lowercase hex digits, the form consortium files pin.
//
// The private key: the key file must not be accessible by group or others
// (FailedPrecondition naming the file and `chmod 600`); its bytes are
// handed to gRPC (which keeps its own copy inside the credentials) and every
// copy this module made is zeroed (sodium_memzero); it is never logged.
// Errors: NotFound for a missing file, InvalidArgument for PEM that is not a
// certificate or key, FailedPrecondition for key permissions or a
// certificate that is not the one pinned for this participant.
// Thread-safety: immutable after Load; the credentials may be shared.
#ifndef PPLDA_NET_TLS_IDENTITY_H_
#define PPLDA_NET_TLS_IDENTITY_H_

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/security/auth_context.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/support/channel_arguments.h"
#include "net/consortium_file.h"

namespace pplda::net {

class TlsIdentity {
 public:
  // Reads the three PEM files (the key file must be mode 0600 or stricter).
  static absl::StatusOr<TlsIdentity> Load(const std::filesystem::path& ca_cert_file,
                                          const std::filesystem::path& cert_file,
                                          const std::filesystem::path& key_file);
  // Same from PEM text; `key_pem` is zeroed before returning.
  static absl::StatusOr<TlsIdentity> FromPem(std::string ca_cert_pem, std::string cert_pem,
                                             std::string key_pem);

  const std::string& ca_cert_pem() const { return ca_cert_pem_; }
  const std::string& cert_pem() const { return cert_pem_; }
  // SHA-256 fingerprints (lowercase hex) of the CA's and of this certificate.
  const std::string& ca_fingerprint() const { return ca_fingerprint_; }
  const std::string& fingerprint() const { return fingerprint_; }

  // TLS server credentials requiring and verifying client certificates.
  std::shared_ptr<grpc::ServerCredentials> server_credentials() const { return server_; }
  // TLS channel credentials: trust the CA, present this certificate.
  std::shared_ptr<grpc::ChannelCredentials> channel_credentials() const { return channel_; }

  // FailedPrecondition unless the consortium's CA is this identity's CA and
  // the certificate pinned for `participant_name` is this certificate
  // (a daemon calls it at start, before it listens).
  absl::Status CheckPinned(const Consortium& consortium, std::string_view participant_name) const;

 private:
  TlsIdentity() = default;

  std::string ca_cert_pem_;
  std::string cert_pem_;
  std::string ca_fingerprint_;
  std::string fingerprint_;
  std::shared_ptr<grpc::ServerCredentials> server_;
  std::shared_ptr<grpc::ChannelCredentials> channel_;
};

// Channel arguments for dialling participant `peer_name`: TLS target name
// override = peer_name, send and receive message limits = max_message_bytes.
grpc::ChannelArguments PeerChannelArguments(std::string_view peer_name, int max_message_bytes);

// A channel to `address` that expects the certificate of `peer_name`.
std::shared_ptr<grpc::Channel> CreatePeerChannel(const TlsIdentity& identity,
                                                 std::string_view address,
                                                 std::string_view peer_name,
                                                 int max_message_bytes);

// SHA-256 (lowercase hex) of the DER of the first certificate in `pem`.
// InvalidArgument when `pem` holds no decodable certificate.
absl::StatusOr<std::string> CertificateFingerprint(std::string_view pem);

// Fingerprint of the peer's leaf certificate ("x509_pem_cert" property).
// Unauthenticated when the connection carried no client certificate.
absl::StatusOr<std::string> PeerFingerprint(const grpc::AuthContext& context);

// After a call on `context` to participant `peer` that ended with
// `status`: PermissionDenied naming both fingerprints when a server
// answered with a certificate other than the one pinned for `peer` (TLS
// checked the CA and the name only), whatever it answered; otherwise
// `status` (OK with no TLS session at all is refused too).
absl::Status CheckServerPinned(const grpc::ClientContext& context, const Participant& peer,
                               absl::Status status);

// The consortium participant whose pinned fingerprint is the peer's.
// PermissionDenied when the peer presented no certificate or one that no
// participant has pinned.
absl::StatusOr<std::string> AuthenticatePeer(const grpc::AuthContext& context,
                                             const Consortium& consortium);

}  // namespace pplda::net

#endif  // PPLDA_NET_TLS_IDENTITY_H_

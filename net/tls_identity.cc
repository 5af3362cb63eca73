#include "net/tls_identity.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/secret_file.h"
#include "base/status_macros.h"
#include "grpc/grpc_security_constants.h"
#include "grpcpp/client_context.h"
#include "grpcpp/create_channel.h"
#include "net/message_limits.h"

namespace pplda::net {
namespace {

constexpr std::string_view kBeginCert = "-----BEGIN CERTIFICATE-----";
constexpr std::string_view kEndCert = "-----END CERTIFICATE-----";

// Zeroes a string's bytes (capacity included) when it goes out of scope.
class ScopedWipe {
 public:
  explicit ScopedWipe(std::string& s) : s_(s) {}
  ~ScopedWipe() { Wipe(s_); }
  static void Wipe(std::string& s) {
    s.resize(s.capacity());
    sodium_memzero(s.data(), s.size());
    s.clear();
  }

 private:
  std::string& s_;
};

absl::StatusOr<std::string> ReadFile(const std::filesystem::path& path, absl::string_view what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) {
      return absl::NotFoundError(absl::StrCat(what, " ", path.string(), ": no such file"));
    }
    return absl::PermissionDeniedError(
        absl::StrCat(what, " ", path.string(), ": cannot open: ", std::strerror(err)));
  }
  struct stat st {};
  std::string out;
  if (::fstat(fd, &st) == 0 && st.st_size > 0 && st.st_size < (1 << 20)) {
    out.reserve(static_cast<size_t>(st.st_size) + 1);  // one buffer, no reallocation
  }
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      sodium_memzero(buf, sizeof buf);
      ScopedWipe::Wipe(out);
      return absl::DataLossError(
          absl::StrCat(what, " ", path.string(), ": read failed: ", std::strerror(err)));
    }
    if (n == 0) break;
    if (out.size() + static_cast<size_t>(n) > (1 << 20)) {
      ::close(fd);
      sodium_memzero(buf, sizeof buf);
      ScopedWipe::Wipe(out);
      return absl::InvalidArgumentError(
          absl::StrCat(what, " ", path.string(), ": larger than 1 MiB, not a PEM file"));
    }
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  sodium_memzero(buf, sizeof buf);
  return out;
}

absl::StatusOr<std::vector<uint8_t>> FirstCertificateDer(std::string_view pem) {
  const size_t begin = pem.find(kBeginCert);
  if (begin == std::string_view::npos) {
    return absl::InvalidArgumentError("no \"-----BEGIN CERTIFICATE-----\" block");
  }
  const size_t body = begin + kBeginCert.size();
  const size_t end = pem.find(kEndCert, body);
  if (end == std::string_view::npos) {
    return absl::InvalidArgumentError("certificate block without \"-----END CERTIFICATE-----\"");
  }
  const std::string_view b64 = pem.substr(body, end - body);
  std::vector<uint8_t> der(b64.size());
  size_t der_len = 0;
  const char* b64_end = nullptr;
  if (sodium_base642bin(der.data(), der.size(), b64.data(), b64.size(), " \t\r\n", &der_len,
                        &b64_end, sodium_base64_VARIANT_ORIGINAL) != 0 ||
      b64_end != b64.data() + b64.size() || der_len == 0) {
    return absl::InvalidArgumentError("certificate block is not valid base64");
  }
  der.resize(der_len);
  // A DER certificate is a SEQUENCE.
  if (der[0] != 0x30) return absl::InvalidArgumentError("certificate block is not DER");
  return der;
}

std::string Hex(const uint8_t* data, size_t size) {
  std::string out(2 * size + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), data, size);
  out.pop_back();
  return out;
}

}  // namespace

absl::StatusOr<std::string> CertificateFingerprint(std::string_view pem) {
  if (sodium_init() < 0) return absl::InternalError("libsodium failed to initialise");
  ASSIGN_OR_RETURN(const std::vector<uint8_t> der, FirstCertificateDer(pem));  // NOLINT
  uint8_t digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, der.data(), der.size());
  return Hex(digest, sizeof digest);
}

absl::StatusOr<TlsIdentity> TlsIdentity::Load(const std::filesystem::path& ca_cert_file,
                                              const std::filesystem::path& cert_file,
                                              const std::filesystem::path& key_file) {
  ASSIGN_OR_RETURN(std::string ca, ReadFile(ca_cert_file, "CA certificate"));
  ASSIGN_OR_RETURN(std::string cert, ReadFile(cert_file, "certificate"));
  ASSIGN_OR_RETURN(std::string key, ReadSecretFile(key_file, "private key"));
  ScopedWipe wipe_key(key);
  absl::StatusOr<TlsIdentity> identity = FromPem(std::move(ca), std::move(cert), std::move(key));
  if (!identity.ok()) {
    // Name the files: FromPem only knows which of the three it was.
    const absl::string_view message = identity.status().message();
    std::string file = key_file.string();
    if (message.rfind("CA certificate", 0) == 0) {
      file = ca_cert_file.string();
    } else if (message.rfind("certificate", 0) == 0) {
      file = cert_file.string();
    }
    return absl::Status(identity.status().code(), absl::StrCat(file, ": ", message));
  }
  return identity;
}

absl::StatusOr<TlsIdentity> TlsIdentity::FromPem(std::string ca_cert_pem, std::string cert_pem,
                                                 std::string key_pem) {
  ScopedWipe wipe_key(key_pem);
  TlsIdentity out;
  absl::StatusOr<std::string> ca_fingerprint = CertificateFingerprint(ca_cert_pem);
  if (!ca_fingerprint.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("CA certificate: ", ca_fingerprint.status().message()));
  }
  absl::StatusOr<std::string> fingerprint = CertificateFingerprint(cert_pem);
  if (!fingerprint.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("certificate: ", fingerprint.status().message()));
  }
  if (key_pem.find("-----BEGIN") == std::string::npos ||
      key_pem.find("PRIVATE KEY-----") == std::string::npos) {
    return absl::InvalidArgumentError("private key: not a PEM private key");
  }
  out.ca_fingerprint_ = *std::move(ca_fingerprint);
  out.fingerprint_ = *std::move(fingerprint);

  grpc::SslServerCredentialsOptions server_options(
      GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  server_options.pem_root_certs = ca_cert_pem;
  server_options.pem_key_cert_pairs.push_back({key_pem, cert_pem});
  out.server_ = grpc::SslServerCredentials(server_options);
  ScopedWipe::Wipe(server_options.pem_key_cert_pairs[0].private_key);

  grpc::SslCredentialsOptions channel_options;
  channel_options.pem_root_certs = ca_cert_pem;
  channel_options.pem_private_key = key_pem;
  channel_options.pem_cert_chain = cert_pem;
  out.channel_ = grpc::SslCredentials(channel_options);
  ScopedWipe::Wipe(channel_options.pem_private_key);

  if (out.server_ == nullptr || out.channel_ == nullptr) {
    return absl::InvalidArgumentError("private key: gRPC refused the TLS material");
  }
  out.ca_cert_pem_ = std::move(ca_cert_pem);
  out.cert_pem_ = std::move(cert_pem);
  return out;
}

absl::Status TlsIdentity::CheckPinned(const Consortium& consortium,
                                      std::string_view participant_name) const {
  if (consortium.ca_fingerprint() != ca_fingerprint_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the CA certificate (fingerprint ", ca_fingerprint_, ") is not consortium \"",
        consortium.name(), "\"'s CA (", consortium.ca_fingerprint(), ")"));
  }
  ASSIGN_OR_RETURN(const Participant me, consortium.FindByName(participant_name));
  if (me.cert_fingerprint != fingerprint_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the certificate (fingerprint ", fingerprint_, ") is not the one consortium \"",
        consortium.name(), "\" pins for \"", std::string(participant_name), "\" (",
        me.cert_fingerprint,
        ")"));
  }
  return absl::OkStatus();
}

grpc::ChannelArguments PeerChannelArguments(std::string_view peer_name, int max_message_bytes) {
  grpc::ChannelArguments args;
  args.SetSslTargetNameOverride(std::string(peer_name));
  args.SetMaxSendMessageSize(max_message_bytes);
  args.SetMaxReceiveMessageSize(max_message_bytes);
  // Keep links alive through NATs and firewalls during the minutes of
  // Paillier work between MPC rounds: a ping every 30 s, also while no data
  // flows (servers accept it: ConfigureServerBuilder).
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, kKeepaliveTimeMs);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 10000);
  args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  return args;
}

std::shared_ptr<grpc::Channel> CreatePeerChannel(const TlsIdentity& identity,
                                                 std::string_view address,
                                                 std::string_view peer_name,
                                                 int max_message_bytes) {
  return grpc::CreateCustomChannel(std::string(address), identity.channel_credentials(),
                                   PeerChannelArguments(peer_name, max_message_bytes));
}

absl::StatusOr<std::string> PeerFingerprint(const grpc::AuthContext& context) {
  const std::vector<grpc::string_ref> certs =
      context.FindPropertyValues(GRPC_X509_PEM_CERT_PROPERTY_NAME);
  if (certs.empty()) {
    return absl::UnauthenticatedError("the peer presented no TLS client certificate");
  }
  return CertificateFingerprint(std::string_view(certs[0].data(), certs[0].size()));
}

absl::Status CheckServerPinned(const grpc::ClientContext& context, const Participant& peer,
                               absl::Status status) {
  const std::shared_ptr<const grpc::AuthContext> auth = context.auth_context();
  absl::StatusOr<std::string> fingerprint =
      auth ? PeerFingerprint(*auth) : absl::UnauthenticatedError("no TLS session");
  if (fingerprint.ok() && *fingerprint == peer.cert_fingerprint) return status;
  // No server answered (the connection failed): its status says so.
  if (!fingerprint.ok() && !status.ok()) return status;
  return absl::PermissionDeniedError(absl::StrCat(
      "\"", peer.name, "\" at ", peer.address, " presented certificate ",
      fingerprint.ok() ? *fingerprint : std::string(fingerprint.status().message()),
      ", not the one pinned for it, ", peer.cert_fingerprint, ": its answer is refused"));
}

absl::StatusOr<std::string> AuthenticatePeer(const grpc::AuthContext& context,
                                             const Consortium& consortium) {
  absl::StatusOr<std::string> fingerprint = PeerFingerprint(context);
  if (!fingerprint.ok()) {
    return absl::PermissionDeniedError(absl::StrCat(
        "peer not authenticated: ", fingerprint.status().message()));
  }
  absl::StatusOr<Participant> peer = consortium.FindByFingerprint(*fingerprint);
  if (!peer.ok()) {
    return absl::PermissionDeniedError(absl::StrCat(
        "certificate ", *fingerprint, " is not pinned by consortium \"", consortium.name(),
        "\""));
  }
  return peer->name;
}

}  // namespace pplda::net

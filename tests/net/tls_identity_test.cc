#include "net/tls_identity.h"

#include <sys/stat.h>

#include <filesystem>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "net/consortium_file.h"
#include "tests/net/net_test_util.h"

namespace pplda::net {
namespace {

using ::pplda::net::testing::MakeCerts;
using ::pplda::net::testing::ReadText;
using ::pplda::net::testing::TempDir;
using ::testing::HasSubstr;

// Made once by deploy/make-certs.sh; fingerprint from
// `openssl x509 -in p1.crt -outform DER | sha256sum`.
constexpr char kKnownCert[] = R"(-----BEGIN CERTIFICATE-----
MIIByjCCAXGgAwIBAgIRAP29G7AZL+h4iTa3AZdRfugwCgYIKoZIzj0EAwIwHjEc
MBoGA1UEAwwTcHBsZGEgY29uc29ydGl1bSBDQTAeFw0yNjExMjQwMTIxMTdaFw0y
OTAyMjYwMTIxMTdaMA0xCzAJBgNVBAMMAnAxMFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAEnsw4DLey6WjFN+gWuIFLJBIuFN40KNkF3+8lu61x/J4xHJWh8AxGe6D5
pDR5eoq1dsBAYR8i3CXlTAeID8nAd6OBoDCBnTAMBgNVHRMBAf8EAjAAMA4GA1Ud
DwEB/wQEAwIDiDAdBgNVHSUEFjAUBggrBgEFBQcDAQYIKwYBBQUHAwIwHgYDVR0R
BBcwFYICcDGCCWxvY2FsaG9zdIcEfwAAATAdBgNVHQ4EFgQUBn7kMNwme11AMdp/
NXKIFwGfvo8wHwYDVR0jBBgwFoAUd18h/ji44fpXz/4m+H82aQkpUYwwCgYIKoZI
zj0EAwIDRwAwRAIgDOtuMN5UJ5H6Reg9/bdZqDwOr0T3mjt6R2uHJlKn4hwCIFVX
ap3vBbj8XYKqUvAxJ8e/OE8g2EyIAmfRcTDnzRUI
-----END CERTIFICATE-----
)";
constexpr char kKnownFingerprint[] =
    "1c29015677866108d532b85a6410f605fe360f4c8c0654e874c2f91f958e8b2d";

constexpr char kParticipants[] =
    "--coordinator coord=127.0.0.1:7000 --party p0=127.0.0.1:7001 --party p1=127.0.0.1:7002 "
    "--helper h2=localhost:7003";

TEST(CertificateFingerprintTest, KnownCertificate) {
  EXPECT_EQ(*CertificateFingerprint(kKnownCert), kKnownFingerprint);
  // Windows line endings and text around the block do not matter.
  std::string crlf = "subject=CN = p1\r\n";
  for (char c : std::string(kKnownCert)) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  EXPECT_EQ(*CertificateFingerprint(crlf), kKnownFingerprint);
}

TEST(CertificateFingerprintTest, RefusesWhatIsNotACertificate) {
  EXPECT_EQ(CertificateFingerprint("hello").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CertificateFingerprint("-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----")
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CertificateFingerprint("-----BEGIN CERTIFICATE-----\nMIIB").status().code(),
            absl::StatusCode::kInvalidArgument);
}

class TlsIdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path() / "certs";
    ASSERT_TRUE(MakeCerts(dir_, kParticipants).ok());
  }
  absl::StatusOr<TlsIdentity> LoadIdentity(const std::string& name) {
    return TlsIdentity::Load(dir_ / "ca.crt", dir_ / (name + ".crt"), dir_ / (name + ".key"));
  }
  TempDir tmp_;
  std::filesystem::path dir_;
};

TEST_F(TlsIdentityTest, MakeCertsOutputLoadsAndIsPinned) {
  absl::StatusOr<Consortium> consortium = Consortium::Load(dir_ / "consortium.toml");
  ASSERT_TRUE(consortium.ok()) << consortium.status();
  EXPECT_EQ(consortium->num_compute_parties(), 3);
  EXPECT_EQ(consortium->FindByName("h2")->role, ParticipantRole::kCompute);
  EXPECT_EQ(consortium->FindByName("h2")->address, "localhost:7003");
  for (const std::string name : {"coord", "p0", "p1", "h2"}) {
    absl::StatusOr<TlsIdentity> identity = LoadIdentity(name);
    ASSERT_TRUE(identity.ok()) << identity.status();
    EXPECT_EQ(identity->fingerprint(), consortium->FindByName(name)->cert_fingerprint);
    EXPECT_EQ(identity->ca_fingerprint(), consortium->ca_fingerprint());
    EXPECT_TRUE(identity->CheckPinned(*consortium, name).ok());
    EXPECT_NE(identity->server_credentials(), nullptr);
    EXPECT_NE(identity->channel_credentials(), nullptr);
    struct stat st {};
    ASSERT_EQ(::stat((dir_ / (name + ".key")).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << name;
  }
  const absl::Status wrong = LoadIdentity("p0")->CheckPinned(*consortium, "p1");
  EXPECT_EQ(wrong.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(wrong.message(), HasSubstr("\"p1\""));
}

TEST_F(TlsIdentityTest, RefusesAKeyReadableByOthers) {
  const std::filesystem::path key = dir_ / "p0.key";
  ASSERT_EQ(::chmod(key.c_str(), 0644), 0);
  const absl::Status s = LoadIdentity("p0").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr(key.string()));
  EXPECT_THAT(s.message(), HasSubstr("chmod 600"));
  ASSERT_EQ(::chmod(key.c_str(), 0640), 0);
  EXPECT_EQ(LoadIdentity("p0").status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_EQ(::chmod(key.c_str(), 0400), 0);
  EXPECT_TRUE(LoadIdentity("p0").ok());
}

// A private key behind a symbolic link is refused: the file checked must be
// the file read.
TEST_F(TlsIdentityTest, RefusesAKeyBehindASymbolicLink) {
  const std::filesystem::path link = dir_ / "p0-link.key";
  std::filesystem::create_symlink(dir_ / "p0.key", link);
  const absl::Status s = TlsIdentity::Load(dir_ / "ca.crt", dir_ / "p0.crt", link).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(s.message(), HasSubstr("is a symbolic link"));
  EXPECT_THAT(s.message(), HasSubstr(link.string()));
}

TEST_F(TlsIdentityTest, NamesMissingAndBrokenFiles) {
  const absl::Status missing =
      TlsIdentity::Load(dir_ / "ca.crt", dir_ / "nobody.crt", dir_ / "p0.key").status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.message(), HasSubstr("nobody.crt"));
  // A key where the certificate should be.
  const absl::Status swapped =
      TlsIdentity::Load(dir_ / "ca.crt", dir_ / "p0.key", dir_ / "p0.key").status();
  EXPECT_EQ(swapped.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(swapped.message(), HasSubstr("p0.key: certificate"));
  const absl::Status not_a_key =
      TlsIdentity::FromPem(ReadText(dir_ / "ca.crt"), ReadText(dir_ / "p0.crt"), "junk").status();
  EXPECT_EQ(not_a_key.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(not_a_key.message(), HasSubstr("private key"));
}

TEST_F(TlsIdentityTest, MakeCertsRefusesToOverwriteWithoutForce) {
  const std::string before = ReadText(dir_ / "consortium.toml");
  const absl::Status again = MakeCerts(dir_, kParticipants);
  EXPECT_FALSE(again.ok());
  EXPECT_THAT(again.message(), HasSubstr("--force"));
  EXPECT_EQ(ReadText(dir_ / "consortium.toml"), before);
  ASSERT_TRUE(MakeCerts(dir_, std::string(kParticipants) + " --force").ok());
  EXPECT_NE(ReadText(dir_ / "consortium.toml"), before);  // new keys, new pins
  EXPECT_TRUE(Consortium::Load(dir_ / "consortium.toml").ok());
}

TEST_F(TlsIdentityTest, MakeCertsChecksTheParticipants) {
  const absl::Status two = MakeCerts(tmp_.path() / "two",
                                     "--coordinator c=h:1 --party a=h:2 --party b=h:3");
  EXPECT_THAT(two.message(),
              HasSubstr("a committee of 2 compute parties (--both, --compute: a b)"));
  const absl::Status four = MakeCerts(tmp_.path() / "four",
                                      "--coordinator c=h:1 --party a=h:2 --both b=h:3 --both d=h:4 "
                                      "--compute e=h:5 --data f=h:6");
  EXPECT_THAT(four.message(), HasSubstr("a committee of 4 compute parties (--both, --compute: a b "
                                        "d e); the MPC needs an odd number"));
  const absl::Status no_documents = MakeCerts(
      tmp_.path() / "nd", "--coordinator c=h:1 --compute a=h:2 --helper b=h:3 --compute d=h:4");
  EXPECT_THAT(no_documents.message(), HasSubstr("no participant holds documents"));
  // A committee of three serving two data holders: roles as written.
  ASSERT_TRUE(MakeCerts(tmp_.path() / "roles",
                        "--coordinator c=h:1 --compute a=h:2 --both "
                        "b=h:3 --helper d=h:4 --data e=h:5 --data f=relay")
                  .ok());
  absl::StatusOr<Consortium> roles = Consortium::Load(tmp_.path() / "roles" / "consortium.toml");
  ASSERT_TRUE(roles.ok()) << roles.status();
  EXPECT_EQ(roles->num_compute_parties(), 3);
  EXPECT_EQ(roles->num_data_holders(), 2);
  EXPECT_EQ(roles->FindByName("d")->role, ParticipantRole::kCompute);
  EXPECT_EQ(roles->FindByName("b")->role, ParticipantRole::kBoth);
  EXPECT_TRUE(roles->FindByName("f")->relay);
  const absl::Status no_coordinator =
      MakeCerts(tmp_.path() / "nc", "--party a=h:2 --party b=h:3 --party c=h:4");
  EXPECT_THAT(no_coordinator.message(), HasSubstr("exactly one --coordinator"));
  const absl::Status bad_name = MakeCerts(
      tmp_.path() / "bn", "--coordinator C=h:1 --party a=h:2 --party b=h:3 --party c=h:4");
  EXPECT_THAT(bad_name.message(), HasSubstr("[a-z0-9-]+"));
  EXPECT_FALSE(std::filesystem::exists(tmp_.path() / "two"));
  EXPECT_FALSE(std::filesystem::exists(tmp_.path() / "four"));
}

}  // namespace
}  // namespace pplda::net

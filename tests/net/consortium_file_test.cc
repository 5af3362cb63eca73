#include "net/consortium_file.h"

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::net {
namespace {

using ::testing::HasSubstr;

constexpr char kFp0[] = "1c29015677866108d532b85a6410f605fe360f4c8c0654e874c2f91f958e8b2d";
constexpr char kFp1[] = "480a008751216fbdfd2229e269231640d075f7350b86f10e98705093d6ad2fec";
constexpr char kFp2[] = "19bc995a83fe959454606ee6991351a7f34db014a42ede3e648f11024709d6d2";
constexpr char kFp3[] = "ca591c5858fb9f0d526eabe2ea2598f409b2d686453dc696b7efec49f4fedbf1";
constexpr char kCa[] = "8f857d4ea4ac8aac306e2ef70540529e9a31f55f781128304800825654d31046";

std::string Entry(absl::string_view name, absl::string_view role, absl::string_view address,
                  absl::string_view fp) {
  return absl::StrCat("[[participant]]\nname = \"", name, "\"\nrole = \"", role,
                      "\"\naddress = \"", address, "\"\ncert_fingerprint = \"", fp, "\"\n\n");
}

std::string GoodFile() {
  return absl::StrCat("[consortium]\nname = \"sotu\"\nca_fingerprint = \"", kCa, "\"\n\n",
                      Entry("coord", "coordinator", "127.0.0.1:7000", kFp3),
                      Entry("alice", "party", "alice.example.org:7001", kFp0),
                      Entry("bob", "party", "10.0.0.2:7002", kFp1),
                      Entry("helper-1", "helper", "[::1]:7003", kFp2));
}

absl::Status ParseError(const std::string& text) {
  return Consortium::Parse(text, "consortium.toml").status();
}

void ExpectInvalid(const std::string& text, std::string_view message) {
  const absl::Status s = ParseError(text);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr(message)) << s;
  EXPECT_THAT(s.message(), HasSubstr("consortium.toml")) << s;
}

TEST(ConsortiumFileTest, ParsesAGoodFile) {
  absl::StatusOr<Consortium> c = Consortium::Parse(GoodFile(), "consortium.toml");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->name(), "sotu");
  EXPECT_EQ(c->ca_fingerprint(), kCa);
  ASSERT_EQ(c->participants().size(), 4u);
  EXPECT_EQ(c->coordinator().name, "coord");
  EXPECT_EQ(c->coordinator().party_index, -1);
  EXPECT_EQ(c->num_compute_parties(), 3);
  const std::vector<Participant> parties = c->compute_parties();
  ASSERT_EQ(parties.size(), 3u);
  EXPECT_EQ(parties[0].name, "alice");
  EXPECT_EQ(parties[1].name, "bob");
  EXPECT_EQ(parties[2].name, "helper-1");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(parties[i].party_index, i);
  // "party" and "helper" are read as "both" and "compute".
  EXPECT_EQ(parties[0].role, ParticipantRole::kBoth);
  EXPECT_EQ(parties[2].role, ParticipantRole::kCompute);
  EXPECT_EQ(parties[2].address, "[::1]:7003");
  EXPECT_EQ(RoleName(parties[2].role), "compute");
  EXPECT_TRUE(parties[0].holds_documents());
  EXPECT_FALSE(parties[2].holds_documents());
  EXPECT_EQ(c->num_data_holders(), 0);

  EXPECT_EQ(c->FindByName("bob")->cert_fingerprint, kFp1);
  EXPECT_EQ(c->FindByName("carol").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(c->FindByFingerprint(kFp0)->name, "alice");
  EXPECT_EQ(c->FindByPartyIndex(1)->name, "bob");
  EXPECT_EQ(c->FindByPartyIndex(3).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(c->FindByFingerprint(std::string(64, '0')).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(ConsortiumFileTest, FingerprintsInOpensslFormAreNormalised) {
  std::string colon;
  for (int i = 0; i < 64; i += 2) {
    if (i > 0) colon += ':';
    colon += absl::AsciiStrToUpper(absl::string_view(kFp0).substr(i, 2));
  }
  EXPECT_EQ(*NormalizeFingerprint(colon), kFp0);
  EXPECT_EQ(*NormalizeFingerprint(absl::AsciiStrToUpper(kFp0)), kFp0);
  const std::string text = absl::StrReplaceAll(GoodFile(), {{kFp0, colon}});
  absl::StatusOr<Consortium> c = Consortium::Parse(text, "c.toml");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->FindByName("alice")->cert_fingerprint, kFp0);
  EXPECT_EQ(c->FindByFingerprint(colon)->name, "alice");
  EXPECT_FALSE(NormalizeFingerprint(std::string(63, 'a')).ok());
  EXPECT_FALSE(NormalizeFingerprint(std::string(64, 'g')).ok());
  EXPECT_FALSE(NormalizeFingerprint(colon + ":").ok());
}

TEST(ConsortiumFileTest, LoadsFromDiskAndNamesAMissingFile) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    absl::StrCat("pplda-consortium-test-", ::getpid());
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / "consortium.toml";
  std::ofstream(path) << GoodFile();
  absl::StatusOr<Consortium> c = Consortium::Load(path);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->num_compute_parties(), 3);
  const absl::Status missing = Consortium::Load(dir / "nope.toml").status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.message(), HasSubstr("nope.toml"));
  std::ofstream(path) << "[consortium\n";
  const absl::Status syntax = Consortium::Load(path).status();
  EXPECT_EQ(syntax.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(syntax.message(), HasSubstr(path.string() + ":1:"));
  std::filesystem::remove_all(dir);
}

TEST(ConsortiumFileTest, TomlSyntaxErrorNamesLineAndColumn) {
  const absl::Status s = ParseError("[consortium]\nname = \"x\nca_fingerprint = 3\n");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("consortium.toml:2:"));
}

TEST(ConsortiumFileTest, MissingConsortiumTable) {
  ExpectInvalid(absl::StrCat(Entry("a", "party", "h:1", kFp0)),
                "consortium.toml: consortium: missing");
}

TEST(ConsortiumFileTest, MissingOrEmptyName) {
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"name = \"sotu\"\n", ""}}),
                "consortium.toml: consortium.name: missing");
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"name = \"sotu\"", "name = \"\""}}),
                "consortium.name: empty");
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"name = \"sotu\"", "name = 7"}}),
                "consortium.name: must be a string");
}

TEST(ConsortiumFileTest, BadCaFingerprint) {
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{kCa, "abc"}}),
                "consortium.ca_fingerprint: not a SHA-256 fingerprint");
}

TEST(ConsortiumFileTest, NoParticipants) {
  ExpectInvalid(absl::StrCat("[consortium]\nname = \"x\"\nca_fingerprint = \"", kCa, "\"\n"),
                "consortium.toml: participant: missing");
}

TEST(ConsortiumFileTest, MissingParticipantKeyNamesItsIndex) {
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"address = \"10.0.0.2:7002\"\n", ""}}),
                "consortium.toml: participant[2].address: missing");
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"role = \"helper\"\n", ""}}),
                "participant[3].role: missing");
}

TEST(ConsortiumFileTest, BadParticipantName) {
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"\"alice\"", "\"Alice\""}}),
                "participant[1].name: \"Alice\" must match [a-z0-9-]+");
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"\"alice\"", "\"a b\""}}),
                "participant[1].name");
}

TEST(ConsortiumFileTest, DuplicateName) {
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"\"bob\"", "\"alice\""}}),
                "participant[2].name: \"alice\" is used by an earlier participant");
}

TEST(ConsortiumFileTest, BadRole) {
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"\"helper\"", "\"observer\""}}),
                "participant[3].role: \"observer\" is not a role (coordinator, compute, data or "
                "both)");
}

TEST(ConsortiumFileTest, BadAddress) {
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"10.0.0.2:7002", "10.0.0.2"}}),
                "participant[2].address: \"10.0.0.2\": expected host:port");
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"10.0.0.2:7002", "10.0.0.2:70000"}}),
                "participant[2].address");
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"10.0.0.2:7002", ":7002"}}),
                "participant[2].address");
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"10.0.0.2:7002", "a/b:7002"}}),
                "participant[2].address");
}

TEST(ConsortiumFileTest, BadOrDuplicateCertFingerprint) {
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{kFp1, "xyz"}}),
                "participant[2].cert_fingerprint: not a SHA-256 fingerprint");
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{kFp1, kFp0}}),
                "participant[2].cert_fingerprint: is pinned for an earlier participant");
}

TEST(ConsortiumFileTest, ExactlyOneCoordinator) {
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"\"coordinator\"", "\"party\""}}),
                "participant: no participant has role \"coordinator\"");
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"role = \"helper\"", "role = \"coordinator\""}}),
                "participant[3].role: a second coordinator");
}

TEST(ConsortiumFileTest, AtLeastThreeComputeParties) {
  ExpectInvalid(
      absl::StrReplaceAll(GoodFile(), {{Entry("helper-1", "helper", "[::1]:7003", kFp2), ""}}),
      "participant: a committee of 2 compute parties (role compute or both: "
      "\"alice\", \"bob\")");
}

// A committee of three serving data holders: roles compute, data and both.
std::string CommitteeFile(int data_holders) {
  std::string text = absl::StrCat(
      "[consortium]\nname = \"big\"\nca_fingerprint = \"", kCa, "\"\n\n",
      Entry("coord", "coordinator", "c:7000", kFp3), Entry("c0", "compute", "c0:7001", kFp0),
      Entry("c1", "both", "c1:7002", kFp1), Entry("c2", "compute", "c2:7003", kFp2));
  for (int i = 0; i < data_holders; ++i) {
    // Distinct fingerprints: the index in the last hex digits.
    std::string fp(64, 'a');
    const std::string digits = absl::StrCat(1000 + i);
    fp.replace(64 - digits.size(), digits.size(), digits);
    absl::StrAppend(&text, Entry(absl::StrCat("h", i), "data", absl::StrCat("h", i, ":80"), fp));
  }
  return text;
}

TEST(ConsortiumFileTest, RolesComputeDataAndBoth) {
  absl::StatusOr<Consortium> c = Consortium::Parse(CommitteeFile(30), "consortium.toml");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->num_compute_parties(), 3);
  EXPECT_EQ(c->num_data_holders(), 30);
  const std::vector<Participant> committee = c->compute_parties();
  ASSERT_EQ(committee.size(), 3u);
  EXPECT_EQ(committee[1].name, "c1");
  EXPECT_EQ(committee[1].role, ParticipantRole::kBoth);
  EXPECT_EQ(committee[1].data_index, -1);
  const std::vector<Participant> holders = c->data_holders();
  ASSERT_EQ(holders.size(), 30u);
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(holders[i].name, absl::StrCat("h", i));
    EXPECT_EQ(holders[i].data_index, i);
    EXPECT_EQ(holders[i].party_index, -1);
    EXPECT_TRUE(holders[i].holds_documents());
    EXPECT_FALSE(holders[i].is_compute_party());
  }
  EXPECT_EQ(RoleName(holders[0].role), "data");
  EXPECT_EQ(c->FindByPartyIndex(3).status().code(), absl::StatusCode::kNotFound);
}

TEST(ConsortiumFileTest, TheCommitteeIsOddAndAtLeastThree) {
  ExpectInvalid(absl::StrReplaceAll(CommitteeFile(2), {{"role = \"compute\"\naddress = \"c2",
                                                        "role = \"data\"\naddress = \"c2"}}),
                "a committee of 2 compute parties (role compute or both: \"c0\", \"c1\")");
  // Four compute parties: even.
  ExpectInvalid(absl::StrReplaceAll(CommitteeFile(2), {{"role = \"data\"\naddress = \"h0",
                                                        "role = \"compute\"\naddress = \"h0"}}),
                "a committee of 4 compute parties (role compute or both: \"c0\", \"c1\", "
                "\"c2\", \"h0\"); the MPC needs an odd number from 3 to 63");
  // Five is a committee.
  EXPECT_TRUE(Consortium::Parse(
                  absl::StrReplaceAll(
                      CommitteeFile(3),
                      {{"role = \"data\"\naddress = \"h0", "role = \"compute\"\naddress = \"h0"},
                       {"role = \"data\"\naddress = \"h1", "role = \"both\"\naddress = \"h1"}}),
                  "consortium.toml")
                  .ok());
}

TEST(ConsortiumFileTest, SomeoneMustHoldDocuments) {
  ExpectInvalid(absl::StrReplaceAll(CommitteeFile(0), {{"\"both\"", "\"compute\""}}),
                "no participant holds documents (role data or both); the compute parties "
                "\"c0\", \"c1\", \"c2\" have none to train on");
}

TEST(ConsortiumFileTest, OwnersAreTheCommitteeThenTheDataHolders) {
  absl::StatusOr<Consortium> c = Consortium::Parse(CommitteeFile(2), "consortium.toml");
  ASSERT_TRUE(c.ok()) << c.status();
  const std::vector<Participant> owners = c->owners();
  ASSERT_EQ(owners.size(), 5u);
  ASSERT_EQ(c->num_owners(), 5);
  const std::vector<std::string> names = {"c0", "c1", "c2", "h0", "h1"};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(owners[i].name, names[i]);
    EXPECT_EQ(owners[i].owner_index, i);
    EXPECT_TRUE(owners[i].is_owner());
  }
  EXPECT_EQ(owners[3].data_index, 0);
  EXPECT_EQ(c->coordinator().owner_index, -1);
  EXPECT_FALSE(c->coordinator().is_owner());
}

// Every participant seals with its own box key: a key pinned twice is
// refused, naming the second participant.
TEST(ConsortiumFileTest, ABoxKeyPinnedTwiceIsRefused) {
  const std::string box = std::string(64, 'b');
  auto with_box = [](std::string entry, const std::string& key) {
    return entry.insert(entry.size() - 1, "box_public_key = \"" + key + "\"\n");
  };
  const std::string good =
      absl::StrCat("[consortium]\nname = \"sotu\"\nca_fingerprint = \"", kCa, "\"\n\n",
                   Entry("coord", "coordinator", "127.0.0.1:7000", kFp3),
                   with_box(Entry("alice", "party", "alice.example.org:7001", kFp0), box),
                   with_box(Entry("bob", "party", "10.0.0.2:7002", kFp1), std::string(64, 'c')),
                   with_box(Entry("helper-1", "helper", "[::1]:7003", kFp2), std::string(64, 'd')));
  ASSERT_TRUE(Consortium::Parse(good, "consortium.toml").ok())
      << Consortium::Parse(good, "consortium.toml").status();
  ExpectInvalid(absl::StrReplaceAll(good, {{std::string(64, 'c'), box}}),
                "participant[2].box_public_key: is pinned for an earlier participant");
}

TEST(ConsortiumFileTest, UnknownKeysAndTablesAreRefused) {
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"address = \"10.0.0.2:7002\"",
                                                  "adress = \"10.0.0.2:7002\""}}),
                "participant[2].adress: unknown key");
  ExpectInvalid(GoodFile() + "[extras]\nx = 1\n", "extras: unknown table");
  ExpectInvalid(absl::StrReplaceAll(GoodFile(), {{"name = \"sotu\"", "name = \"sotu\"\nport = 1"}}),
                "consortium.port: unknown key");
}

TEST(ConsortiumFileTest, WrongShapes) {
  ExpectInvalid(absl::StrCat("consortium = 3\n", Entry("a", "party", "h:1", kFp0)),
                "consortium: must be a table");
  ExpectInvalid(absl::StrCat("participant = 3\n[consortium]\nname = \"x\"\nca_fingerprint = \"",
                             kCa, "\"\n"),
                "participant: must be an array of tables");
}

}  // namespace
}  // namespace pplda::net

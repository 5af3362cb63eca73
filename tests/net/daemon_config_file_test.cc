// DaemonConfigFile: values read with their defaults and relative paths
// resolved; every kind of bad input refused with the file and key named.
#include "net/daemon_config_file.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::net {
namespace {

using ::testing::HasSubstr;

const std::map<std::string, std::vector<std::string>> kSchema = {
    {"party", {"name", "listen", "threads", "documents", "seed"}}, {"tls", {"key"}}};

absl::StatusOr<DaemonConfigFile> Parse(std::string_view text) {
  return DaemonConfigFile::Parse(text, "/etc/pplda/party.toml", kSchema);
}

TEST(DaemonConfigFileTest, ReadsValuesDefaultsAndRelativePaths) {
  auto c = Parse("[party]\nname = \"alpha\"\nlisten = \"0.0.0.0:7101\"\nthreads = 2\n"
                 "documents = \"docs\"\n[tls]\nkey = \"/abs/alpha.key\"\n");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(*c->String("party", "name"), "alpha");
  EXPECT_EQ(*c->Address("party", "listen"), "0.0.0.0:7101");
  EXPECT_EQ(*c->IntOr("party", "threads", 0, 0, 64), 2);
  EXPECT_EQ(*c->IntOr("party", "seed", 7, 0, 100), 7);
  EXPECT_FALSE(c->OptionalInt("party", "seed", 0, 100)->has_value());
  EXPECT_EQ(c->Path("party", "documents")->string(), "/etc/pplda/docs");
  EXPECT_EQ(c->Path("tls", "key")->string(), "/abs/alpha.key");
  EXPECT_EQ(*c->StringOr("tls", "missing", "fallback"), "fallback");
}

TEST(DaemonConfigFileTest, RefusesEachKindOfBadInput) {
  auto error_of = [](const absl::StatusOr<DaemonConfigFile>& c) {
    return std::string(c.status().message());
  };
  // Syntax error, unknown table, unknown key: refused at parse.
  auto syntax = Parse("[party\nname = 1\n");
  EXPECT_EQ(syntax.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(error_of(syntax), HasSubstr("party.toml:1:"));
  EXPECT_THAT(error_of(Parse("[partyy]\nname = \"a\"\n")), HasSubstr("partyy: unknown table"));
  EXPECT_THAT(error_of(Parse("[party]\nnmae = \"a\"\n")), HasSubstr("party.nmae: unknown key"));

  auto c = Parse("[party]\nname = 3\nlisten = \"nohost\"\nthreads = 99\ndocuments = \"\"\n");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_THAT(std::string(c->String("party", "name").status().message()),
              HasSubstr("party.toml: party.name: must be a string"));
  EXPECT_THAT(std::string(c->Address("party", "listen").status().message()),
              HasSubstr("party.listen: \"nohost\" is not host:port"));
  EXPECT_THAT(std::string(c->IntOr("party", "threads", 0, 0, 64).status().message()),
              HasSubstr("party.threads: 99 is outside [0, 64]"));
  EXPECT_THAT(std::string(c->Path("party", "documents").status().message()),
              HasSubstr("party.documents: empty"));
  EXPECT_THAT(std::string(c->String("tls", "key").status().message()),
              HasSubstr("tls.key: missing"));
  auto port = Parse("[party]\nlisten = \"h:70000\"\n");
  EXPECT_THAT(std::string(port->Address("party", "listen").status().message()),
              HasSubstr("port 1..65535"));
}

TEST(DaemonConfigFileTest, UnreadableFileIsNotFound) {
  auto c = DaemonConfigFile::Load("/nonexistent/party.toml", kSchema);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(c.status().message()), HasSubstr("/nonexistent/party.toml"));
}

}  // namespace
}  // namespace pplda::net

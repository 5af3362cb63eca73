// Dealer-free key generation over the network: the three compute
// parties of a real consortium (mutual TLS, pinned certificates, loopback)
// each run `pplda keys generate --config <its party.toml>` at the same time,
// before their daemons start. Each writes only its own share (0600) and the
// same public key (one fingerprint printed by all); the daemons then start
// on those keys, a run publishes with every term's count equal to its corpus
// frequency, and its model says the key is distributed, not dealt. Refused:
// a share that already exists (nothing is generated), and a party whose
// peers never come (named, after --wait-seconds).
#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "crypto/paillier/paillier_key_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/e2e/e2e_test_util.h"

namespace pplda::e2e::testing {
namespace {

using ::testing::HasSubstr;

class KeyGenerationTest : public ConsortiumTest {
 protected:
  // `pplda keys generate` for every party at once; party i's public key
  // goes to keys/<name>-public.key (the parties share this test's folder).
  std::vector<CommandResult> GenerateAll() {
    std::vector<CommandResult> results(LocalConsortium::kParties);
    std::vector<std::thread> threads;
    for (int i = 0; i < LocalConsortium::kParties; ++i) {
      threads.emplace_back([&, i] {
        results[i] = RunPplda(
            {"keys", "generate", "--config", consortium_.party_config(i).string(), "--bits", "1024",
             "--wait-seconds", "120", "--public-key", PublicKey(i).string()},
            std::chrono::seconds(300));
      });
    }
    for (std::thread& t : threads) t.join();
    return results;
  }
  std::filesystem::path PublicKey(int i) const {
    return consortium_.keys() / (std::string(LocalConsortium::kPartyNames[i]) + "-public.key");
  }
  std::filesystem::path Share(int i) const {
    return consortium_.keys() / (std::string(LocalConsortium::kPartyNames[i]) + ".key");
  }
};

std::string Fingerprint(const std::string& output) {
  std::smatch m;
  const std::regex re("fingerprint +([0-9a-f]{64})");
  return std::regex_search(output, m, re) ? m[1].str() : std::string();
}

TEST_F(KeyGenerationTest, ThreePartiesGenerateAKeyWithNoDealerAndTrainWithIt) {
  ConsortiumOptions options;
  E2E_ASSERT_OK(SetUpConsortium(options));
  std::filesystem::remove_all(consortium_.keys());  // the dealt key is not used
  const std::vector<CommandResult> results = GenerateAll();
  std::string fingerprint;
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    ASSERT_EQ(results[i].exit_code, 0)
        << LocalConsortium::kPartyNames[i] << ": " << results[i].Describe();
    EXPECT_THAT(results[i].output, HasSubstr("with no dealer"));
    const std::string f = Fingerprint(results[i].output);
    ASSERT_EQ(f.size(), 64u) << results[i].output;
    if (i == 0) fingerprint = f;
    EXPECT_EQ(f, fingerprint) << "every party must hold the same public key";
    EXPECT_EQ(std::filesystem::status(Share(i)).permissions() & std::filesystem::perms::all,
              std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    EXPECT_EQ(ReadText(PublicKey(i)), ReadText(PublicKey(0)));
    absl::StatusOr<crypto::PaillierKeyShare> share = crypto::ReadKeyShareFile(Share(i));
    ASSERT_TRUE(share.ok()) << share.status();
    EXPECT_EQ(share->party(), i + 1);
    EXPECT_EQ(share->public_key()->origin(), crypto::KeyOrigin::kDistributed);
  }
  // The coordinator's copy of the public key, as its operator would make it.
  std::filesystem::copy_file(PublicKey(0), consortium_.keys() / "public.key");
  E2E_ASSERT_OK(consortium_.StartAll());
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    EXPECT_THAT(consortium_.party(i).LogText(), ::testing::Not(HasSubstr("TRUSTED DEALER")));
  }
  const CommandResult start =
      RunPplda({"run", "start", "--config", consortium_.coordinator_config().string(), "--topics",
                "3", "--iterations", "1", "--watch"},
               std::chrono::seconds(300));
  ASSERT_EQ(start.exit_code, 0) << start.Describe();
  const std::filesystem::path model_path = consortium_.dir() / "model.json";
  const CommandResult result =
      RunPplda({"run", "result", "--config", consortium_.coordinator_config().string(), "--out",
                model_path.string()});
  ASSERT_EQ(result.exit_code, 0) << result.Describe();
  const nlohmann::json model =
      nlohmann::json::parse(ReadText(model_path), nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(model.is_object());
  EXPECT_EQ(model["metadata"]["privacy"]["key_origin"], "distributed");
  int64_t total = 0;
  for (const nlohmann::json& row : model["topic_term_counts"]) {
    for (const nlohmann::json& c : row) total += c.get<int64_t>();
  }
  int64_t tokens = 0;
  for (const nlohmann::json& p : model["metadata"]["corpus"]["parties"]) {
    tokens += p["tokens"].get<int64_t>();
  }
  EXPECT_GT(tokens, 100);
  EXPECT_EQ(total, tokens) << "the distributed key decrypted the counts wrongly";
}

TEST_F(KeyGenerationTest, AnExistingShareIsNeverOverwrittenAndMissingPeersAreNamed) {
  ConsortiumOptions options;
  E2E_ASSERT_OK(SetUpConsortium(options));
  const std::string dealt = ReadText(Share(0));
  const CommandResult exists =
      RunPplda({"keys", "generate", "--config", consortium_.party_config(0).string(), "--bits",
                "1024", "--wait-seconds", "10"});
  EXPECT_NE(exists.exit_code, 0);
  EXPECT_THAT(exists.output, HasSubstr(absl::StrCat(Share(0).string(), " exists")));
  EXPECT_EQ(ReadText(Share(0)), dealt);

  std::filesystem::remove(Share(0));
  const CommandResult alone =
      RunPplda({"keys", "generate", "--config", consortium_.party_config(0).string(), "--bits",
                "1024", "--wait-seconds", "10", "--public-key", PublicKey(0).string()},
               std::chrono::seconds(120));
  EXPECT_NE(alone.exit_code, 0) << alone.Describe();
  // Whichever link fails first is named: a peer that never came.
  EXPECT_THAT(alone.output,
              ::testing::ContainsRegex("cannot connect to party [12] \\((middle|modern) "))
      << alone.output;
  EXPECT_FALSE(std::filesystem::exists(Share(0)));
  EXPECT_FALSE(std::filesystem::exists(PublicKey(0)));
}

}  // namespace
}  // namespace pplda::e2e::testing

// End-to-end: secure runs on real daemons (pplda-coordinator and three
// pplda-party processes on loopback, mutual TLS, a dealt 1024-bit key),
// started, followed, fetched and cancelled with the real run CLI, checked
// against `pplda simulate` on the same documents and vocabulary.
//
//  - With every party's initial_topics_seed = S and no iterations the
//    protocol is deterministic: the published model and each party's
//    document mixtures equal simulate's with --seed S (simulate's party i
//    starts from seed S * 1000003 + i, as the daemons do).
//  - With the same initial-topics seed, the same dealt key (simulate
//    --key-dir) and every party's randomness from the same INSECURE
//    deterministic seed (insecure_deterministic_rng_seed, simulate
//    --insecure-deterministic-rng-seed; party/party_randomness.h), a
//    3-iteration run publishes exactly simulate's model and mixtures; another
//    rng seed gives another model (so the equality is not vacuous). Skipped
//    in builds without PPLDA_INSECURE_TEST_RANDOMNESS, which refuse the seed.
//  - With iterations the MPC's randomness comes from the OS generator, so
//    a 2-iteration run is checked for what must hold exactly: each term's
//    count over the topics is its corpus frequency (sampling moves tokens
//    between topics, never between terms), the total is the parties' token
//    count, the metadata states the trusted dealer and the leakage, each
//    party wrote its mixtures (0600, one row per document).
//  - `pplda run cancel` ends an active run as cancelled, and the
//    consortium runs again afterwards.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "party/party_randomness.h"
#include "tests/e2e/e2e_test_util.h"

namespace pplda::e2e::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr int kTopics = 3;

nlohmann::json LoadJson(const std::filesystem::path& path) {
  return nlohmann::json::parse(ReadText(path), nullptr, /*allow_exceptions=*/false);
}

// `pplda simulate` over the consortium's three folders, vocabulary and
// input options; the model and each party's mixtures (DIR/<name>.csv).
struct Simulation {
  nlohmann::json model;
  std::filesystem::path mixtures;
};

struct SimulateOptions {
  uint64_t seed = 1;  // initial topics
  int iterations = 0;
  bool consortium_key = false;  // the consortium's dealt key (--key-dir), else one dealt here
  std::optional<uint64_t> insecure_deterministic_rng_seed;
  int threads = 0;               // 0: all cores
  std::string out = "simulate";  // folder under the consortium's
  std::vector<std::string> dp;   // DP training flags (then no --mixtures-dir)
  // The consortium's vocabulary as the DP vocabulary's candidates
  // (--dp-vocab-candidates) instead of the run's vocabulary (--vocabulary).
  bool vocabulary_as_candidates = false;
};

absl::StatusOr<Simulation> Simulate(const LocalConsortium& c, const ConsortiumOptions& o,
                                    const SimulateOptions& s) {
  const std::filesystem::path out = c.dir() / s.out;
  std::filesystem::create_directories(out);
  std::vector<std::string> args = {"--quiet", "simulate"};
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    args.push_back("--party");
    args.push_back(
        absl::StrCat(LocalConsortium::kPartyNames[i], "=", LocalConsortium::Documents(i).string()));
  }
  const std::string vocabulary_flag =
      s.vocabulary_as_candidates ? "--dp-vocab-candidates" : "--vocabulary";
  // clang-format off
  for (const std::string& a : {vocabulary_flag,               c.vocabulary().string(),
                               std::string("--split"),        o.split,
                               std::string("--window-words"), std::to_string(o.window_words),
                               std::string("--max-tokens"),   std::to_string(o.max_tokens),
                               std::string("--topics"),       std::to_string(kTopics),
                               std::string("--alpha"),        std::string("0.1"),
                               std::string("--beta"),         std::string("0.01"),
                               std::string("--iterations"),   std::to_string(s.iterations),
                               std::string("--seed"),         std::to_string(s.seed),
                               std::string("--threads"),      std::to_string(s.threads),
                               std::string("--out"),          (out / "model.json").string()}) {
    // clang-format on
    args.push_back(a);
  }
  if (s.dp.empty()) {
    args.insert(args.end(), {"--mixtures-dir", (out / "mixtures").string()});
  } else {
    args.insert(args.end(), s.dp.begin(), s.dp.end());
  }
  if (s.consortium_key) {
    args.insert(args.end(), {"--key-dir", c.keys().string()});
  } else {
    args.insert(args.end(), {"--key-bits", std::to_string(o.key_bits)});
  }
  if (s.insecure_deterministic_rng_seed.has_value()) {
    args.insert(args.end(), {"--insecure-deterministic-rng-seed",
                             std::to_string(*s.insecure_deterministic_rng_seed)});
  }
  CommandResult r = RunPplda(args, std::chrono::seconds(300));
  if (r.exit_code != 0) return absl::InternalError("pplda simulate: " + r.Describe());
  Simulation sim;
  sim.model = LoadJson(out / "model.json");
  sim.mixtures = out / "mixtures";
  if (sim.model.is_discarded()) return absl::InternalError("simulate wrote no JSON model");
  return sim;
}

// `pplda run start --watch` then `pplda run result` as the coordinator: the
// run id and the fetched model.
struct FinishedRun {
  std::string run_id;
  nlohmann::json model;
  std::filesystem::path model_path;
  std::string result_output;  // what `pplda run result` printed
};

absl::StatusOr<FinishedRun> RunToPublication(const LocalConsortium& c, int iterations,
                                             const std::vector<std::string>& dp = {}) {
  const std::string config = c.coordinator_config().string();
  std::vector<std::string> args = {"run",     "start", "--config", config,
                                   "--topics", std::to_string(kTopics), "--alpha", "0.1",
                                   "--beta",  "0.01",  "--iterations", std::to_string(iterations),
                                   "--watch"};
  args.insert(args.end(), dp.begin(), dp.end());
  CommandResult start = RunPplda(args, std::chrono::seconds(300));
  if (start.exit_code != 0) return absl::InternalError("pplda run start: " + start.Describe());
  if (start.output.find("published") == std::string::npos) {
    return absl::InternalError("--watch did not report the publication: " + start.output);
  }
  FinishedRun run;
  run.run_id = start.output.substr(0, start.output.find('\n'));
  run.model_path = c.dir() / ("model-" + run.run_id + ".json");
  CommandResult result = RunPplda(
      {"run", "result", "--config", config, "--run", run.run_id, "--out", run.model_path.string()});
  if (result.exit_code != 0) return absl::InternalError("pplda run result: " + result.Describe());
  run.result_output = result.output;
  run.model = LoadJson(run.model_path);
  if (run.model.is_discarded()) return absl::InternalError("run result wrote no JSON model");
  return run;
}

// Sum over topics of each term's count.
std::vector<int64_t> TermTotals(const nlohmann::json& model) {
  std::vector<int64_t> totals(model["vocabulary"].size(), 0);
  for (const nlohmann::json& row : model["topic_term_counts"]) {
    for (size_t w = 0; w < row.size() && w < totals.size(); ++w) totals[w] += row[w].get<int64_t>();
  }
  return totals;
}

std::map<std::string, int64_t> TokensByParty(const nlohmann::json& model) {
  std::map<std::string, int64_t> out;
  for (const nlohmann::json& p : model["metadata"]["corpus"]["parties"]) {
    out[p["name"].get<std::string>()] = p["tokens"].get<int64_t>();
  }
  return out;
}

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n', absl::SkipEmpty());
}

// Each party's mixtures (its own documents only) equal simulate's, byte for
// byte: the same documents in the same order, the same topics.
void ExpectMixturesEqualSimulate(const LocalConsortium& consortium, const std::string& run_id,
                                 const Simulation& sim) {
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    const std::string name = LocalConsortium::kPartyNames[i];
    const std::filesystem::path mixtures = consortium.state(i) / "runs" / run_id / "mixtures.csv";
    ASSERT_TRUE(std::filesystem::exists(mixtures)) << mixtures;
    EXPECT_EQ(ReadText(mixtures), ReadText(sim.mixtures / (name + ".csv"))) << name;
  }
}

class ConsortiumRunTest : public ConsortiumTest {};

TEST_F(ConsortiumRunTest, ZeroIterationModelAndMixturesEqualSimulateWithTheSameSeed) {
  constexpr uint64_t kSeed = 7;
  ConsortiumOptions options;
  options.initial_topics_seed = kSeed;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());

  absl::StatusOr<FinishedRun> run = RunToPublication(consortium_, /*iterations=*/0);
  ASSERT_TRUE(run.ok()) << run.status();
  SimulateOptions simulate;
  simulate.seed = kSeed;
  absl::StatusOr<Simulation> sim = Simulate(consortium_, options, simulate);
  ASSERT_TRUE(sim.ok()) << sim.status();

  const nlohmann::json& model = run->model;
  EXPECT_EQ(model["vocabulary"], sim->model["vocabulary"]);
  EXPECT_EQ(model["alpha"], sim->model["alpha"]);
  EXPECT_EQ(model["beta"], sim->model["beta"]);
  ASSERT_EQ(model["topic_term_counts"].size(), static_cast<size_t>(kTopics));
  EXPECT_EQ(model["topic_term_counts"], sim->model["topic_term_counts"])
      << "the daemons' published counts differ from simulate's for the same seed";
  // The comparison is not vacuous: every party's tokens are in the counts.
  int64_t total = 0;
  for (int64_t t : TermTotals(model)) total += t;
  std::map<std::string, int64_t> tokens = TokensByParty(model);
  EXPECT_EQ(tokens, TokensByParty(sim->model));
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_GT(tokens["early"], 100);
  EXPECT_EQ(total, tokens["early"] + tokens["middle"] + tokens["modern"]);

  ExpectMixturesEqualSimulate(consortium_, run->run_id, *sim);
}

TEST_F(ConsortiumRunTest, DeterministicRunEqualsSimulateWithTheSameKeyAndSeeds) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON (this one refuses "
                    "insecure_deterministic_rng_seed and --insecure-deterministic-rng-seed)";
  }
  constexpr uint64_t kTopicsSeed = 7;
  constexpr uint64_t kRngSeed = 20240611;
  constexpr int kIterations = 3;
  ConsortiumOptions options;
  options.initial_topics_seed = kTopicsSeed;
  options.insecure_deterministic_rng_seed = kRngSeed;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    EXPECT_THAT(consortium_.party(i).LogText(),
                HasSubstr("INSECURE: deterministic randomness for testing; never use with real "
                          "data"))
        << LocalConsortium::kPartyNames[i];
  }

  absl::StatusOr<FinishedRun> run = RunToPublication(consortium_, kIterations);
  ASSERT_TRUE(run.ok()) << run.status();
  SimulateOptions simulate;
  simulate.seed = kTopicsSeed;
  simulate.iterations = kIterations;
  simulate.consortium_key = true;
  simulate.insecure_deterministic_rng_seed = kRngSeed;
  simulate.threads = 1;  // the daemons use every core: the model does not depend on it
  simulate.out = "simulate-same-seeds";
  absl::StatusOr<Simulation> sim = Simulate(consortium_, options, simulate);
  ASSERT_TRUE(sim.ok()) << sim.status();

  const nlohmann::json& model = run->model;
  EXPECT_EQ(model["vocabulary"], sim->model["vocabulary"]);
  ASSERT_EQ(model["topic_term_counts"].size(), static_cast<size_t>(kTopics));
  EXPECT_EQ(model["topic_term_counts"], sim->model["topic_term_counts"])
      << "the daemons' published counts differ from simulate's for the same key and seeds";
  EXPECT_EQ(TokensByParty(model), TokensByParty(sim->model));
  EXPECT_EQ(model["metadata"]["training"]["iterations"], kIterations);
  ExpectMixturesEqualSimulate(consortium_, run->run_id, *sim);
  // Both models say the key was dealt and the randomness insecure.
  const nlohmann::json& privacy = sim->model["metadata"]["privacy"];
  EXPECT_EQ(privacy["key_origin"], "trusted dealer");
  EXPECT_EQ(privacy["paillier_modulus_bits"], options.key_bits);
  ASSERT_TRUE(privacy["randomness"].is_string()) << privacy;
  EXPECT_THAT(privacy["randomness"].get<std::string>(),
              HasSubstr("INSECURE deterministic randomness for testing (seed 20240611)"));
  EXPECT_EQ(model["metadata"]["privacy"]["randomness"], privacy["randomness"]);
  EXPECT_EQ(model["metadata"]["privacy"]["key_origin"], "trusted dealer");
  ASSERT_TRUE(sim->model["metadata"]["training"]["randomness"].is_string());
  EXPECT_THAT(sim->model["metadata"]["training"]["randomness"].get<std::string>(),
              StartsWith("INSECURE deterministic"));

  // The comparison is not vacuous: the rng seed decides the model.
  simulate.insecure_deterministic_rng_seed = kRngSeed + 1;
  simulate.out = "simulate-other-seed";
  absl::StatusOr<Simulation> other = Simulate(consortium_, options, simulate);
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_EQ(TermTotals(other->model), TermTotals(model));
  EXPECT_NE(other->model["topic_term_counts"], model["topic_term_counts"])
      << "another rng seed gave the same model: the seed does not reach the sampling";
}

// DP training over the network: with the same key and INSECURE
// deterministic sources, the daemons' DP run publishes exactly simulate's
// DP model (same caps, calibration, noise shares, initial topics from the
// kInitialTopics source, draws), both record the same budget, and the DP
// model file holds no per-party token count or timing.
TEST_F(ConsortiumRunTest, DeterministicDpRunEqualsSimulateWithTheSameKeyAndSeeds) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON";
  }
  constexpr uint64_t kRngSeed = 20261124;
  constexpr int kIterations = 2;
  const std::vector<std::string> dp = {"--dp-epsilon", "8", "--dp-max-tokens", "3",
                                       "--dp-max-term-count", "2"};
  ConsortiumOptions options;
  options.insecure_deterministic_rng_seed = kRngSeed;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  absl::StatusOr<FinishedRun> run = RunToPublication(consortium_, kIterations, dp);
  ASSERT_TRUE(run.ok()) << run.status();
  SimulateOptions simulate;
  simulate.iterations = kIterations;
  simulate.consortium_key = true;
  simulate.insecure_deterministic_rng_seed = kRngSeed;
  simulate.threads = 1;
  simulate.out = "simulate-dp";
  simulate.dp = dp;
  absl::StatusOr<Simulation> sim = Simulate(consortium_, options, simulate);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const nlohmann::json& model = run->model;
  EXPECT_EQ(model["topic_term_counts"], sim->model["topic_term_counts"])
      << "the daemons' DP model differs from simulate's for the same key and seeds";
  const nlohmann::json& privacy = model["metadata"]["privacy"];
  EXPECT_TRUE(privacy["counts_private"].get<bool>());
  EXPECT_EQ(privacy["differential_privacy"]["epsilon"],
            sim->model["metadata"]["privacy"]["differential_privacy"]["epsilon"]);
  EXPECT_LE(privacy["differential_privacy"]["epsilon"].get<double>(), 8.0);
  // `pplda run result` shows the budget the model records.
  EXPECT_THAT(run->result_output, HasSubstr(")-DP (the model as a whole is NOT DP), covering the "
                                            "topic-term counts"))
      << run->result_output;
  EXPECT_EQ(privacy["dp_training"]["distributed_noise"]["noise_parties"], 3);
  EXPECT_FALSE(model["metadata"]["training"].contains("iteration_seconds"));
  EXPECT_FALSE(model["metadata"]["corpus"]["parties"][0].is_object())
      << "a DP model file names the parties but holds no token count";
}

// The secure DP vocabulary over the network: with the
// consortium's vocabulary file as the public candidates, the daemons select
// the vocabulary by the DP set union between Join and Prepare and train over
// it. With the same key and INSECURE deterministic sources the published
// model equals simulate's (--dp-vocab-candidates): the same noisy counts,
// the same selection, the same training on what the vocabulary left of the
// budget. The selection is a strict, non-empty subset of the candidates, the
// model records the whole run's budget (the vocabulary covered) and the
// candidates' hash, and each party logs the selected vocabulary.
TEST_F(ConsortiumRunTest, DeterministicDpVocabularyRunEqualsSimulateWithTheSameKeyAndSeeds) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON";
  }
  constexpr uint64_t kRngSeed = 20261125;
  constexpr int kIterations = 2;
  const std::vector<std::string> dp = {"--dp-epsilon",         "8",  "--dp-vocab-epsilon", "4",
                                       "--dp-vocab-max-terms", "50", "--dp-max-tokens",    "3",
                                       "--dp-max-term-count",  "2"};
  ConsortiumOptions options;
  options.insecure_deterministic_rng_seed = kRngSeed;
  // More candidates than the default's; no reading cap (a party's max_tokens
  // cuts its documents over its vocabulary file, here the candidates, while
  // simulate cuts them over the selected vocabulary): DP training's caps
  // keep the run small.
  options.min_df = 20;
  options.max_tokens = 100000;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  absl::StatusOr<FinishedRun> run = RunToPublication(consortium_, kIterations, dp);
  ASSERT_TRUE(run.ok()) << run.status();
  SimulateOptions simulate;
  simulate.iterations = kIterations;
  simulate.consortium_key = true;
  simulate.insecure_deterministic_rng_seed = kRngSeed;
  simulate.threads = 1;
  simulate.out = "simulate-dp-vocabulary";
  simulate.dp = dp;
  simulate.vocabulary_as_candidates = true;
  absl::StatusOr<Simulation> sim = Simulate(consortium_, options, simulate);
  ASSERT_TRUE(sim.ok()) << sim.status();

  const nlohmann::json& model = run->model;
  const std::vector<std::string> candidates = Lines(ReadText(consortium_.vocabulary()));
  ASSERT_TRUE(model["vocabulary"].is_array());
  const std::vector<std::string> selected = model["vocabulary"].get<std::vector<std::string>>();
  EXPECT_GT(selected.size(), 0u);
  EXPECT_LT(selected.size(), candidates.size()) << "the DP vocabulary kept every candidate";
  for (const std::string& term : selected) {
    EXPECT_NE(std::find(candidates.begin(), candidates.end(), term), candidates.end()) << term;
  }
  EXPECT_EQ(model["vocabulary"], sim->model["vocabulary"])
      << "the daemons' DP vocabulary differs from simulate's for the same key and seeds";
  EXPECT_EQ(model["topic_term_counts"], sim->model["topic_term_counts"])
      << "the daemons' model differs from simulate's for the same key and seeds";

  const nlohmann::json& privacy = model["metadata"]["privacy"];
  EXPECT_EQ(privacy["differential_privacy"]["epsilon"],
            sim->model["metadata"]["privacy"]["differential_privacy"]["epsilon"]);
  EXPECT_LE(privacy["differential_privacy"]["epsilon"].get<double>(), 8.0);
  EXPECT_EQ(privacy["dp_vocabulary"], sim->model["metadata"]["privacy"]["dp_vocabulary"]);
  EXPECT_TRUE(privacy["vocabulary_private"].get<bool>()) << privacy;
  EXPECT_THAT(run->result_output, Not(HasSubstr("NOT DP"))) << run->result_output;
  const nlohmann::json& vocabulary = model["metadata"]["corpus"]["vocabulary"];
  EXPECT_EQ(vocabulary["candidates"], candidates.size());
  EXPECT_EQ(vocabulary["candidates_sha256"].get<std::string>().size(), 64u);
  // The coordinator reports the selection's cost on the wire.
  EXPECT_THAT(consortium_.coordinator().LogText(),
              ::testing::ContainsRegex("3 calls, 1 MPC round, [0-9.]+ MB of ciphertexts"));
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    EXPECT_THAT(consortium_.party(i).LogText(),
                HasSubstr(absl::StrCat("DP vocabulary selected: ", selected.size(), " terms")))
        << LocalConsortium::kPartyNames[i];
  }
}

// The coordinator refuses a DP vocabulary without DP training, and one that
// would take the whole budget, before any party is asked.
TEST_F(ConsortiumRunTest, DpVocabularyWithoutRoomForDpTrainingIsRefusedAtStart) {
  ConsortiumOptions options;
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  const std::string config = consortium_.coordinator_config().string();
  CommandResult alone = RunPplda({"run", "start", "--config", config, "--dp-vocab-epsilon", "1"});
  EXPECT_NE(alone.exit_code, 0);
  EXPECT_THAT(alone.output, HasSubstr("add --dp-epsilon")) << alone.output;
  CommandResult whole = RunPplda(
      {"run", "start", "--config", config, "--dp-epsilon", "2", "--dp-vocab-epsilon", "2"});
  EXPECT_NE(whole.exit_code, 0);
  EXPECT_THAT(whole.output, HasSubstr("must be below")) << whole.output;
  CommandResult threshold =
      RunPplda({"run", "start", "--config", config, "--dp-vocab-threshold", "5"});
  EXPECT_NE(threshold.exit_code, 0);
  EXPECT_THAT(threshold.output, HasSubstr("add --dp-vocab-epsilon")) << threshold.output;
}

TEST_F(ConsortiumRunTest, TwoIterationRunKeepsTermCountsTotalsAndWritesMixtures) {
  ConsortiumOptions options;  // initial topics from the OS generator
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());

  absl::StatusOr<FinishedRun> run = RunToPublication(consortium_, /*iterations=*/2);
  ASSERT_TRUE(run.ok()) << run.status();
  // The reference: term frequencies, documents and tokens of each party as
  // simulate reads them (no iterations needed for those).
  absl::StatusOr<Simulation> sim = Simulate(consortium_, options, SimulateOptions());
  ASSERT_TRUE(sim.ok()) << sim.status();

  const nlohmann::json& model = run->model;
  EXPECT_EQ(model["vocabulary"], sim->model["vocabulary"]);
  const size_t v = model["vocabulary"].size();
  ASSERT_EQ(model["topic_term_counts"].size(), static_cast<size_t>(kTopics));
  int64_t total = 0;
  for (const nlohmann::json& row : model["topic_term_counts"]) {
    ASSERT_EQ(row.size(), v);
    for (const nlohmann::json& count : row) {
      ASSERT_TRUE(count.is_number_integer()) << count;
      ASSERT_GE(count.get<int64_t>(), 0);
      total += count.get<int64_t>();
    }
  }
  EXPECT_EQ(TermTotals(model), TermTotals(sim->model))
      << "a term's count summed over the topics must be its corpus frequency";
  const std::map<std::string, int64_t> tokens = TokensByParty(model);
  EXPECT_EQ(tokens, TokensByParty(sim->model));
  int64_t party_tokens = 0;
  for (const auto& [name, t] : tokens) party_tokens += t;
  EXPECT_EQ(tokens.size(), 3u);
  EXPECT_EQ(total, party_tokens);

  const nlohmann::json& meta = model["metadata"];
  EXPECT_EQ(meta["training"]["iterations"], 2);
  EXPECT_EQ(meta["training"]["run_id"], run->run_id);
  EXPECT_EQ(meta["privacy"]["key_origin"], "trusted dealer");
  ASSERT_TRUE(meta["privacy"]["key"].is_string());
  EXPECT_THAT(meta["privacy"]["key"].get<std::string>(), HasSubstr("TRUSTED DEALER"));
  ASSERT_TRUE(meta["privacy"]["leakage"].is_string());
  EXPECT_THAT(meta["privacy"]["leakage"].get<std::string>(), StartsWith("Revealed:"));
  EXPECT_EQ(meta["privacy"]["paillier_modulus_bits"], 1024);
  EXPECT_FALSE(meta["privacy"].contains("randomness")) << "the OS generator is no insecure mode";
  // The coordinator kept the model it served.
  EXPECT_EQ(LoadJson(consortium_.state(-1) / "runs" / run->run_id / "model.json"), model);
  // `pplda run result` says how to make the HTML report, which draws the
  // secure run's phase timing and its leakage statement.
  EXPECT_THAT(run->result_output, HasSubstr("`pplda report --model " + run->model_path.string()))
      << run->result_output;
  const std::filesystem::path report = consortium_.dir() / "report.html";
  const CommandResult made =
      RunPplda({"report", "--model", run->model_path.string(), "--out", report.string()});
  ASSERT_EQ(made.exit_code, 0) << made.Describe();
  const std::string html = ReadText(report);
  EXPECT_THAT(html, HasSubstr("data-chart=\"phase-timing\""));
  EXPECT_THAT(html, HasSubstr("TRUSTED DEALER"));
  EXPECT_THAT(html, HasSubstr("No differential-privacy budget recorded"));

  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    const std::string name = LocalConsortium::kPartyNames[i];
    const std::filesystem::path path = consortium_.state(i) / "runs" / run->run_id / "mixtures.csv";
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    EXPECT_EQ(FileMode(path), 0600u) << path;
    const std::vector<std::string> rows = Lines(ReadText(path));
    const std::vector<std::string> reference = Lines(ReadText(sim->mixtures / (name + ".csv")));
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows[0], "document,topic_0,topic_1,topic_2");
    ASSERT_EQ(rows.size(), reference.size()) << name << ": one row per document";
    for (size_t m = 1; m < rows.size(); ++m) {
      const std::vector<std::string> fields = absl::StrSplit(rows[m], ',');
      const std::vector<std::string> expected = absl::StrSplit(reference[m], ',');
      ASSERT_EQ(fields.size(), 1u + kTopics) << rows[m];
      EXPECT_EQ(fields[0], expected[0]) << name << " row " << m;
      double sum = 0;
      for (int k = 1; k <= kTopics; ++k) sum += std::stod(fields[k]);
      EXPECT_NEAR(sum, 1.0, 1e-4) << rows[m];
    }
  }
}

TEST_F(ConsortiumRunTest, CancelEndsAnActiveRunAsCancelledAndTheConsortiumRunsAgain) {
  E2E_ASSERT_OK(SetUpConsortium());
  E2E_ASSERT_OK(consortium_.StartAll());
  absl::StatusOr<std::string> run_id = StartRun(consortium_, kTopics, /*iterations=*/100);
  ASSERT_TRUE(run_id.ok()) << run_id.status();
  RunStatusLine s = PollStatus(
      consortium_, *run_id,
      [](const RunStatusLine& s) { return s.state == "iterating" || RunEnded(s); },
      std::chrono::seconds(120));
  ASSERT_EQ(s.state, "iterating") << s.command.Describe();

  const std::string config = consortium_.coordinator_config().string();
  const Clock::time_point cancelled_at = Clock::now();
  CommandResult cancel =
      RunPplda({"run", "cancel", "--config", config, "--reason", "e2e test cancels"});
  ASSERT_EQ(cancel.exit_code, 0) << cancel.Describe();
  s = PollStatus(consortium_, *run_id, RunEnded, std::chrono::seconds(120));
  const double seconds = std::chrono::duration<double>(Clock::now() - cancelled_at).count();
  EXPECT_EQ(s.state, "cancelled") << s.command.Describe();
  EXPECT_THAT(s.command.output, HasSubstr("error: cancelled: e2e test cancels"))
      << s.command.Describe();
  EXPECT_LT(seconds, 60) << "the cancel took " << seconds << " s";
  // The reason reached the coordinator and the parties it aborted.
  EXPECT_THAT(consortium_.coordinator().LogText(), HasSubstr("e2e test cancels"));
  int told = 0;
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    if (consortium_.party(i).LogText().find("e2e test cancels") != std::string::npos) ++told;
  }
  EXPECT_EQ(told, LocalConsortium::kParties);
  EXPECT_LT(s.iteration, 100);

  // Nothing to fetch, nothing left to cancel.
  CommandResult result = RunPplda({"run", "result", "--config", config, "--run", *run_id, "--out",
                                   (dir() / "cancelled.json").string()});
  EXPECT_NE(result.exit_code, 0) << result.Describe();
  EXPECT_THAT(result.output, HasSubstr("not published"));
  CommandResult again = RunPplda({"run", "cancel", "--config", config});
  EXPECT_NE(again.exit_code, 0) << again.Describe();

  // Every daemon takes the next run.
  absl::StatusOr<FinishedRun> next = RunToPublication(consortium_, /*iterations=*/0);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_NE(next->run_id, *run_id);
}

}  // namespace
}  // namespace pplda::e2e::testing

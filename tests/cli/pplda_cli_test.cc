// Runs the real `pplda` binary on tiny corpora written by the test: the
// prepare -> train -> topics -> evaluate pipeline, and the error paths a
// user meets (missing input, bad options, malformed model file).
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lda/model_file.h"
#include "lda/vocabulary_file.h"
#include "nlohmann/json.hpp"
#include "tests/cli/cli_test_util.h"

namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

using ::pplda::cli::testing::RunPplda;
using ::pplda::cli::testing::RunResult;

class PpldaCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("pplda_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "docs");
    // Two clearly separated themes, 12 documents each.
    for (int i = 0; i < 24; ++i) {
      std::ofstream f(dir_ / "docs" / ("doc" + std::to_string(100 + i) + ".txt"));
      if (i % 2 == 0) {
        f << "river water boat fishing river water boat fishing harbour sailing harbour\n";
      } else {
        f << "election senate voting ballot election senate voting ballot congress law\n";
      }
    }
  }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  // The 24 documents dealt round-robin to three party folders a, b, c.
  void SplitDocsIntoThreeParties() const {
    for (const char* party : {"a", "b", "c"}) fs::create_directories(dir_ / party);
    for (int i = 0; i < 24; ++i) {
      const char* party = i % 3 == 0 ? "a" : (i % 3 == 1 ? "b" : "c");
      fs::copy_file(dir_ / "docs" / ("doc" + std::to_string(100 + i) + ".txt"),
                    dir_ / party / ("doc" + std::to_string(i) + ".txt"));
    }
  }
  fs::path dir_;
};

TEST_F(PpldaCliTest, PrepareTrainTopicsEvaluate) {
  auto prep = RunPplda("--quiet prepare --input " + Path("docs") + " --min-df 1 --max-df 1.0 --out " +
                  Path("prepared"));
  ASSERT_EQ(prep.exit_code, 0) << prep.output;
  EXPECT_THAT(prep.output, HasSubstr("prepared"));
  auto train = RunPplda("--quiet train --input " + Path("prepared") +
                   " --topics 2 --iterations 50 --seed 7 --threads 1 --eval-sweeps 5 --out " +
                   Path("model.json") +
                   " --mixtures " + Path("mix.csv"));
  ASSERT_EQ(train.exit_code, 0) << train.output;
  EXPECT_THAT(train.output, HasSubstr("held-out perplexity"));

  auto model = pplda::lda::ReadModelFile(Path("model.json"));
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->num_topics, 2);
  EXPECT_DOUBLE_EQ(model->alpha, 0.1);
  EXPECT_DOUBLE_EQ(model->beta, 0.01);
  EXPECT_EQ(model->metadata["training"]["iterations"], 50);
  EXPECT_EQ(model->metadata["training"]["seed"], 7);
  EXPECT_TRUE(model->metadata["privacy"].contains("leakage"));
  EXPECT_TRUE(model->metadata["evaluation"].contains("held_out_perplexity"));

  auto topics = RunPplda("topics --model " + Path("model.json") + " --top 4 --json");
  ASSERT_EQ(topics.exit_code, 0) << topics.output;
  auto json = nlohmann::json::parse(topics.output);
  ASSERT_EQ(json["topics"].size(), 2u);
  // Each topic's top words come from one theme only.
  for (const auto& topic : json["topics"]) {
    std::string first = topic["top_words"][0]["term"];
    bool water = first == "river" || first == "water" || first == "boat" || first == "fishing" ||
                 first == "harbour" || first == "sailing";
    for (const auto& w : topic["top_words"]) {
      std::string term = w["term"];
      bool w_water = term == "river" || term == "water" || term == "boat" || term == "fishing" ||
                     term == "harbour" || term == "sailing";
      EXPECT_EQ(w_water, water) << topics.output;
    }
  }
  auto eval = RunPplda("--quiet evaluate --model " + Path("model.json") + " --input " +
                  Path("prepared") + " --json");
  ASSERT_EQ(eval.exit_code, 0) << eval.output;
  auto figures = nlohmann::json::parse(eval.output);
  // Two well-separated themes of 6 words each: perplexity close to 6, far below V = 13.
  EXPECT_LT(figures["held_out_perplexity"].get<double>(), 9.0);
  EXPECT_GT(figures["held_out_perplexity"].get<double>(), 3.0);

  std::ifstream mix(Path("mix.csv"));
  std::string header;
  std::getline(mix, header);
  EXPECT_EQ(header, "document,topic_0,topic_1");
}

TEST_F(PpldaCliTest, TrainDirectlyFromRawFolderIsDeterministic) {
  std::string common = "--quiet train --input " + Path("docs") +
                       " --min-df 1 --max-df 1.0 --topics 2 --iterations 20 --threads 2 --seed 3";
  ASSERT_EQ(RunPplda(common + " --out " + Path("a.json")).exit_code, 0);
  ASSERT_EQ(RunPplda(common + " --out " + Path("b.json")).exit_code, 0);
  auto a = pplda::lda::ReadModelFile(Path("a.json"));
  auto b = pplda::lda::ReadModelFile(Path("b.json"));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->topic_term_counts, b->topic_term_counts);
}

TEST_F(PpldaCliTest, MissingInputIsAClearError) {
  auto r = RunPplda("train --input " + Path("nope") + " --topics 2 --out " + Path("m.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("nope"));
  EXPECT_FALSE(fs::exists(Path("m.json")));
}

TEST_F(PpldaCliTest, BadOptionValuesAreRejected) {
  EXPECT_NE(RunPplda("train --input " + Path("docs") + " --topics 0").exit_code, 0);
  EXPECT_NE(RunPplda("train --input " + Path("docs") + " --topics 70000").exit_code, 0);
  EXPECT_NE(RunPplda("train --input " + Path("docs") + " --sampler fancy").exit_code, 0);
  EXPECT_NE(RunPplda("train --input " + Path("docs") + " --alpha -1").exit_code, 0);
  auto r = RunPplda("train --input " + Path("docs") + " --format xml");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("xml"));
  EXPECT_NE(RunPplda("frobnicate").exit_code, 0);
}

TEST_F(PpldaCliTest, MalformedModelFileIsAClearError) {
  std::ofstream(Path("bad.json")) << "{\"vocabulary\": [\"a\"], \"alpha\": 0.1}";
  auto r = RunPplda("topics --model " + Path("bad.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("bad.json"));
}

TEST_F(PpldaCliTest, EvaluateRejectsAModelFromAnotherVocabulary) {
  ASSERT_EQ(RunPplda("--quiet prepare --input " + Path("docs") + " --min-df 1 --max-df 1.0 --out " +
                Path("prepared")).exit_code, 0);
  ASSERT_EQ(RunPplda("--quiet train --input " + Path("docs") +
                " --min-df 1 --max-df 1.0 --keep-stopwords --min-length 1 --topics 2 "
                "--iterations 5 --out " + Path("m.json")).exit_code, 0);
  std::ofstream(dir_ / "docs" / "extra.txt") << "zebra giraffe";
  ASSERT_EQ(RunPplda("--quiet train --input " + Path("docs") +
                " --min-df 1 --max-df 1.0 --topics 2 --iterations 5 --out " + Path("m2.json"))
                .exit_code, 0);
  auto r = RunPplda("evaluate --model " + Path("m2.json") + " --input " + Path("prepared"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("vocabulary"));
}

TEST_F(PpldaCliTest, SimulateRunsTheSecureProtocolAndWritesTheSameModelFormat) {
  SplitDocsIntoThreeParties();
  auto r = RunPplda("--quiet simulate --party A=" + Path("a") + " --party B=" + Path("b") +
                    " --party C=" + Path("c") +
                    " --min-df 1 --max-df 1.0 --topics 2 --iterations 3 --key-bits 1024 --out " +
                    Path("secure.json") + " --mixtures-dir " + Path("mix"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto model = pplda::lda::ReadModelFile(Path("secure.json"));
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->num_topics, 2);
  EXPECT_EQ(model->vocabulary.size(), 12);  // the union of the parties' terms
  int64_t total = 0;
  for (int64_t c : model->topic_term_counts) total += c;
  EXPECT_EQ(total, 12 * 11 + 12 * 10);  // every token counted once, exactly
  const auto& privacy = model->metadata["privacy"];
  EXPECT_THAT(privacy["key"].get<std::string>(), HasSubstr("dealer"));
  EXPECT_THAT(privacy["leakage"].get<std::string>(), HasSubstr("token count"));
  EXPECT_EQ(privacy["paillier_modulus_bits"], 1024);
  EXPECT_TRUE(fs::exists(dir_ / "mix" / "A.csv"));
  // The secure model reads like any other: topics works on it.
  EXPECT_EQ(RunPplda("topics --model " + Path("secure.json")).exit_code, 0);
}

// --dealer-free-key: the simulated compute parties (a committee's members
// too) generate the key among themselves (the protocol of `pplda keys
// generate`); the run decrypts every token exactly and the model says the
// key is distributed.
TEST_F(PpldaCliTest, SimulateWithADealerFreeKeyDecryptsExactlyAndSaysSo) {
  SplitDocsIntoThreeParties();
  auto r = RunPplda("--quiet simulate --party A=" + Path("a") + " --party B=" + Path("b") +
                    " --party C=" + Path("c") +
                    " --min-df 1 --max-df 1.0 --topics 2 --iterations 2 --key-bits 1024 "
                    "--dealer-free-key --out " +
                    Path("dealer-free.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto model = pplda::lda::ReadModelFile(Path("dealer-free.json"));
  ASSERT_TRUE(model.ok()) << model.status();
  int64_t total = 0;
  for (int64_t c : model->topic_term_counts) total += c;
  EXPECT_EQ(total, 12 * 11 + 12 * 10);
  EXPECT_EQ(model->metadata["privacy"]["key_origin"], "distributed");
  // A committee of three generates it among its members, serving the three
  // folders as data holders.
  auto committee = RunPplda("--quiet simulate --party A=" + Path("a") + " --party B=" + Path("b") +
                            " --party C=" + Path("c") +
                            " --min-df 1 --max-df 1.0 --topics 2 --iterations 2 --key-bits 1024 "
                            "--committee 3 --dealer-free-key --out " +
                            Path("committee.json"));
  ASSERT_EQ(committee.exit_code, 0) << committee.output;
  auto served = pplda::lda::ReadModelFile(Path("committee.json"));
  ASSERT_TRUE(served.ok()) << served.status();
  total = 0;
  for (int64_t c : served->topic_term_counts) total += c;
  EXPECT_EQ(total, 12 * 11 + 12 * 10);
  EXPECT_EQ(served->metadata["privacy"]["key_origin"], "distributed");
  EXPECT_EQ(served->metadata["privacy"]["holders_outside_committee"], 3);
  auto both = RunPplda("simulate --party A=" + Path("a") + " --party B=" + Path("b") +
                       " --dealer-free-key --key-dir " + Path("a"));
  EXPECT_NE(both.exit_code, 0);
  EXPECT_THAT(both.output, HasSubstr("excludes"));
}

TEST_F(PpldaCliTest, SimulateRejectsBadPartyLists) {
  auto one = RunPplda("simulate --party A=" + Path("docs") + " --topics 2 --key-bits 1024");
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_THAT(one.output, HasSubstr("at least 2 parties"));
  auto malformed = RunPplda("simulate --party A" + Path("docs") + " --party B=" + Path("docs") +
                            " --topics 2 --key-bits 1024");
  EXPECT_EQ(malformed.exit_code, 1);
  EXPECT_THAT(malformed.output, HasSubstr("NAME=PATH"));
  auto twice = RunPplda("simulate --party A=" + Path("docs") + " --party A=" + Path("docs") +
                        " --topics 2 --key-bits 1024");
  EXPECT_EQ(twice.exit_code, 1);
  EXPECT_THAT(twice.output, HasSubstr("twice"));
}

// Two holders without DP learn each other's counts from the published ones:
// refused before any key is dealt unless --accept-two-holder-disclosure, and
// the model of an accepted run says what each learns.
TEST_F(PpldaCliTest, SimulateWithTwoHoldersAndNoDpNeedsTheExplicitFlag) {
  for (const char* party : {"a", "b"}) fs::create_directories(dir_ / party);
  for (int i = 0; i < 16; ++i) {
    fs::copy_file(dir_ / "docs" / ("doc" + std::to_string(100 + i) + ".txt"),
                  dir_ / (i % 2 == 0 ? "a" : "b") / ("doc" + std::to_string(i) + ".txt"));
  }
  const std::string command = "simulate --party A=" + Path("a") + " --party B=" + Path("b") +
                              " --min-df 1 --max-df 1.0 --topics 2 --iterations 1 "
                              "--key-bits 1024 --out " + Path("two.json");
  auto refused = RunPplda(command);
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.output, AllOf(HasSubstr("two data holders and no differential privacy"),
                                    HasSubstr("--accept-two-holder-disclosure"),
                                    Not(HasSubstr("dealing"))));
  EXPECT_FALSE(fs::exists(dir_ / "two.json"));
  auto accepted = RunPplda("--quiet " + command + " --accept-two-holder-disclosure");
  ASSERT_EQ(accepted.exit_code, 0) << accepted.output;
  auto model = pplda::lda::ReadModelFile(Path("two.json"));
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->metadata["privacy"]["data_holders"], 2);
  EXPECT_THAT(model->metadata["privacy"]["leakage"].get<std::string>(),
              HasSubstr("each holder learns the other's topic-term counts"));
}

// The INSECURE test seed is refused at start, naming the flag, unless the
// build has PPLDA_INSECURE_TEST_RANDOMNESS (where tests/e2e uses it).
TEST_F(PpldaCliTest, SimulateRefusesTheInsecureRngSeedUnlessTheBuildAllowsIt) {
  if (PPLDA_INSECURE_TEST_RANDOMNESS) {
    GTEST_SKIP() << "built with PPLDA_INSECURE_TEST_RANDOMNESS=ON: the flag is allowed "
                    "(ConsortiumRunTest.DeterministicRunEqualsSimulateWithTheSameKeyAndSeeds)";
  }
  auto r = RunPplda("simulate --party A=" + Path("a") + " --party B=" + Path("b") +
                    " --topics 2 --key-bits 1024 --insecure-deterministic-rng-seed 1");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("--insecure-deterministic-rng-seed: this build does not allow "
                                  "insecure test randomness"));
}

// Keys of exact data-dependent statistics (counts of documents, tokens and
// terms, corpus and preprocessing reports, timing, likelihood traces,
// evaluation figures, the DP vocabulary's candidate count and the noise's
// clamped cells): any one of them in a DP model file voids a delta below 1.
const char* const kExactStatisticKeys[] = {
    "num_documents",      "num_tokens",         "train_documents",
    "train_tokens",       "test_documents",     "test_tokens",
    "documents_read",     "documents_dropped_empty", "tokens_read",
    "vocabulary_size",    "log_likelihood_per_token_trace", "seconds",
    "tokens_per_second",  "evaluation",         "held_out_perplexity",
    "umass_coherence_top10", "candidate_terms", "clamped_cells",
    "cells",              "preprocess_report",  "reader",
    "documents_in",       "documents_out",      "tokens_in",
    "tokens_out",         "dropped_empty",      "terms_before_df",
    "terms_after_df",     "unknown_tokens",     "capped_documents",
    "dropped_documents",  "stats"};

// Every "path.to.key" of `j` (recursively through objects and arrays) whose
// key is in kExactStatisticKeys.
void FindExactStatistics(const nlohmann::json& j, const std::string& path,
                         std::vector<std::string>* found) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      for (const char* bad : kExactStatisticKeys) {
        if (key == bad) found->push_back(path + "." + key);
      }
      FindExactStatistics(value, path + "." + key, found);
    }
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      FindExactStatistics(j[i], path + "[" + std::to_string(i) + "]", found);
    }
  }
}

std::vector<std::string> ExactStatisticsIn(const std::string& model_path) {
  std::ifstream in(model_path);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::vector<std::string> found;
  FindExactStatistics(j, "", &found);
  return found;
}

// Every "epsilon" or "delta" key of `j` with a non-null value, recursively.
void FindBudgets(const nlohmann::json& j, const std::string& path,
                 std::vector<std::string>* found) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if ((key == "epsilon" || key == "delta") && !value.is_null()) {
        found->push_back(path + "." + key);
      }
      FindBudgets(value, path + "." + key, found);
    }
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) FindBudgets(j[i], path, found);
  }
}

// No model file from a run with any privacy option holds an exact statistic
// of the documents: with a DP vocabulary, with the final-count noise, and on
// a prepared folder with a test set (whose evaluation is printed, not
// stored). The control is the same run without privacy options, which
// records them; DP runs used to write that same metadata (plus the
// vocabulary's candidate_terms and the noise's cells and clamped_cells), so
// this test fails against the old behaviour.
TEST_F(PpldaCliTest, DpModelFilesHoldNoExactStatistic) {
  const std::string raw = "--quiet train --input " + Path("docs") +
                          " --min-df 1 --max-df 1.0 --topics 2 --iterations 20 --max-tokens 8 ";
  auto plain = RunPplda(raw + "--out " + Path("plain.json"));
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  const std::vector<std::string> control = ExactStatisticsIn(Path("plain.json"));
  for (const char* expected : {".metadata.num_documents", ".metadata.num_tokens",
                               ".metadata.corpus.train_tokens",
                               ".metadata.training.log_likelihood_per_token_trace"}) {
    EXPECT_THAT(control, ::testing::Contains(std::string(expected)));
  }

  auto vocab = RunPplda(raw + "--dp-vocab-epsilon 50 --dp-vocab-max-terms 5 --out " +
                        Path("vocab.json"));
  ASSERT_EQ(vocab.exit_code, 0) << vocab.output;
  EXPECT_THAT(ExactStatisticsIn(Path("vocab.json")), ::testing::IsEmpty());
  auto noise = RunPplda(raw + "--final-noise-sigma 5 --out " + Path("noise.json"));
  ASSERT_EQ(noise.exit_code, 0) << noise.output;
  EXPECT_THAT(ExactStatisticsIn(Path("noise.json")), ::testing::IsEmpty());
  auto both = RunPplda(raw + "--final-noise-sigma 5 --dp-vocab-epsilon 50 --dp-vocab-max-terms 5 "
                             "--out " + Path("both.json"));
  ASSERT_EQ(both.exit_code, 0) << both.output;
  EXPECT_THAT(ExactStatisticsIn(Path("both.json")), ::testing::IsEmpty());
  // DP training for the whole run, alone and with the DP vocabulary.
  auto counts = RunPplda(raw + "--dp-epsilon 8 --dp-max-tokens 8 --dp-max-term-count 2 --out " +
                         Path("counts.json"));
  ASSERT_EQ(counts.exit_code, 0) << counts.output;
  EXPECT_THAT(ExactStatisticsIn(Path("counts.json")), ::testing::IsEmpty());
  auto whole = RunPplda(raw + "--dp-epsilon 100 --dp-vocab-epsilon 50 --dp-vocab-max-terms 5 "
                              "--dp-noisy-iterations 5 --out " + Path("whole.json"));
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  EXPECT_THAT(ExactStatisticsIn(Path("whole.json")), ::testing::IsEmpty());

  ASSERT_EQ(RunPplda("--quiet prepare --input " + Path("docs") + " --min-df 1 --max-df 1.0 " +
                     "--test-every 4 --out " + Path("prepared"))
                .exit_code,
            0);
  auto prepared = RunPplda("--quiet train --input " + Path("prepared") +
                           " --topics 2 --iterations 20 --eval-sweeps 5 --final-noise-sigma 5 "
                           "--out " + Path("prepared.json"));
  ASSERT_EQ(prepared.exit_code, 0) << prepared.output;
  EXPECT_THAT(prepared.output, HasSubstr("held-out perplexity"));
  EXPECT_THAT(prepared.output, HasSubstr("not stored in the model file"));
  EXPECT_THAT(ExactStatisticsIn(Path("prepared.json")), ::testing::IsEmpty());
  auto prepared_dp = RunPplda("--quiet train --input " + Path("prepared") +
                              " --topics 2 --iterations 20 --eval-sweeps 5 --dp-epsilon 8 "
                              "--out " + Path("prepared_dp.json"));
  ASSERT_EQ(prepared_dp.exit_code, 0) << prepared_dp.output;
  EXPECT_THAT(prepared_dp.output, HasSubstr("not stored in the model file"));
  EXPECT_THAT(ExactStatisticsIn(Path("prepared_dp.json")), ::testing::IsEmpty());
  // The options are still recorded.
  auto m = pplda::lda::ReadModelFile(Path("both.json"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->metadata["training"]["iterations"], 20);
  EXPECT_EQ(m->metadata["corpus"]["preprocessing"]["max_tokens_per_document"], 8);
}

// The same for a secure run with DP training (`pplda simulate
// --dp-epsilon`): the model file records the budget in the plaintext DP
// format, says what it covers, and holds no exact statistic (the secure
// run without DP records per-party document and token counts and timings).
// Bad DP options are refused naming the flag.
TEST_F(PpldaCliTest, SimulateWithDpRecordsTheBudgetAndNoExactStatistic) {
  SplitDocsIntoThreeParties();
  const std::string base = "--quiet simulate --party A=" + Path("a") + " --party B=" +
                           Path("b") + " --party C=" + Path("c") +
                           " --min-df 1 --max-df 1.0 --topics 2 --iterations 2 --key-bits 1024 ";
  auto plain = RunPplda(base + "--out " + Path("plain.json"));
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_THAT(ExactStatisticsIn(Path("plain.json")), ::testing::Not(::testing::IsEmpty()));
  auto dp = RunPplda(base + "--dp-epsilon 8 --dp-max-tokens 8 --dp-max-term-count 2 --out " +
                     Path("dp.json"));
  ASSERT_EQ(dp.exit_code, 0) << dp.output;
  EXPECT_THAT(ExactStatisticsIn(Path("dp.json")), ::testing::IsEmpty());
  std::ifstream in(Path("dp.json"));
  const nlohmann::json j = nlohmann::json::parse(in);
  const nlohmann::json& privacy = j["metadata"]["privacy"];
  EXPECT_TRUE(privacy["counts_private"].get<bool>());
  EXPECT_FALSE(privacy["vocabulary_private"].get<bool>());
  EXPECT_LE(privacy["differential_privacy"]["epsilon"].get<double>(), 8.0);
  EXPECT_LE(privacy["differential_privacy"]["delta"].get<double>(), 1e-5);
  EXPECT_THAT(privacy["leakage"].get<std::string>(), HasSubstr("own tokens included"));
  EXPECT_THAT(privacy["leakage"].get<std::string>(), HasSubstr("NOT covered"));
  EXPECT_EQ(privacy["dp_training"]["distributed_noise"]["noise_parties"], 3);
  EXPECT_EQ(privacy["dp_training"]["distributed_noise"]["coalition_tolerated"], 1);
  EXPECT_THAT(privacy["secure_protocol"]["leakage"].get<std::string>(),
              HasSubstr("last noisy release"));
  EXPECT_EQ(RunPplda("topics --model " + Path("dp.json")).exit_code, 0);

  auto no_epsilon = RunPplda(base + "--dp-delta 1e-6 --out " + Path("x.json"));
  EXPECT_EQ(no_epsilon.exit_code, 1);
  EXPECT_THAT(no_epsilon.output, HasSubstr("--dp-delta"));
  auto mixtures = RunPplda(base + "--dp-epsilon 8 --mixtures-dir " + Path("mix") + " --out " +
                           Path("x.json"));
  EXPECT_EQ(mixtures.exit_code, 1);
  EXPECT_THAT(mixtures.output, HasSubstr("--mixtures-dir"));
  auto one_release = RunPplda(base + "--dp-epsilon 8 --dp-noisy-iterations 1 --out " +
                              Path("x.json"));
  EXPECT_EQ(one_release.exit_code, 1);
  EXPECT_THAT(one_release.output, HasSubstr("--dp-noisy-iterations"));
  // A flag out of its range is a usage error (cli/number_flags.h), refused
  // before anything is read.
  auto bad_epsilon = RunPplda(base + "--dp-epsilon -1 --out " + Path("x.json"));
  EXPECT_NE(bad_epsilon.exit_code, 0);
  EXPECT_THAT(bad_epsilon.output, HasSubstr("--dp-epsilon: -1 is out of range"));
}

// The final-count noise gives no DP guarantee: no (epsilon, delta) is
// printed or stored for it, the output says so, and it warns that the
// vocabulary is not private. Its noise comes from the OS CSPRNG.
TEST_F(PpldaCliTest, FinalCountNoiseClaimsNoBudget) {
  const std::string common = "train --input " + Path("docs") +
                             " --min-df 1 --max-df 1.0 --topics 2 --iterations 30 --max-tokens 8 "
                             "--final-noise-sigma 20 --out ";
  auto a = RunPplda("--quiet " + common + Path("a.json"));
  ASSERT_EQ(a.exit_code, 0) << a.output;
  EXPECT_THAT(a.output, HasSubstr("final-count noise: sigma 20 added once to every count; "
                                  "heuristic with NO differential-privacy guarantee"));
  EXPECT_THAT(a.output, HasSubstr("warning: the vocabulary of the model is NOT private"));
  EXPECT_THAT(a.output, HasSubstr("counts of the model are NOT differentially private"));
  EXPECT_THAT(a.output, ::testing::Not(HasSubstr("differential privacy: (")));
  EXPECT_THAT(a.output, ::testing::Not(HasSubstr("spent")));
  EXPECT_THAT(a.output, ::testing::Not(::testing::ContainsRegex("epsilon [0-9]")));
  EXPECT_THAT(a.output, ::testing::Not(HasSubstr(")-DP")));
  ASSERT_EQ(RunPplda("--quiet " + common + Path("b.json")).exit_code, 0);
  auto ma = pplda::lda::ReadModelFile(Path("a.json"));
  auto mb = pplda::lda::ReadModelFile(Path("b.json"));
  ASSERT_TRUE(ma.ok() && mb.ok()) << ma.status();
  EXPECT_NE(ma->topic_term_counts, mb->topic_term_counts);
  const nlohmann::json& p = ma->metadata["privacy"];
  EXPECT_TRUE(p["epsilon"].is_null());
  EXPECT_TRUE(p["delta"].is_null());
  EXPECT_TRUE(p["differential_privacy"].is_null());
  EXPECT_EQ(p["model_differentially_private"], false);
  EXPECT_EQ(p["vocabulary_private"], false);
  EXPECT_NEAR(p["final_count_noise"]["sigma"].get<double>(), 20, 1e-6);
  EXPECT_THAT(p["final_count_noise"]["guarantee"].get<std::string>(),
              HasSubstr("NO differential-privacy guarantee"));
  EXPECT_THAT(p["leakage"].get<std::string>(), HasSubstr("vocabulary is NOT private"));
  std::vector<std::string> budgets;
  FindBudgets(ma->metadata, "metadata", &budgets);
  EXPECT_THAT(budgets, ::testing::IsEmpty());
  for (int64_t c : ma->topic_term_counts) EXPECT_GE(c, 0);
  // Without --quiet the warnings and the statement are the same.
  auto loud = RunPplda(common + Path("c.json"));
  ASSERT_EQ(loud.exit_code, 0) << loud.output;
  EXPECT_THAT(loud.output, ::testing::Not(::testing::ContainsRegex("epsilon [0-9]")));
}

TEST_F(PpldaCliTest, DpVocabularyBudgetCoversTheVocabularyOnly) {
  // Each document contributes its 5 most frequent terms: "sailing" and "law"
  // (once per document) are never contributed, so they cannot be selected.
  auto r = RunPplda("--quiet train --input " + Path("docs") +
                    " --topics 2 --iterations 30 --dp-vocab-epsilon 50 --dp-vocab-max-terms 5 "
                    "--out " + Path("v.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("differential privacy: (50, 1e-05)-DP for the vocabulary only "
                                  "(DP set union: the list of terms); the topic-term counts are "
                                  "NOT covered"));
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("vocabulary and model")));
  EXPECT_THAT(r.output, HasSubstr("privacy unit: one .txt file of the input folder"));
  EXPECT_THAT(r.output, HasSubstr("g documents (e.g. of one author) are covered only by group "
                                  "privacy"));
  EXPECT_THAT(r.output, HasSubstr("counts of the model are NOT differentially private (they are "
                                  "exact; --dp-epsilon trains them with DP)"));
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("vocabulary of the model is NOT private")));
  auto m = pplda::lda::ReadModelFile(Path("v.json"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->vocabulary.size(), 10);
  EXPECT_FALSE(m->vocabulary.Find("sailing").has_value());
  EXPECT_FALSE(m->vocabulary.Find("law").has_value());
  EXPECT_TRUE(m->vocabulary.Find("harbour").has_value());
  const nlohmann::json& p = m->metadata["privacy"];
  EXPECT_EQ(p["vocabulary_private"], true);
  EXPECT_TRUE(p["epsilon"].is_null());  // the model as a whole: no guarantee
  EXPECT_TRUE(p["final_count_noise"].is_null());
  EXPECT_EQ(p["differential_privacy"]["epsilon"], 50.0);
  EXPECT_THAT(p["differential_privacy"]["covers"].get<std::string>(),
              HasSubstr("NOT the topic-term counts"));
  ASSERT_EQ(p["differential_privacy"]["releases"].size(), 1u);
  EXPECT_EQ(p["differential_privacy"]["releases"][0]["release"], "vocabulary");
  EXPECT_EQ(p["differential_privacy"]["privacy_unit"]["unit"], "document");
  EXPECT_EQ(m->metadata["corpus"]["preprocessing"]["min_df"], 1);
}

// With --split the unit is the window, not the file, and the group-privacy
// bound for a whole file is stated in the output and the model file.
TEST_F(PpldaCliTest, WithSplitThePrivacyUnitIsTheWindow) {
  auto r = RunPplda("--quiet train --input " + Path("docs") +
                    " --split sentences --window-words 4 --topics 2 --iterations 10 "
                    "--dp-vocab-epsilon 50 --dp-vocab-max-terms 3 --out " + Path("w.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("privacy unit: one window of whole sentences of at most 4 "
                                  "words (--split sentences; a longer sentence is its own "
                                  "window), not the source file it was cut from"));
  EXPECT_THAT(r.output, HasSubstr("A source file cut into g sentence windows is covered only by "
                                  "group privacy, (g * 50, g * e^((g - 1) * 50) * 1e-05)-DP"));
  EXPECT_THAT(r.output, HasSubstr("nothing (delta >= 1) from g = 2"));
  auto m = pplda::lda::ReadModelFile(Path("w.json"));
  ASSERT_TRUE(m.ok()) << m.status();
  const nlohmann::json& unit = m->metadata["privacy"]["differential_privacy"]["privacy_unit"];
  EXPECT_EQ(unit["unit"], "sentence window");
  EXPECT_EQ(unit["adjacency"], "add or remove one sentence window");
  EXPECT_THAT(unit["group_privacy"].get<std::string>(),
              HasSubstr("(g epsilon, g e^((g-1) epsilon) delta)-DP"));
  EXPECT_EQ(unit["group_privacy_vacuous_from_units"], 2);
}

TEST_F(PpldaCliTest, DpOptionErrorsNameTheFlag) {
  // Every bad DP training option is refused with the flag named; nothing is
  // written.
  const std::string train = "train --input " + Path("docs") + " --iterations 10 --out " +
                            Path("m.json") + " ";
  const std::pair<std::string, std::string> cases[] = {
      {"--dp-epsilon -1", "--dp-epsilon"},
      {"--dp-epsilon 0", "must be in (0, 1000] (--dp-epsilon), got 0"},
      {"--dp-epsilon 5000", "--dp-epsilon"},
      {"--dp-epsilon 1 --dp-delta 0.7", "--dp-delta"},
      {"--dp-epsilon 1 --dp-delta 0", "--dp-delta"},
      {"--dp-epsilon 1 --dp-max-tokens 0", "--dp-max-tokens"},
      {"--dp-epsilon 1 --dp-max-term-count 0", "--dp-max-term-count"},
      {"--dp-epsilon 1 --dp-noisy-iterations 11", "--dp-noisy-iterations"},
      {"--dp-epsilon 1 --dp-noisy-iterations 1", "--dp-noisy-iterations"},
      {"--dp-delta 1e-6", "--dp-delta is an option of DP training, which needs --dp-epsilon"},
      {"--dp-max-tokens 20", "--dp-max-tokens is an option of DP training"},
      {"--dp-max-term-count 2", "--dp-max-term-count is an option of DP training"},
      {"--dp-noisy-iterations 5", "--dp-noisy-iterations is an option of DP training"},
      {"--dp-epsilon 1 --sampler standard", "--sampler standard cannot be used with --dp-epsilon"},
      {"--dp-epsilon 1 --final-noise-sigma 3",
       "--final-noise-sigma cannot be combined with --dp-epsilon"},
      {"--dp-epsilon 1 --dp-vocab-epsilon 2", "--dp-vocab-epsilon (2) and --dp-vocab-delta"},
      {"--dp-epsilon 1 --mixtures " + Path("mix.csv"), "--mixtures cannot be used with --dp-epsilon"},
  };
  for (const auto& [options, message] : cases) {
    auto r = RunPplda(train + options);
    // 1 for an error of the command, 105 for a value outside the flag's
    // range (cli/number_flags.h, checked while parsing).
    EXPECT_THAT(r.exit_code, ::testing::AnyOf(1, 105)) << options;
    EXPECT_THAT(r.output, HasSubstr(message)) << options;
  }
  EXPECT_FALSE(fs::exists(dir_ / "m.json"));
  EXPECT_FALSE(fs::exists(dir_ / "mix.csv"));
  ASSERT_EQ(RunPplda("--quiet prepare --input " + Path("docs") + " --out " + Path("prepared"))
                .exit_code,
            0);
  auto r = RunPplda("train --input " + Path("prepared") + " --dp-vocab-epsilon 1 --out " +
               Path("m.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("--dp-vocab-epsilon needs raw documents"));
  r = RunPplda("train --input " + Path("docs") + " --dp-vocab-epsilon 0.01 --out " +
               Path("m.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("kept none of the"));
  r = RunPplda("train --input " + Path("docs") + " --no-preprocess --dp-vocab-epsilon 1 --out " +
               Path("m.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("--dp-vocab-epsilon cannot be combined with --no-preprocess"));
  EXPECT_NE(RunPplda("train --input " + Path("docs") + " --final-noise-sigma -1").exit_code, 0);
  EXPECT_NE(RunPplda("train --input " + Path("docs") + " --dp-vocab-delta 0.7").exit_code, 0);
  EXPECT_FALSE(fs::exists(dir_ / "m.json"));
}

// DP training for the whole run: the model file records the budget (the
// run's (epsilon, delta), rho per iteration, T, R, L, c, the conversion, the
// privacy unit) and no exact statistic; `pplda topics` prints the budget, in
// text and JSON. With the DP vocabulary the model as a whole is DP; without,
// the counts are covered given the vocabulary and pplda says the vocabulary
// is not.
TEST_F(PpldaCliTest, DpTrainingRecordsTheBudgetAndTopicsPrintsIt) {
  auto r = RunPplda("--quiet train --input " + Path("docs") +
                    " --topics 2 --iterations 12 --dp-noisy-iterations 4 --dp-epsilon 100 "
                    "--dp-vocab-epsilon 50 --dp-vocab-max-terms 5 --dp-max-tokens 8 "
                    "--dp-max-term-count 2 --out " + Path("dp.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("differential privacy: (100, 1e-05)-DP for the whole model "
                                  "(DP vocabulary and DP-trained topic-term counts)"));
  EXPECT_THAT(r.output, HasSubstr("DP training: 4 noisy iterations, discrete Gaussian sigma"));
  EXPECT_THAT(r.output, HasSubstr("(L2 sensitivity sqrt(16): L = 8, c = 2)"));
  EXPECT_THAT(r.output, HasSubstr("converted by Bun-Steinke Prop. 1.3"));
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("NOT private")));
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("NOT differentially private")));
  EXPECT_THAT(ExactStatisticsIn(Path("dp.json")), ::testing::IsEmpty());
  auto m = pplda::lda::ReadModelFile(Path("dp.json"));
  ASSERT_TRUE(m.ok()) << m.status();
  for (int64_t c : m->topic_term_counts) EXPECT_GE(c, 0);
  const nlohmann::json& p = m->metadata["privacy"];
  EXPECT_EQ(p["model_differentially_private"], true);
  EXPECT_EQ(p["counts_private"], true);
  EXPECT_LE(p["epsilon"].get<double>(), 100.0);
  EXPECT_GE(p["epsilon"].get<double>(), 99.999);
  EXPECT_EQ(p["delta"].get<double>(), 1e-5);
  const nlohmann::json& dp = p["differential_privacy"];
  EXPECT_THAT(dp["covers"].get<std::string>(), HasSubstr("the whole published model"));
  EXPECT_THAT(dp["conversion"].get<std::string>(), HasSubstr("Bun & Steinke 2016, Prop. 1.3"));
  EXPECT_EQ(dp["budget"]["epsilon"], 100.0);
  EXPECT_EQ(dp["privacy_unit"]["unit"], "document");
  ASSERT_EQ(dp["releases"].size(), 2u);
  EXPECT_EQ(dp["releases"][0]["release"], "vocabulary");
  EXPECT_EQ(dp["releases"][1]["count"], 4);
  EXPECT_GT(dp["releases"][1]["rho"].get<double>(), 0);
  const nlohmann::json& t = p["dp_training"];
  EXPECT_EQ(t["iterations"], 12);
  EXPECT_EQ(t["noisy_iterations"], 4);
  EXPECT_EQ(t["max_tokens_per_document"], 8);
  EXPECT_EQ(t["max_tokens_per_term"], 2);
  EXPECT_EQ(t["l2_sensitivity_squared"], 16);
  EXPECT_NEAR(t["rho_total"].get<double>(), 4 * t["rho_per_iteration"].get<double>(), 1e-12);
  EXPECT_THAT(t["clamping"].get<std::string>(), HasSubstr("negative noisy counts set to 0"));
  EXPECT_THAT(m->metadata["training"]["seed"].get<std::string>(), HasSubstr("secret"));
  EXPECT_EQ(m->metadata["training"]["sampler"], "batched");

  auto topics = RunPplda("topics --model " + Path("dp.json"));
  ASSERT_EQ(topics.exit_code, 0) << topics.output;
  EXPECT_THAT(topics.output, HasSubstr("privacy: (100, 1e-05)-DP for the whole model"));
  EXPECT_THAT(topics.output, HasSubstr("privacy unit: one document"));
  EXPECT_THAT(topics.output, HasSubstr("DP training: 4 noisy iterations of 12"));
  EXPECT_THAT(topics.output, HasSubstr("L = 8 tokens, c = 2 per term"));
  auto topics_json = RunPplda("topics --json --model " + Path("dp.json"));
  ASSERT_EQ(topics_json.exit_code, 0) << topics_json.output;
  const nlohmann::json tj = nlohmann::json::parse(topics_json.output);
  EXPECT_EQ(tj["privacy"]["differentially_private"], true);
  EXPECT_EQ(tj["privacy"]["delta"], 1e-5);
  EXPECT_EQ(tj["privacy"]["noisy_iterations"], 4);

  // Counts only: covered given the vocabulary, which is not private.
  auto c = RunPplda("--quiet train --input " + Path("docs") +
                    " --min-df 1 --max-df 1.0 --topics 2 --iterations 6 --dp-epsilon 4 --out " +
                    Path("c.json"));
  ASSERT_EQ(c.exit_code, 0) << c.output;
  EXPECT_THAT(c.output, HasSubstr("differential privacy: (4, 1e-05)-DP for the topic-term counts "
                                  "given the vocabulary; the vocabulary is NOT covered"));
  EXPECT_THAT(c.output, HasSubstr("warning: the vocabulary of the model is NOT private"));
  auto mc = pplda::lda::ReadModelFile(Path("c.json"));
  ASSERT_TRUE(mc.ok()) << mc.status();
  EXPECT_EQ(mc->metadata["privacy"]["model_differentially_private"], false);
  EXPECT_TRUE(mc->metadata["privacy"]["epsilon"].is_null());
  // The defaults when no cap or release count is given (cli/dp_flags.h):
  // L = 20, c = 1, and every one of the 6 iterations released (fewer than 10).
  const nlohmann::json& ct = mc->metadata["privacy"]["dp_training"];
  EXPECT_EQ(ct["max_tokens_per_document"], 20);
  EXPECT_EQ(ct["max_tokens_per_term"], 1);
  EXPECT_EQ(ct["noisy_iterations"], 6);
  EXPECT_THAT(mc->metadata["privacy"]["differential_privacy"]["covers"].get<std::string>(),
              HasSubstr("NOT the vocabulary"));
  auto tc = RunPplda("topics --model " + Path("c.json"));
  EXPECT_THAT(tc.output, HasSubstr("(the model as a whole is NOT DP)"));
  // A model without privacy options says it has no guarantee.
  ASSERT_EQ(RunPplda("--quiet train --input " + Path("docs") + " --topics 2 --iterations 5 --out " +
                     Path("plain.json"))
                .exit_code,
            0);
  EXPECT_THAT(RunPplda("topics --model " + Path("plain.json")).output,
              HasSubstr("privacy: no differential-privacy budget recorded; the model has NO DP "
                        "guarantee"));
}

// Parties a, b, c of 60 documents each over the two themes (each theme term
// in 90 documents), each document with a word of its own; returns the
// --party flags.
std::string WriteThemeParties(const fs::path& dir) {
  for (const char* party : {"a", "b", "c"}) {
    fs::create_directories(dir / party);
    for (int i = 0; i < 60; ++i) {
      std::ofstream f(dir / party / ("doc" + std::to_string(i) + ".txt"));
      f << (i % 2 == 0 ? "river water boat fishing river water boat fishing"
                       : "election senate voting ballot election senate voting ballot")
        << " uniq" << party << i << "\n";  // each party its own documents
    }
  }
  return " --party A=" + (dir / "a").string() + " --party B=" + (dir / "b").string() +
         " --party C=" + (dir / "c").string();
}

// `pplda vocab`: the terms of public documents, and the secure DP selection
// from them: 3 parties of 60 documents each over two themes, every theme
// term in 90 documents, far above the threshold given; the words in one
// document each are never among a document's 4 most frequent.
TEST_F(PpldaCliTest, VocabWritesPublicTermsAndTheSecureDpSelection) {
  auto plain = RunPplda("--quiet vocab --input " + Path("docs") +
                        " --min-df 1 --max-df 1.0 --out " + Path("candidates.txt"));
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_THAT(plain.output, HasSubstr("not differentially private"));
  std::ofstream(Path("candidates.txt"), std::ios::app) << "uniq0\nunused\n";
  const std::string parties = WriteThemeParties(dir_);
  auto dp = RunPplda("--quiet vocab --dp --candidates " + Path("candidates.txt") + parties +
                     " --dp-vocab-epsilon 8 --dp-vocab-max-terms 4 --dp-vocab-threshold 40 "
                     "--key-bits 1024 --out " +
                     Path("dp-vocab.txt"));
  ASSERT_EQ(dp.exit_code, 0) << dp.output;
  EXPECT_THAT(dp.output, HasSubstr("8 of 14 candidate terms selected"));
  EXPECT_THAT(dp.output, HasSubstr("-DP for the vocabulary"));
  auto vocab = pplda::lda::ReadVocabularyFile(Path("dp-vocab.txt"));
  ASSERT_TRUE(vocab.ok()) << vocab.status();
  EXPECT_EQ(vocab->terms(), (std::vector<std::string>{"ballot", "boat", "election", "fishing",
                                                      "river", "senate", "voting", "water"}));
  std::ifstream record_file(Path("dp-vocab.txt.privacy.json"));
  const nlohmann::json record = nlohmann::json::parse(record_file);
  EXPECT_EQ(record["format"], "pplda-dp-vocabulary");
  EXPECT_LE(record["epsilon"].get<double>(), 8.0);
  EXPECT_EQ(record["mechanism"]["threshold"], 40);
  EXPECT_EQ(record["mechanism"]["distributed_noise"]["noise_parties"], 3);
  // The parties are folders: the unit is one .txt file, not a line.
  EXPECT_EQ(record["privacy_unit"]["description"],
            "one .txt file of the input folder (one document)");

  // Bad uses are refused, naming what to change.
  auto r = RunPplda("vocab --dp" + parties + " --out " + Path("x.txt"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("--dp needs --candidates"));
  r = RunPplda("vocab --input " + Path("docs") + parties + " --out " + Path("x.txt"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("add --dp"));
  r = RunPplda("vocab --dp --candidates " + Path("candidates.txt") + parties + " --out " +
               Path("candidates.txt"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(fs::exists(dir_ / "x.txt"));
  // A folder party and a file party hold documents of different kinds.
  {
    std::ofstream lines(Path("lines.txt"));
    for (int i = 0; i < 30; ++i) lines << "river water boat fishing\n";
  }
  r = RunPplda("vocab --dp --candidates " + Path("candidates.txt") + " --party A=" + Path("a") +
               " --party L=" + Path("lines.txt") + " --key-bits 1024 --out " + Path("y.txt"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("hold documents of different kinds"));
}

// `pplda simulate --dp-vocab-epsilon`: the secure DP vocabulary is part of
// the run's budget, and the model is DP as a whole.
TEST_F(PpldaCliTest, SimulateWithTheSecureDpVocabularyIsDpAsAWhole) {
  ASSERT_EQ(RunPplda("--quiet vocab --input " + Path("docs") + " --min-df 1 --max-df 1.0 --out " +
                     Path("candidates.txt"))
                .exit_code,
            0);
  const std::string parties = WriteThemeParties(dir_);
  const std::string common = "--quiet simulate" + parties +
                             " --topics 2 --iterations 2 --key-bits 1024 --out " + Path("m.json");
  auto r = RunPplda(common +
                    " --dp-epsilon 8 --dp-vocab-epsilon 4 --dp-vocab-max-terms 4 "
                    "--dp-vocab-threshold 40 --dp-vocab-candidates " +
                    Path("candidates.txt"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("(8, 1e-05)-DP for the whole model"));
  auto model = pplda::lda::ReadModelFile(Path("m.json"));
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->vocabulary.size(), 8);
  const nlohmann::json& privacy = model->metadata["privacy"];
  EXPECT_TRUE(privacy["model_differentially_private"].get<bool>());
  EXPECT_TRUE(privacy["vocabulary_private"].get<bool>());
  EXPECT_LE(privacy["epsilon"].get<double>(), 8.0);
  EXPECT_THAT(privacy["leakage"].get<std::string>(), HasSubstr("the vocabulary included"));
  EXPECT_EQ(privacy["dp_vocabulary"]["threshold"], 40);
  // The vocabulary's release comes first in the run's accountant.
  EXPECT_EQ(privacy["differential_privacy"]["releases"][0]["release"], "vocabulary");

  r = RunPplda(common + " --dp-epsilon 8 --dp-vocab-epsilon 4");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("give --dp-vocab-candidates"));
  r = RunPplda(common + " --dp-epsilon 8 --dp-vocab-candidates " + Path("candidates.txt"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("add --dp-vocab-epsilon"));
  r = RunPplda(common + " --dp-vocab-epsilon 4 --dp-vocab-candidates " + Path("candidates.txt"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("would publish exact counts"));
}

// A consortium file's committee (compute and both) gets the shares, in file
// order; its data holders get none, and are named.
TEST_F(PpldaCliTest, KeysDealToAConsortiumDealsToItsCommitteeOnly) {
  std::string text =
      "[consortium]\nname = \"big\"\nca_fingerprint = \"" + std::string(64, 'c') + "\"\n\n";
  const std::vector<std::pair<std::string, std::string>> entries = {
      {"coord", "coordinator"}, {"c0", "compute"}, {"h0", "data"},
      {"c1", "both"},           {"h1", "data"},    {"c2", "compute"}};
  for (size_t i = 0; i < entries.size(); ++i) {
    text += "[[participant]]\nname = \"" + entries[i].first + "\"\nrole = \"" + entries[i].second +
            "\"\naddress = \"h:" + std::to_string(7000 + i) + "\"\ncert_fingerprint = \"" +
            std::string(63, 'a') + std::to_string(i) + "\"\n\n";
  }
  std::ofstream(Path("consortium.toml")) << text;
  const RunResult r = RunPplda("keys deal --bits 1024 --consortium " + Path("consortium.toml") +
                               " --out " + Path("keys"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("2-of-3 threshold"));
  EXPECT_THAT(r.output, AllOf(HasSubstr("h0 is a data holder (role data): no key share"),
                              HasSubstr("h1 is a data holder")));
  EXPECT_THAT(r.output,
              AllOf(HasSubstr("party 0 c0"), HasSubstr("party 1 c1"), HasSubstr("party 2 c2")));
  for (const char* member : {"c0", "c1", "c2"}) {
    EXPECT_TRUE(fs::exists(dir_ / "keys" / (std::string(member) + ".key"))) << member;
  }
  EXPECT_FALSE(fs::exists(dir_ / "keys" / "h0.key"));
  EXPECT_FALSE(fs::exists(dir_ / "keys" / "h1.key"));
  EXPECT_FALSE(fs::exists(dir_ / "keys" / "coord.key"));

  const RunResult both = RunPplda("keys deal --bits 1024 --party a --consortium " +
                                  Path("consortium.toml") + " --out " + Path("keys2"));
  EXPECT_NE(both.exit_code, 0);
  EXPECT_THAT(both.output, HasSubstr("excludes"));
  const RunResult neither = RunPplda("keys deal --bits 1024 --out " + Path("keys3"));
  EXPECT_NE(neither.exit_code, 0);
  EXPECT_THAT(neither.output,
              HasSubstr("--party NAME (repeat, in consortium order) or --consortium"));
  EXPECT_FALSE(fs::exists(dir_ / "keys2"));
  EXPECT_FALSE(fs::exists(dir_ / "keys3"));
}

}  // namespace

// Runs the real `pplda` binary on tiny corpora written by the test: the
// prepare -> train -> topics -> evaluate pipeline, and the error paths a
// user meets (missing input, bad options, malformed model file).
#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lda/model_file.h"
#include "nlohmann/json.hpp"
#include "tests/cli/cli_test_util.h"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

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
  for (const char* party : {"a", "b", "c"}) fs::create_directories(dir_ / party);
  for (int i = 0; i < 24; ++i) {
    const char* party = i % 3 == 0 ? "a" : (i % 3 == 1 ? "b" : "c");
    fs::copy_file(dir_ / "docs" / ("doc" + std::to_string(100 + i) + ".txt"),
                  dir_ / party / ("doc" + std::to_string(i) + ".txt"));
  }
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

TEST_F(PpldaCliTest, TrainWithDpNoiseRecordsTheBudget) {
  const std::string common = "--quiet train --input " + Path("docs") +
                             " --min-df 1 --max-df 1.0 --topics 2 --iterations 30 --max-tokens 8 "
                             "--dp-epsilon 2 --dp-delta 1e-6 --out ";
  auto a = RunPplda(common + Path("a.json"));
  ASSERT_EQ(a.exit_code, 0) << a.output;
  EXPECT_THAT(a.output, HasSubstr("differential privacy: epsilon 2, delta 1e-06 spent (model)"));
  ASSERT_EQ(RunPplda(common + Path("b.json")).exit_code, 0);
  auto ma = pplda::lda::ReadModelFile(Path("a.json"));
  auto mb = pplda::lda::ReadModelFile(Path("b.json"));
  ASSERT_TRUE(ma.ok() && mb.ok()) << ma.status();
  // The noise comes from the OS CSPRNG, not the seed: two runs differ.
  EXPECT_NE(ma->topic_term_counts, mb->topic_term_counts);
  const nlohmann::json& p = ma->metadata["privacy"];
  EXPECT_EQ(p["epsilon"], 2.0);
  EXPECT_EQ(p["delta"], 1e-6);
  EXPECT_EQ(p["vocabulary_private"], false);
  const nlohmann::json& release = p["differential_privacy"]["releases"][0];
  EXPECT_EQ(release["release"], "topic_term_counts");
  EXPECT_EQ(release["parameters"]["max_tokens_per_document"], 8);
  EXPECT_THAT(p["leakage"].get<std::string>(), HasSubstr("NOT private"));
  for (int64_t c : ma->topic_term_counts) EXPECT_GE(c, 0);
}

TEST_F(PpldaCliTest, TrainWithDpVocabularyKeepsOnlyCommonContributedTerms) {
  // Each document contributes its 5 most frequent terms: "sailing" and "law"
  // (once per document) are never contributed, so they cannot be selected.
  auto r = RunPplda("--quiet train --input " + Path("docs") +
                    " --topics 2 --iterations 30 --dp-vocab-epsilon 50 --dp-vocab-max-terms 5 "
                    "--out " + Path("v.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto m = pplda::lda::ReadModelFile(Path("v.json"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->vocabulary.size(), 10);
  EXPECT_FALSE(m->vocabulary.Find("sailing").has_value());
  EXPECT_FALSE(m->vocabulary.Find("law").has_value());
  EXPECT_TRUE(m->vocabulary.Find("harbour").has_value());
  EXPECT_EQ(m->metadata["privacy"]["vocabulary_private"], true);
  EXPECT_EQ(m->metadata["privacy"]["epsilon"], 50.0);
  EXPECT_EQ(m->metadata["corpus"]["preprocessing"]["min_df"], 1);
}

TEST_F(PpldaCliTest, DpOptionErrorsNameTheFlag) {
  auto r = RunPplda("train --input " + Path("docs") + " --dp-epsilon 1 --out " + Path("m.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("--dp-epsilon needs --max-tokens L"));
  ASSERT_EQ(RunPplda("--quiet prepare --input " + Path("docs") + " --out " + Path("prepared"))
                .exit_code,
            0);
  r = RunPplda("train --input " + Path("prepared") + " --dp-vocab-epsilon 1 --out " +
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
  EXPECT_NE(RunPplda("train --input " + Path("docs") + " --dp-epsilon -1").exit_code, 0);
  EXPECT_NE(RunPplda("train --input " + Path("docs") + " --dp-delta 0.7").exit_code, 0);
  EXPECT_FALSE(fs::exists(dir_ / "m.json"));
}

}  // namespace

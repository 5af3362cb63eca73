// ReadVocabularyFile: blank lines and CRLF are accepted; text that is not
// UTF-8, a term holding whitespace, a duplicate and an empty list are
// refused naming the file and the line (fuzz_document_reader found the
// first two accepted silently).
#include "lda/vocabulary_file.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::lda {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class VocabularyFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& text) {
    const std::string path = (std::filesystem::path(::testing::TempDir()) /
                              ("vocabulary_file_test." + std::to_string(getpid()) + ".txt"))
                                 .string();
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    return path;
  }
  void ExpectRefused(const std::string& text, const std::string& message) {
    const std::string path = Write(text);
    const absl::StatusOr<Vocabulary> v = ReadVocabularyFile(path);
    EXPECT_EQ(v.status().code(), absl::StatusCode::kInvalidArgument) << v.status();
    EXPECT_THAT(v.status().message(), HasSubstr(path)) << v.status();
    EXPECT_THAT(v.status().message(), HasSubstr(message)) << v.status();
  }
};

TEST_F(VocabularyFileTest, ReadsTermsInLineOrder) {
  const absl::StatusOr<Vocabulary> v = ReadVocabularyFile(Write("apple\r\n\nbanana\ncaf\xC3\xA9\n"));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_THAT(v->terms(), ElementsAre("apple", "banana", "caf\xC3\xA9"));
}

TEST_F(VocabularyFileTest, RefusesWhatNoModelOrTokenCanHold) {
  ExpectRefused("apple\nbad \xC3\x28 utf8\n", ":2: invalid UTF-8");
  ExpectRefused("apple\nbanana \n", ":2: term");
  ExpectRefused("apple\nbanana \n", "holds whitespace");
  ExpectRefused("apple\ntwo\twords\n", "holds whitespace");
  ExpectRefused("apple\nbanana\napple\n", ":3: term \"apple\" already appears on line 1");
  ExpectRefused("\n\r\n", "the vocabulary is empty");
}

TEST_F(VocabularyFileTest, MissingFileIsNotFound) {
  EXPECT_EQ(ReadVocabularyFile("/nonexistent/vocabulary.txt").status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace pplda::lda

#include "lda/uci_bag_of_words.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lda/document_reader.h"
#include "tests/lda/corpus_test_util.h"

namespace pplda::lda {
namespace {

using ::pplda::lda::testing_util::ScratchDir;
using ::pplda::lda::testing_util::StatusIs;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr char kVocab[] = "apple\nbanana\ncherry\n";

// Reads docword.t.txt (+ vocab.t.txt) written with the given contents.
absl::StatusOr<RawCorpus> ReadPair(const ScratchDir& dir, const std::string& docword,
                                   const std::string& vocab = kVocab) {
  const std::string path = dir.Write("docword.t.txt", docword);
  dir.Write("vocab.t.txt", vocab);
  return ReadDocuments(path, ReadOptions{});
}

TEST(UciReaderTest, ExpandsBagsInDocumentOrder) {
  ScratchDir dir;
  // Document 3 comes first in the file, document 2 has no entries.
  auto corpus = ReadPair(dir, "4\n3\n5\n3 3 1\n1 1 2\n1 3 1\r\n\n4 2 3\n1 1 1\n");
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  ASSERT_EQ(corpus->documents.size(), 3u);
  const RawDocument& d1 = corpus->documents[0];
  EXPECT_EQ(d1.name, "docword.t.txt#1");
  EXPECT_TRUE(d1.pretokenized);
  EXPECT_THAT(d1.text, IsEmpty());
  EXPECT_THAT(d1.words, ElementsAre("apple", "apple", "cherry", "apple"));
  EXPECT_EQ(corpus->documents[1].name, "docword.t.txt#3");
  EXPECT_THAT(corpus->documents[1].words, ElementsAre("cherry"));
  EXPECT_EQ(corpus->documents[2].name, "docword.t.txt#4");
  EXPECT_THAT(corpus->documents[2].words, ElementsAre("banana", "banana", "banana"));
  EXPECT_EQ(corpus->report.files, 1);
  EXPECT_EQ(corpus->report.documents, 3);
  EXPECT_EQ(corpus->report.skipped_empty, 1);
  EXPECT_THAT(corpus->report.warnings,
              ElementsAre(testing::HasSubstr("document 2 has no words")));
}

TEST(UciReaderTest, ExplicitVocabularyPath) {
  ScratchDir dir;
  const std::string docword = dir.Write("counts.txt", "1\n2\n1\n1 2 2\n");
  ReadOptions options;
  options.format = InputFormat::kUci;
  options.uci_vocab_path = dir.Write("words.txt", "  x  \ny\n\n");
  auto corpus = ReadDocuments(docword, options);
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(corpus->documents[0].words, ElementsAre("y", "y"));
  EXPECT_EQ(corpus->documents[0].name, "counts.txt#1");
}

struct BadCase {
  std::string label, docword, vocab;
  std::vector<std::string> fragments;
};

TEST(UciReaderTest, MalformedInputNamesFileAndLine) {
  const BadCase cases[] = {
      {"header not a number", "x\n3\n1\n1 1 1\n", kVocab, {"docword.t.txt:1", "D (number"}},
      {"header zero docs", "0\n3\n1\n1 1 1\n", kVocab, {"docword.t.txt:1", ">= 1"}},
      {"header two fields", "1\n3 4\n1\n1 1 1\n", kVocab, {"docword.t.txt:2", "W (vocab"}},
      {"header negative nnz", "1\n3\n-1\n", kVocab, {"docword.t.txt:3", "NNZ"}},
      {"short header", "1\n3\n", kVocab, {"docword.t.txt", "fewer than the three"}},
      {"two fields", "1\n3\n1\n1 1\n", kVocab, {"docword.t.txt:4", "three integers"}},
      {"text field", "1\n3\n1\n1 one 1\n", kVocab, {"docword.t.txt:4", "\"1 one 1\""}},
      {"doc id zero", "2\n3\n1\n0 1 1\n", kVocab, {"docword.t.txt:4", "docID 0", "1..2"}},
      {"doc id too big", "2\n3\n1\n3 1 1\n", kVocab, {"docword.t.txt:4", "docID 3"}},
      {"word id too big", "2\n3\n2\n1 1 1\n2 4 1\n", kVocab, {"docword.t.txt:5", "wordID 4"}},
      {"count zero", "1\n3\n1\n1 1 0\n", kVocab, {"docword.t.txt:4", "count 0"}},
      {"count negative", "1\n3\n1\n1 1 -2\n", kVocab, {"docword.t.txt:4", "count -2"}},
      {"nnz mismatch", "1\n3\n3\n1 1 1\n1 2 1\n", kVocab,
       {"docword.t.txt:3", "NNZ = 3", "2 data lines"}},
      {"vocab too short", "1\n4\n1\n1 1 1\n", kVocab, {"vocab.t.txt", "3 words", "W = 4"}},
      {"vocab too long", "1\n2\n1\n1 1 1\n", kVocab, {"vocab.t.txt", "3 words", "W = 2"}},
      {"vocab blank inside", "1\n3\n1\n1 1 1\n", "a\n\nb\nc\n", {"vocab.t.txt:2", "blank line"}},
      {"vocab duplicate", "1\n3\n1\n1 1 1\n", "a\nb\na\n", {"vocab.t.txt:3", "line 1"}},
      {"vocab bad utf8", "1\n3\n1\n1 1 1\n", "a\nb\xFF\nc\n", {"vocab.t.txt:2", "UTF-8"}},
  };
  for (const BadCase& c : cases) {
    ScratchDir dir;
    EXPECT_TRUE(StatusIs(ReadPair(dir, c.docword, c.vocab), absl::StatusCode::kInvalidArgument,
                         c.fragments))
        << c.label;
  }
}

TEST(UciReaderTest, MissingVocabularyFile) {
  ScratchDir dir;
  const std::string path = dir.Write("docword.kos.txt", "1\n1\n1\n1 1 1\n");
  EXPECT_TRUE(StatusIs(ReadDocuments(path, ReadOptions{}), absl::StatusCode::kNotFound,
                       {"vocab.kos.txt"}));
}

TEST(UciReaderTest, UnderivableVocabularyCompressedAndSplitAreRejected) {
  ScratchDir dir;
  ReadOptions uci;
  uci.format = InputFormat::kUci;
  const std::string plain = dir.Write("counts.txt", "1\n1\n1\n1 1 1\n");
  EXPECT_TRUE(StatusIs(ReadDocuments(plain, uci), absl::StatusCode::kInvalidArgument,
                       {"counts.txt", "docword.X.txt"}));
  dir.Write("vocab.kos.txt.gz", "a\n");
  const std::string gz = dir.Write("docword.kos.txt.gz", "\x1F\x8B");
  EXPECT_TRUE(StatusIs(ReadDocuments(gz, ReadOptions{}), absl::StatusCode::kInvalidArgument,
                       {"docword.kos.txt.gz", "unpack"}));
  uci.split = SplitMode::kSentences;
  EXPECT_TRUE(StatusIs(ReadDocuments(plain, uci), absl::StatusCode::kInvalidArgument,
                       {"--split", "UCI"}));
}

TEST(UciReaderTest, ExpansionBeyondCorpusLimitIsRejected) {
  ScratchDir dir;
  const std::string path = dir.Write("docword.t.txt", "1\n3\n1\n1 2 1000000000000\n");
  dir.Write("vocab.t.txt", kVocab);
  ReadOptions options;
  options.max_corpus_bytes = 1 << 20;
  EXPECT_TRUE(StatusIs(ReadDocuments(path, options), absl::StatusCode::kInvalidArgument,
                       {"docword.t.txt", "corpus limit"}));
}

// A 30-byte file declaring a billion tokens is refused from its counts,
// before anything is expanded (it used to abort with std::bad_alloc).
TEST(UciReaderTest, HugeCountsAreRefusedBeforeExpansion) {
  ScratchDir dir;
  const std::string path = dir.Write("docword.t.txt", "1\n3\n2\n1 2 1000000000\n1 1 1\n");
  dir.Write("vocab.t.txt", kVocab);
  EXPECT_TRUE(StatusIs(ReadDocuments(path, ReadOptions{}), absl::StatusCode::kInvalidArgument,
                       {"docword.t.txt", "more than 50000000 tokens", "1000000000",
                        "--max-corpus-tokens"}));
  // Exactly at the limit is accepted; one token less is not.
  ReadOptions options;
  options.max_corpus_tokens = 5;
  const std::string small = dir.Write("docword.s.txt", "2\n3\n2\n1 2 3\n2 1 2\n");
  dir.Write("vocab.s.txt", kVocab);
  auto at_limit = ReadDocuments(small, options);
  ASSERT_TRUE(at_limit.ok()) << at_limit.status();
  EXPECT_EQ(at_limit->documents[0].words.size() + at_limit->documents[1].words.size(), 5u);
  options.max_corpus_tokens = 4;
  EXPECT_TRUE(StatusIs(ReadDocuments(small, options), absl::StatusCode::kInvalidArgument,
                       {"docword.s.txt", "more than 4 tokens"}));
  options.max_corpus_tokens = 0;
  EXPECT_FALSE(ReadDocuments(small, options).ok());
}

TEST(UciReaderTest, DeclaredEntriesBeyondTheFileSizeAreRefused) {
  ScratchDir dir;
  EXPECT_TRUE(StatusIs(ReadPair(dir, "1\n3\n1000000000000\n1 1 1\n"),
                       absl::StatusCode::kInvalidArgument,
                       {"docword.t.txt:3", "NNZ = 1000000000000",
                        "a file of 24 bytes holds at most 4"}));
}

}  // namespace
}  // namespace pplda::lda

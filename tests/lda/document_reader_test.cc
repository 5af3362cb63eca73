#include "lda/document_reader.h"

#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lda/text_split.h"
#include "tests/lda/corpus_test_util.h"

namespace pplda::lda {
namespace {

using ::pplda::lda::testing_util::ScratchDir;
using ::pplda::lda::testing_util::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> Names(const RawCorpus& corpus) {
  std::vector<std::string> names;
  for (const auto& d : corpus.documents) names.push_back(d.name);
  return names;
}

std::vector<std::string> Texts(const RawCorpus& corpus) {
  std::vector<std::string> texts;
  for (const auto& d : corpus.documents) texts.push_back(d.text);
  return texts;
}

ReadOptions WithFormat(InputFormat format, SplitMode split = SplitMode::kNone) {
  ReadOptions options;
  options.format = format;
  options.split = split;
  return options;
}

TEST(ParseOptionsTest, NamesRoundTripAndUnknownNamesFail) {
  for (InputFormat f :
       {InputFormat::kAuto, InputFormat::kFolder, InputFormat::kLines, InputFormat::kUci}) {
    EXPECT_EQ(*ParseInputFormat(InputFormatName(f)), f);
  }
  for (SplitMode m : {SplitMode::kNone, SplitMode::kParagraphs, SplitMode::kSentences}) {
    EXPECT_EQ(*ParseSplitMode(SplitModeName(m)), m);
  }
  EXPECT_TRUE(StatusIs(ParseInputFormat("csv"), absl::StatusCode::kInvalidArgument,
                       {"'csv'", "auto, folder, lines or uci"}));
  EXPECT_TRUE(StatusIs(ParseSplitMode("words"), absl::StatusCode::kInvalidArgument,
                       {"'words'", "none, paragraphs or sentences"}));
}

TEST(FolderReaderTest, RecursiveSortedTxtOnly) {
  ScratchDir dir;
  dir.Write("b.txt", "Bee text.\n");
  dir.Write("a/z.txt", "Zed.");
  dir.Write("a/c.TXT", "\xEF\xBB\xBFUpper-case extension, with a BOM.");
  dir.Write("notes.md", "not a document");
  dir.Write("a/image.png", "\x89PNG");
  auto corpus = ReadDocuments(dir.Path(), ReadOptions{});
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(Names(*corpus), ElementsAre("a/c.TXT", "a/z.txt", "b.txt"));
  EXPECT_THAT(Texts(*corpus),
              ElementsAre("Upper-case extension, with a BOM.", "Zed.", "Bee text.\n"));
  const ReadReport& r = corpus->report;
  EXPECT_EQ(r.files, 3);
  EXPECT_EQ(r.documents, 3);
  EXPECT_EQ(r.bytes, 33 + 4 + 10);
  EXPECT_EQ(r.skipped_non_txt, 2);
  EXPECT_EQ(r.skipped_empty, 0);
  EXPECT_THAT(r.warnings, ElementsAre(HasSubstr("not a .txt file"), HasSubstr("not a .txt file")));
  EXPECT_FALSE(corpus->documents[0].pretokenized);
}

TEST(FolderReaderTest, EmptyFilesAreSkippedAndCounted) {
  ScratchDir dir;
  dir.Write("empty.txt", "");
  dir.Write("blank.txt", " \n\t\n");
  dir.Write("full.txt", "words");
  auto corpus = ReadDocuments(dir.Path(), ReadOptions{});
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(Names(*corpus), ElementsAre("full.txt"));
  EXPECT_EQ(corpus->report.files, 3);
  EXPECT_EQ(corpus->report.skipped_empty, 2);
  EXPECT_THAT(corpus->report.warnings,
              ElementsAre("blank.txt: empty file; skipped", "empty.txt: empty file; skipped"));
}

TEST(FolderReaderTest, ParagraphSplit) {
  ScratchDir dir;
  dir.Write("doc.txt", "First para\nline two.\n\n\nSecond para.\n   \nThird.");
  auto corpus = ReadDocuments(dir.Path(), WithFormat(InputFormat::kAuto, SplitMode::kParagraphs));
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(Names(*corpus), ElementsAre("doc.txt#1", "doc.txt#2", "doc.txt#3"));
  EXPECT_THAT(Texts(*corpus), ElementsAre("First para\nline two.", "Second para.", "Third."));
}

TEST(FolderReaderTest, SentenceWindows) {
  ScratchDir dir;
  dir.Write("s.txt", "One two three. Four five! Six seven eight nine ten eleven. End?");
  ReadOptions options = WithFormat(InputFormat::kFolder, SplitMode::kSentences);
  options.window_words = 5;
  auto corpus = ReadDocuments(dir.Path(), options);
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(Names(*corpus), ElementsAre("s.txt#1", "s.txt#2", "s.txt#3"));
  EXPECT_THAT(Texts(*corpus), ElementsAre("One two three. Four five!",
                                          "Six seven eight nine ten eleven.", "End?"));
}

TEST(FolderReaderTest, SingleFileWithFolderFormatIsOneDocument) {
  ScratchDir dir;
  const std::string path = dir.Write("book.txt", "Chapter one.\n\nChapter two.");
  auto corpus = ReadDocuments(path, WithFormat(InputFormat::kFolder, SplitMode::kParagraphs));
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(Names(*corpus), ElementsAre("book.txt#1", "book.txt#2"));
}

TEST(LinesReaderTest, OneDocumentPerNonEmptyLine) {
  ScratchDir dir;
  const std::string path = dir.Write("corpus.txt", "first doc\n\n  \nsecond doc\r\nthird");
  auto corpus = ReadDocuments(path, ReadOptions{});  // auto: a file is lines
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(Names(*corpus), ElementsAre("corpus.txt:1", "corpus.txt:4", "corpus.txt:5"));
  EXPECT_THAT(Texts(*corpus), ElementsAre("first doc", "second doc", "third"));
  EXPECT_EQ(corpus->report.files, 1);
  EXPECT_EQ(corpus->report.skipped_empty, 2);
  EXPECT_THAT(corpus->report.warnings, ElementsAre("corpus.txt: 2 empty lines skipped"));
}

TEST(LinesReaderTest, SentenceWindowsPerLine) {
  ScratchDir dir;
  const std::string path = dir.Write("l.txt", "A b. C d.\nE f g.\n");
  ReadOptions options = WithFormat(InputFormat::kLines, SplitMode::kSentences);
  options.window_words = 2;
  auto corpus = ReadDocuments(path, options);
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(Names(*corpus), ElementsAre("l.txt:1#1", "l.txt:1#2", "l.txt:2#1"));
  EXPECT_THAT(Texts(*corpus), ElementsAre("A b.", "C d.", "E f g."));
}

TEST(LinesReaderTest, ParagraphSplitIsRejected) {
  ScratchDir dir;
  const std::string path = dir.Write("l.txt", "x\n");
  EXPECT_TRUE(StatusIs(ReadDocuments(path, WithFormat(InputFormat::kLines,
                                                      SplitMode::kParagraphs)),
                       absl::StatusCode::kInvalidArgument, {"l.txt", "--format folder"}));
}

TEST(ReaderErrorsTest, MissingPath) {
  ScratchDir dir;
  EXPECT_TRUE(StatusIs(ReadDocuments(dir.Path("nope"), ReadOptions{}),
                       absl::StatusCode::kNotFound, {dir.Path("nope")}));
}

TEST(ReaderErrorsTest, InvalidUtf8NamesFileLineAndOffset) {
  ScratchDir dir;
  dir.Write("good.txt", "fine");
  dir.Write("sub/bad.txt", "line one\nline \xC3\x28 two\n");
  EXPECT_TRUE(StatusIs(ReadDocuments(dir.Path(), ReadOptions{}),
                       absl::StatusCode::kInvalidArgument,
                       {"sub/bad.txt:2", "invalid UTF-8", "byte offset 14"}));
  const std::string lines = dir.Write("lines.txt", "\xEF\xBB\xBFok\n\xFF\n");
  EXPECT_TRUE(StatusIs(ReadDocuments(lines, ReadOptions{}), absl::StatusCode::kInvalidArgument,
                       {"lines.txt:2", "byte offset 6"}));
}

TEST(ReaderErrorsTest, FileAndCorpusSizeLimits) {
  ScratchDir dir;
  dir.Write("a.txt", std::string(40, 'a'));
  dir.Write("b.txt", std::string(40, 'b'));
  ReadOptions options;
  options.max_file_bytes = 39;
  EXPECT_TRUE(StatusIs(ReadDocuments(dir.Path(), options), absl::StatusCode::kInvalidArgument,
                       {"a.txt", "40 bytes", "limit of 39"}));
  options.max_file_bytes = 100;
  options.max_corpus_bytes = 79;
  EXPECT_TRUE(StatusIs(ReadDocuments(dir.Path(), options), absl::StatusCode::kInvalidArgument,
                       {"limit of 79", "b.txt"}));
  options.max_corpus_bytes = 80;
  EXPECT_TRUE(ReadDocuments(dir.Path(), options).ok());
}

TEST(ReaderErrorsTest, NothingToReadNamesWhatWasSkipped) {
  ScratchDir dir;
  dir.Write("empty.txt", "");
  dir.Write("data.csv", "a,b");
  EXPECT_TRUE(StatusIs(ReadDocuments(dir.Path(), ReadOptions{}),
                       absl::StatusCode::kInvalidArgument,
                       {"no documents", "1 empty", "1 non-.txt"}));
  const std::string blank = dir.Write("blank-lines.txt", "\n\n");
  EXPECT_TRUE(StatusIs(ReadDocuments(blank, ReadOptions{}), absl::StatusCode::kInvalidArgument,
                       {"no documents", "blank-lines.txt"}));
}

TEST(ReaderErrorsTest, BadOptions) {
  ScratchDir dir;
  dir.Write("a.txt", "x");
  ReadOptions options;
  options.window_words = 0;
  EXPECT_TRUE(StatusIs(ReadDocuments(dir.Path(), options), absl::StatusCode::kInvalidArgument,
                       {"window_words"}));
  options = ReadOptions{};
  options.max_file_bytes = 0;
  EXPECT_TRUE(StatusIs(ReadDocuments(dir.Path(), options), absl::StatusCode::kInvalidArgument,
                       {"max_file_bytes"}));
  EXPECT_TRUE(StatusIs(ReadDocuments(dir.Path(), WithFormat(InputFormat::kLines)),
                       absl::StatusCode::kInvalidArgument, {"is a folder"}));
}

TEST(ReadReportTest, WarningsAreCapped) {
  ReadReport report;
  for (int i = 0; i < kMaxReportWarnings + 5; ++i) report.AddWarning("w");
  ASSERT_EQ(report.warnings.size(), static_cast<size_t>(kMaxReportWarnings + 1));
  EXPECT_EQ(report.warnings.back(), "... and 5 more warnings");
  EXPECT_EQ(report.warnings_dropped, 5);
}

// The bundled corpus (data/sotu, 24 addresses) cut into sentence windows.
TEST(BundledCorpusTest, SotuSentenceWindows) {
  ReadOptions options = WithFormat(InputFormat::kAuto, SplitMode::kSentences);
  auto corpus = ReadDocuments("data/sotu", options);
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_EQ(corpus->report.files, 24);
  EXPECT_EQ(corpus->report.skipped_non_txt, 1);  // PACKAGE-LICENSE
  EXPECT_EQ(corpus->report.skipped_empty, 0);
  EXPECT_GT(corpus->documents.size(), 1500u);
  EXPECT_EQ(corpus->documents.size(), 2513u);  // quoted in docs/corpus.md
  int64_t words = 0, over_window = 0;
  EXPECT_EQ(corpus->report.documents, static_cast<int64_t>(corpus->documents.size()));
  EXPECT_EQ(corpus->documents.front().name.rfind("1790-1860/1790_george_washington_n.txt#1", 0),
            0u);
  for (const RawDocument& d : corpus->documents) {
    const int n = CountWords(d.text);
    ASSERT_GT(n, 0) << d.name;
    words += n;
    if (n > options.window_words) {
      ++over_window;
      EXPECT_EQ(SplitSentences(d.text).size(), 1u) << d.name << " has " << n << " words";
    }
  }
  EXPECT_EQ(words, 208402);
  EXPECT_EQ(over_window, 55);
}

}  // namespace
}  // namespace pplda::lda

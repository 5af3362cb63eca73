// libFuzzer target: the document readers (lda/document_reader.h) on
// arbitrary file bytes, then the preprocessing every reader feeds
// (lda/preprocessor.h: tokenizer, Unicode folding, stop words, stemming),
// and the vocabulary file reader (lda/vocabulary_file.h) on the same bytes.
// The first byte chooses the format (one document per line, or the file as
// one folder document), the split mode (none, paragraphs, sentences), the
// window size and stemming; the rest is the file. Any crash, sanitizer
// report, hang or out-of-memory is a finding; an error status is the
// expected answer to bad bytes. Properties checked (abort = finding): every
// document read is non-empty valid UTF-8 (the readers promise it) and the
// report counts what was returned; every term of a vocabulary that reads
// is non-empty UTF-8 without whitespace.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/fuzz_util.h"
#include "lda/document_reader.h"
#include "lda/preprocessor.h"
#include "lda/unicode_text.h"
#include "lda/vocabulary_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t choice = data[0];
  const std::filesystem::path path = pplda::fuzz::ScratchFolder("documents") / "documents.txt";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data) + 1, static_cast<std::streamsize>(size - 1));
  }
  pplda::lda::ReadOptions options;
  options.format =
      (choice & 1) ? pplda::lda::InputFormat::kFolder : pplda::lda::InputFormat::kLines;
  switch ((choice >> 1) % 3) {
    case 0:
      options.split = pplda::lda::SplitMode::kNone;
      break;
    case 1:
      options.split = pplda::lda::SplitMode::kParagraphs;
      break;
    default:
      options.split = pplda::lda::SplitMode::kSentences;
      break;
  }
  options.window_words = 1 + ((choice >> 3) & 7) * 4;
  options.max_file_bytes = 1 << 20;
  options.max_corpus_bytes = 1 << 20;
  absl::StatusOr<pplda::lda::RawCorpus> raw = pplda::lda::ReadDocuments(path.string(), options);
  pplda::fuzz::Trace("ReadDocuments", raw.status());
  if (raw.ok()) {
    pplda::fuzz::Require(!raw->documents.empty());
    pplda::fuzz::Require(raw->report.documents == static_cast<int64_t>(raw->documents.size()));
    for (const pplda::lda::RawDocument& d : raw->documents) {
      pplda::fuzz::Require(!d.text.empty());
      pplda::fuzz::Require(!pplda::lda::FindInvalidUtf8(d.text).has_value());
    }
    pplda::lda::PreprocessOptions pre;
    pre.min_df = 1;
    pre.max_df = 1.0;
    pre.stem = (choice & 0x80) != 0;
    pplda::lda::PreprocessReport report;
    absl::StatusOr<pplda::lda::Corpus> corpus = pplda::lda::BuildCorpus(*raw, pre, &report);
    pplda::fuzz::Trace("BuildCorpus", corpus.status());
    if (corpus.ok()) {
      pplda::fuzz::Require(report.documents_out == corpus->num_documents());
      for (const pplda::lda::Document& d : corpus->documents) {
        pplda::fuzz::Require(!d.tokens.empty());
        for (pplda::lda::TermId t : d.tokens) {
          pplda::fuzz::Require(t >= 0 && t < corpus->vocabulary.size());
        }
      }
    }
  }
  // A vocabulary that reads holds terms a model file and a token can hold.
  absl::StatusOr<pplda::lda::Vocabulary> vocabulary = pplda::lda::ReadVocabularyFile(path.string());
  pplda::fuzz::Trace("ReadVocabularyFile", vocabulary.status());
  if (vocabulary.ok()) {
    for (const std::string& term : vocabulary->terms()) {
      pplda::fuzz::Require(!term.empty() && !pplda::lda::FindInvalidUtf8(term).has_value());
      pplda::fuzz::Require(term.find_first_of(" \t\n\v\f\r") == std::string::npos);
    }
  }
  return 0;
}

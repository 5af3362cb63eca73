// libFuzzer target: the prepared-corpus reader (lda/prepared_corpus.h) on
// arbitrary folder contents. The input is cut at its first three NUL bytes
// into vocabulary.txt, train.txt, test.txt and stats.json (missing pieces
// are empty files). Any crash, sanitizer report, hang or out-of-memory is a
// finding; an error status is the expected answer to bad bytes. A folder
// that reads must hold what the header promises (abort = finding): the
// same vocabulary in both sets, every document non-empty with every term id
// in [0, V), and stats.json's counts equal to the files'.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "fuzz/fuzz_util.h"
#include "lda/prepared_corpus.h"

namespace {

void CheckCorpus(const pplda::lda::Corpus& corpus, int32_t vocabulary_size) {
  for (const pplda::lda::Document& d : corpus.documents) {
    pplda::fuzz::Require(!d.tokens.empty());
    for (pplda::lda::TermId t : d.tokens) pplda::fuzz::Require(t >= 0 && t < vocabulary_size);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  const std::filesystem::path dir = pplda::fuzz::ScratchFolder("prepared");
  const char* const names[] = {"vocabulary.txt", "train.txt", "test.txt", "stats.json"};
  for (int i = 0; i < 4; ++i) {
    // The last file takes the rest, NUL bytes included.
    const size_t cut = i == 3 ? std::string_view::npos : rest.find('\0');
    pplda::fuzz::WriteFile(dir / names[i], rest.substr(0, cut));
    rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 1);
  }
  absl::StatusOr<pplda::lda::PreparedCorpus> prepared =
      pplda::lda::ReadPreparedCorpus(dir.string());
  pplda::fuzz::Trace("ReadPreparedCorpus", prepared.status());
  if (prepared.ok()) {
    const int32_t v = prepared->train.vocabulary.size();
    pplda::fuzz::Require(v > 0);
    pplda::fuzz::Require(prepared->test.vocabulary.terms() == prepared->train.vocabulary.terms());
    CheckCorpus(prepared->train, v);
    CheckCorpus(prepared->test, v);
    pplda::fuzz::Require(prepared->stats["train"]["documents"].get<int64_t>() ==
                         prepared->train.num_documents());
    pplda::fuzz::Require(prepared->stats["train"]["tokens"].get<int64_t>() ==
                         prepared->train.num_tokens());
  }
  return 0;
}

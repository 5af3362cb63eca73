// libFuzzer target: the UCI bag-of-words reader (lda/uci_bag_of_words.h)
// on arbitrary docword bytes against a fixed three-word vocabulary, with
// small size limits so that a huge declared count must be refused, never
// expanded. Any crash, sanitizer report, hang or out-of-memory is a finding;
// an error status is the expected answer to bad bytes.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "lda/document_reader.h"

namespace {

// A private folder for this process's two files, made once.
const std::filesystem::path& Folder() {
  static const std::filesystem::path folder = [] {
    std::string name =
        (std::filesystem::temp_directory_path() / "pplda_fuzz_uci_XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr) std::abort();
    std::ofstream(std::filesystem::path(name) / "vocab.f.txt") << "apple\nbanana\ncherry\n";
    return std::filesystem::path(name);
  }();
  return folder;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::filesystem::path docword = Folder() / "docword.f.txt";
  {
    std::ofstream out(docword, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  pplda::lda::ReadOptions options;
  options.format = pplda::lda::InputFormat::kUci;
  options.max_file_bytes = 1 << 20;
  options.max_corpus_bytes = 1 << 22;
  options.max_corpus_tokens = 1 << 16;
  (void)pplda::lda::ReadDocuments(docword.string(), options);
  return 0;
}

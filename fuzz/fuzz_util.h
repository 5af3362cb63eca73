// Shared helpers of the libFuzzer targets (fuzz/). FUZZING ONLY.
//  - ScratchFolder(tag): a private temporary folder of this process, made
//    once per tag (the targets write their input there as a file).
//  - WriteFile(path, bytes, mode): the bytes, exactly, with `mode`.
//  - Require(condition): aborts when a property fails (a finding).
//  - Frames(bytes) / AppendFrame(&bytes, frame): several messages in one
//    input, each as a 2-byte little-endian length and that many bytes (a
//    short last frame is cut to what is left).
//  - Trace(step, status): with PPLDA_FUZZ_VERBOSE set, prints each step's
//    status to stderr (to check that a seed reaches the state it is meant
//    to, or to read what an input did: build-fuzz/fuzz/fuzz_NAME INPUT).
//  - SeedFolder(): the folder named by PPLDA_FUZZ_WRITE_SEEDS, or empty.
//    Targets whose seeds need real keys or ciphertexts write their seed
//    corpus there from their fixed set-up and exit, so the checked-in
//    seeds can be made again: PPLDA_FUZZ_WRITE_SEEDS=fuzz/corpus/NAME
//    build-fuzz/fuzz/fuzz_NAME.
//  - PPLDA_FUZZ_MODAL_TARGET(set_up): the libFuzzer entry points of a
//    target whose first input byte picks one of its kModes modes, run as
//    Run(Mode, rest of the input); at start it writes its seeds when
//    SeedFolder() names a folder (WriteSeeds) and evaluates `set_up` (the
//    fixed state built once, before the first input).
#ifndef PPLDA_FUZZ_FUZZ_UTIL_H_
#define PPLDA_FUZZ_FUZZ_UTIL_H_

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace pplda::fuzz {

inline void Require(bool condition) {
  if (!condition) std::abort();
}

inline std::filesystem::path ScratchFolder(const std::string& tag) {
  static std::map<std::string, std::filesystem::path>* folders =
      new std::map<std::string, std::filesystem::path>();
  auto it = folders->find(tag);
  if (it != folders->end()) return it->second;
  std::string name =
      (std::filesystem::temp_directory_path() / ("pplda_fuzz_" + tag + "_XXXXXX")).string();
  if (::mkdtemp(name.data()) == nullptr) std::abort();
  return (*folders)[tag] = std::filesystem::path(name);
}

inline void WriteFile(const std::filesystem::path& path, std::string_view bytes,
                      mode_t mode = 0644) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) std::abort();
  }
  if (::chmod(path.c_str(), mode) != 0) std::abort();
}

inline std::vector<std::string_view> Frames(std::string_view bytes) {
  std::vector<std::string_view> frames;
  while (bytes.size() >= 2) {
    const size_t length = static_cast<uint8_t>(bytes[0]) | static_cast<uint8_t>(bytes[1]) << 8;
    bytes.remove_prefix(2);
    frames.push_back(bytes.substr(0, length));
    bytes.remove_prefix(frames.back().size());
  }
  return frames;
}

inline void AppendFrame(std::string* bytes, std::string_view frame) {
  if (frame.size() > 0xffff) std::abort();
  bytes->push_back(static_cast<char>(frame.size() & 0xff));
  bytes->push_back(static_cast<char>(frame.size() >> 8));
  bytes->append(frame);
}

inline void Trace(std::string_view step, const absl::Status& status) {
  static const bool verbose = std::getenv("PPLDA_FUZZ_VERBOSE") != nullptr;
  if (verbose) {
    std::fprintf(stderr, "fuzz: %.*s: %s\n", static_cast<int>(step.size()), step.data(),
                 status.ToString().c_str());
  }
}

inline std::filesystem::path SeedFolder() {
  const char* dir = std::getenv("PPLDA_FUZZ_WRITE_SEEDS");
  return dir == nullptr ? std::filesystem::path() : std::filesystem::path(dir);
}

}  // namespace pplda::fuzz

// Expects pplda::fuzz::{Mode, kModes, Run, WriteSeeds}; at file scope.
#define PPLDA_FUZZ_MODAL_TARGET(set_up)                                                    \
  extern "C" int LLVMFuzzerInitialize(int*, char***) {                                     \
    const std::filesystem::path seeds = pplda::fuzz::SeedFolder();                         \
    if (!seeds.empty()) pplda::fuzz::WriteSeeds(seeds);                                    \
    (void)(set_up);                                                                        \
    return 0;                                                                              \
  }                                                                                        \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {                \
    if (size == 0) return 0;                                                               \
    pplda::fuzz::Run(static_cast<pplda::fuzz::Mode>(data[0] % pplda::fuzz::kModes),        \
                     std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1)); \
    return 0;                                                                              \
  }

#endif  // PPLDA_FUZZ_FUZZ_UTIL_H_

// Shared by the net/ tests: a temporary folder, and TLS material made by
// the real deploy/make-certs.sh (PPLDA_REPO_ROOT, set by CMake) in it.
#ifndef PPLDA_TESTS_NET_NET_TEST_UTIL_H_
#define PPLDA_TESTS_NET_NET_TEST_UTIL_H_

#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pplda::net::testing {

// A fresh folder under $TMPDIR (or /tmp), removed with everything in it.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = absl::StrCat(base ? base : "/tmp", "/pplda-net-test-XXXXXX");
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Runs deploy/make-certs.sh --out <out> <args>; the script's output goes to
// <out>.log and is returned in the error.
inline absl::Status MakeCerts(const std::filesystem::path& out, const std::string& args) {
  const std::string log = out.string() + ".log";
  const std::string cmd = absl::StrCat(PPLDA_REPO_ROOT, "/deploy/make-certs.sh --out '",
                                       out.string(), "' ", args, " > '", log, "' 2>&1");
  const int status = std::system(cmd.c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return absl::OkStatus();
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  return absl::InternalError(absl::StrCat("make-certs failed (", status, "): ", text.str()));
}

inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace pplda::net::testing

#endif  // PPLDA_TESTS_NET_NET_TEST_UTIL_H_

// Helpers for the corpus tests: a per-test scratch folder under
// testing::TempDir() and a status check that looks at the code and the
// message.
#ifndef PPLDA_TESTS_LDA_CORPUS_TEST_UTIL_H_
#define PPLDA_TESTS_LDA_CORPUS_TEST_UTIL_H_

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace pplda::lda::testing_util {

// A fresh, empty folder named after the running test; removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::path(::testing::TempDir()) /
            absl::StrCat("pplda_", info->test_suite_name(), "_", info->name(), "_", getpid());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Writes `contents` to the relative path (creating folders); returns the
  // full path.
  std::string Write(const std::string& relative, std::string_view contents) const {
    const std::filesystem::path p = path_ / relative;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    return p.string();
  }
  std::string Path(const std::string& relative = "") const {
    return relative.empty() ? path_.string() : (path_ / relative).string();
  }

 private:
  std::filesystem::path path_;
};

// Passes iff `status` has `code` and its message contains every one of
// `fragments`.
inline ::testing::AssertionResult StatusIs(const absl::Status& status, absl::StatusCode code,
                                           const std::vector<std::string>& fragments) {
  if (status.code() != code) {
    return ::testing::AssertionFailure()
           << "expected code " << absl::StatusCodeToString(code) << ", got " << status;
  }
  for (const std::string& f : fragments) {
    if (std::string(status.message()).find(f) == std::string::npos) {
      return ::testing::AssertionFailure()
             << "message \"" << status.message() << "\" lacks \"" << f << "\"";
    }
  }
  return ::testing::AssertionSuccess();
}

template <typename T>
::testing::AssertionResult StatusIs(const absl::StatusOr<T>& result, absl::StatusCode code,
                                    const std::vector<std::string>& fragments) {
  return StatusIs(result.status(), code, fragments);
}

}  // namespace pplda::lda::testing_util

#endif  // PPLDA_TESTS_LDA_CORPUS_TEST_UTIL_H_

// Runs the real `pplda` binary (PPLDA_BINARY, set by CMake) with arguments
// and captures its exit code and combined stdout and stderr; shared by the
// CLI end-to-end tests.
#ifndef PPLDA_TESTS_CLI_CLI_TEST_UTIL_H_
#define PPLDA_TESTS_CLI_CLI_TEST_UTIL_H_

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace pplda::cli::testing {

struct RunResult {
  int exit_code;       // -1 when the process did not exit normally
  std::string output;  // stdout and stderr
};

inline RunResult RunPplda(const std::string& args) {
  const std::string cmd = std::string(PPLDA_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed for: " + cmd};
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace pplda::cli::testing

#endif  // PPLDA_TESTS_CLI_CLI_TEST_UTIL_H_

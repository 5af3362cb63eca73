// Progress of long work for people watching a CLI: a one-line bar with rate
// and time left on a terminal, plain periodic lines otherwise (logs, pipes),
// nothing when quiet. Writes to the given stream (stderr by default).
// Thread-safety: Update() may be called from any thread; output is serialised.
#ifndef PPLDA_BASE_PROGRESS_H_
#define PPLDA_BASE_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

namespace pplda {

class ProgressReporter {
 public:
  enum class Mode { kAuto, kBar, kLines, kQuiet };

  // `total` units of work named `unit` (e.g. "iterations"); `label` leads
  // each line. kAuto picks kBar when `out` is a terminal, kLines otherwise.
  ProgressReporter(std::string label, int64_t total, std::string unit,
                   Mode mode = Mode::kAuto, std::FILE* out = stderr);
  ~ProgressReporter();

  // Records that `done` units are complete; `detail` is appended (e.g. a
  // current figure such as a log-likelihood).
  void Update(int64_t done, const std::string& detail = "");
  // Final line: total time and mean rate. Called by the destructor if needed.
  void Finish(const std::string& detail = "");

  // "1h02m", "3m05s", "12s": how a duration is shown.
  static std::string FormatDuration(double seconds);

 private:
  void Print(int64_t done, const std::string& detail, bool final);

  std::string label_;
  int64_t total_;
  std::string unit_;
  Mode mode_;
  std::FILE* out_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_print_;
  int64_t last_done_ = 0;
  bool finished_ = false;
  std::mutex mu_;
};

}  // namespace pplda

#endif  // PPLDA_BASE_PROGRESS_H_

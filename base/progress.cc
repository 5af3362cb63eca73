#include "base/progress.h"

#include <unistd.h>

#include <cmath>

#include "absl/strings/str_format.h"

namespace pplda {

ProgressReporter::ProgressReporter(std::string label, int64_t total,
                                   std::string unit, Mode mode,
                                   std::FILE* out)
    : label_(std::move(label)),
      total_(total),
      unit_(std::move(unit)),
      mode_(mode),
      out_(out),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_) {
  if (mode_ == Mode::kAuto) {
    mode_ = isatty(fileno(out_)) ? Mode::kBar : Mode::kLines;
  }
}

ProgressReporter::~ProgressReporter() {
  if (!finished_) Finish();
}

std::string ProgressReporter::FormatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  int64_t s = static_cast<int64_t>(std::llround(seconds));
  if (s >= 3600) return absl::StrFormat("%dh%02dm", s / 3600, (s % 3600) / 60);
  if (s >= 60) return absl::StrFormat("%dm%02ds", s / 60, s % 60);
  return absl::StrFormat("%ds", s);
}

void ProgressReporter::Update(int64_t done, const std::string& detail) {
  std::lock_guard<std::mutex> lock(mu_);
  if (mode_ == Mode::kQuiet || finished_) return;
  auto now = std::chrono::steady_clock::now();
  double since = std::chrono::duration<double>(now - last_print_).count();
  // Bars redraw often; plain lines every 10 s (and at the end) to keep logs short.
  double interval = mode_ == Mode::kBar ? 0.1 : 10.0;
  last_done_ = done;
  if (since < interval && done < total_) return;
  last_print_ = now;
  Print(done, detail, false);
}

void ProgressReporter::Finish(const std::string& detail) {
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) return;
  finished_ = true;
  if (mode_ == Mode::kQuiet) return;
  Print(last_done_, detail, true);
}

void ProgressReporter::Print(int64_t done, const std::string& detail,
                             bool final) {
  double elapsed = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start_)
                       .count();
  double rate = elapsed > 0 ? done / elapsed : 0;
  std::string suffix = detail.empty() ? "" : "  " + detail;
  if (final) {
    if (mode_ == Mode::kBar) std::fputs("\r\033[K", out_);
    std::fprintf(out_, "%s: %lld %s in %s (%.3g %s/s)%s\n", label_.c_str(),
                 static_cast<long long>(done), unit_.c_str(),
                 FormatDuration(elapsed).c_str(), rate, unit_.c_str(),
                 suffix.c_str());
    std::fflush(out_);
    return;
  }
  double left = rate > 0 ? (total_ - done) / rate : NAN;
  double frac = total_ > 0 ? static_cast<double>(done) / total_ : 1.0;
  if (mode_ == Mode::kBar) {
    constexpr int kWidth = 30;
    int filled = static_cast<int>(frac * kWidth);
    std::string bar(filled, '#');
    bar.resize(kWidth, '.');
    std::fprintf(out_, "\r\033[K%s [%s] %lld/%lld %s, %.3g/s, %s left%s",
                 label_.c_str(), bar.c_str(), static_cast<long long>(done),
                 static_cast<long long>(total_), unit_.c_str(), rate,
                 FormatDuration(left).c_str(), suffix.c_str());
  } else {
    std::fprintf(out_, "%s: %lld/%lld %s (%.0f%%), %.3g/s, %s left%s\n",
                 label_.c_str(), static_cast<long long>(done),
                 static_cast<long long>(total_), unit_.c_str(), 100 * frac,
                 rate, FormatDuration(left).c_str(), suffix.c_str());
  }
  std::fflush(out_);
}

}  // namespace pplda

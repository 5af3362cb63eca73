// lgamma(n + offset) for integer counts n >= 0, tabulated for the small n a
// log-likelihood meets most (one lgamma call each otherwise). Values equal
// std::lgamma's exactly: the table holds its results.
#ifndef PPLDA_LDA_LOG_GAMMA_TABLE_H_
#define PPLDA_LDA_LOG_GAMMA_TABLE_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace pplda::lda {

class LogGammaTable {
 public:
  // Tabulates n in [0, min(max_count + 1, kMaxCached)).
  LogGammaTable(double offset, int64_t max_count) : offset_(offset) {
    const int64_t size = std::clamp<int64_t>(max_count + 1, 1, kMaxCached);
    values_.resize(static_cast<size_t>(size));
    for (int64_t n = 0; n < size; ++n) values_[n] = std::lgamma(static_cast<double>(n) + offset);
  }

  double offset() const { return offset_; }
  // lgamma(n + offset), n >= 0.
  double operator()(int64_t n) const {
    return n < static_cast<int64_t>(values_.size())
               ? values_[static_cast<size_t>(n)]
               : std::lgamma(static_cast<double>(n) + offset_);
  }

 private:
  static constexpr int64_t kMaxCached = int64_t{1} << 16;  // 512 KiB at most
  double offset_;
  std::vector<double> values_;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_LOG_GAMMA_TABLE_H_

// Reciprocals of the samplers' topic denominators, looked up instead of
// divided.
#ifndef PPLDA_LDA_RECIPROCAL_TABLE_H_
#define PPLDA_LDA_RECIPROCAL_TABLE_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace pplda::lda {

// 1 / (n + V beta) for topic totals n, read from a table for n below its
// size (min(tokens + 1, kMaxReciprocals)) instead of divided: the same
// double the division gives, without a division's latency on the draw's
// path. Read-only once built; shared by the threads.
class ReciprocalTable {
 public:
  static constexpr int64_t kMaxReciprocals = int64_t{1} << 21;  // 16 MiB

  ReciprocalTable(double v_beta, int64_t num_tokens)
      : v_beta_(v_beta), table_(std::min(num_tokens + 1, kMaxReciprocals)) {
    for (size_t n = 0; n < table_.size(); ++n) table_[n] = Divide(static_cast<int64_t>(n));
  }

  double operator()(int64_t n) const {
    return n < static_cast<int64_t>(table_.size()) ? table_[n] : Divide(n);
  }
  // 1 / (n - 1 + V beta), and 0 for n = 0 (a topic no token can leave).
  double Less(int64_t n) const { return n > 0 ? (*this)(n - 1) : 0.0; }

 private:
  double Divide(int64_t n) const { return 1.0 / (static_cast<double>(n) + v_beta_); }

  double v_beta_;
  std::vector<double> table_;
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_RECIPROCAL_TABLE_H_

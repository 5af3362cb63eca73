// The sparse sampler's term bucket over one packed list (topic_list_sweep.h):
// weights w_j = (count_j - [topic_j = own]) coef[topic_j] and their running
// sums, four entries at a time. Internal to the sampler.
//
// Sums run in groups of four, running = carry + (w0, w0 + w1,
// w0 + (w1 + w2), (w0 + w1) + (w2 + w3)), carry the group's last running
// sum: by AVX2 (gathers, in-register prefix sums) for lists longer than
// kTermBucketScalarMax when the CPU has AVX2, else by scalar code adding in
// that same order, so both give the same doubles bit for bit and runs stay
// deterministic given the seed whatever the CPU.
#ifndef PPLDA_LDA_TERM_BUCKET_H_
#define PPLDA_LDA_TERM_BUCKET_H_

#include <cstdint>

namespace pplda::lda {

struct TermBucketSum {
  double total;        // the last running sum
  int32_t own_index;   // the list index of topic `own`, or -1
};

// Packed entries (count << topic_bits | topic), n a multiple of 4, topics
// indexing coef (the padding's sentinel topic has coef 0).
template <typename Entry>
struct PackedList {
  const Entry* entries;
  int32_t n;
  int topic_bits;
  Entry topic_mask;
};

// Lists up to this long are summed by scalar loads, faster than through a
// gather's latency (measured on Brown, K = 200; 16 rather than 8 since
// tokens are visited most frequent term first: -3% on SOTU K = 20,
// neutral elsewhere).
inline constexpr int32_t kTermBucketScalarMax = 16;

// True when the CPU runs the AVX2 paths.
bool TermBucketHasAvx2();

// The AVX2 path of SumTermBucket; only when TermBucketHasAvx2().
TermBucketSum SumTermBucketAvx2(const PackedList<uint32_t>& list, int own, const double* coef,
                                double* running);
// How many of running[0, n) are <= u; only when TermBucketHasAvx2().
int32_t CountAtOrBelowAvx2(const double* running, int32_t n, double u);

// One group of four weights into running sums, in the order above; returns
// the new carry.
inline double PrefixGroup(double w0, double w1, double w2, double w3, double carry,
                          double* out) {
  const double w01 = w0 + w1, w12 = w1 + w2, w23 = w2 + w3;
  out[0] = carry + w0;
  out[1] = carry + w01;
  out[2] = carry + (w0 + w12);
  out[3] = carry + (w01 + w23);
  return out[3];
}

// Fills running[0, n) and returns the total and own's index.
template <typename Entry>
TermBucketSum SumTermBucket(const PackedList<Entry>& list, int own, const double* coef,
                            double* running, bool avx2) {
  if constexpr (sizeof(Entry) == sizeof(uint32_t)) {
    if (avx2 && list.n > kTermBucketScalarMax) return SumTermBucketAvx2(list, own, coef, running);
  }
  double carry = 0;
  int32_t own_index = -1;
  for (int32_t j = 0; j < list.n; j += 4) {
    double w[4];
    for (int l = 0; l < 4; ++l) {
      const Entry e = list.entries[j + l];
      const int k = static_cast<int>(e & list.topic_mask);
      const bool is_own = k == own;
      w[l] = static_cast<double>(static_cast<int64_t>(e >> list.topic_bits) - is_own) * coef[k];
      own_index = is_own ? j + l : own_index;
    }
    carry = PrefixGroup(w[0], w[1], w[2], w[3], carry, running + j);
  }
  return {carry, own_index};
}

// How many of running[0, n) are <= u (n a multiple of 4).
inline int32_t CountAtOrBelow(const double* running, int32_t n, double u, bool avx2) {
  if (avx2 && n > kTermBucketScalarMax) return CountAtOrBelowAvx2(running, n, u);
  int32_t count = 0;
  for (int32_t j = 0; j < n; ++j) count += running[j] <= u ? 1 : 0;
  return count;
}

}  // namespace pplda::lda

#endif  // PPLDA_LDA_TERM_BUCKET_H_

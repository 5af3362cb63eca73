#include "lda/term_bucket.h"

#include <immintrin.h>

#include <cstdint>

namespace pplda::lda {
namespace {

bool DetectAvx2() {
  __builtin_cpu_init();  // needed before main (this runs in a static initializer)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") &&
         __builtin_cpu_supports("bmi");
}

const bool kHasAvx2 = DetectAvx2();

}  // namespace

#define PPLDA_AVX2 __attribute__((target("avx2,popcnt,bmi")))

bool TermBucketHasAvx2() { return kHasAvx2; }

PPLDA_AVX2 TermBucketSum SumTermBucketAvx2(const PackedList<uint32_t>& list, int own,
                                           const double* coef, double* running) {
  const __m128i mask = _mm_set1_epi32(static_cast<int32_t>(list.topic_mask));
  const __m128i shift = _mm_cvtsi32_si128(list.topic_bits);
  const __m128i own_topic = _mm_set1_epi32(own);
  const __m256d zero = _mm256_setzero_pd();
  const __m256d all_lanes = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  __m256d carry = zero;
  int32_t own_index = -1;
  for (int32_t j = 0; j < list.n; j += 4) {
    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(list.entries + j));
    const __m128i topics = _mm_and_si128(e, mask);
    const __m128i is_own = _mm_cmpeq_epi32(topics, own_topic);  // -1 where own
    const __m128i counts = _mm_add_epi32(_mm_srl_epi32(e, shift), is_own);
    const __m256d c = _mm256_mask_i32gather_pd(zero, coef, topics, all_lanes, 8);
    const __m256d w = _mm256_mul_pd(_mm256_cvtepi32_pd(counts), c);
    // (w0, w0 + w1, w1 + w2, w2 + w3)
    const __m256d w_shift1 = _mm256_blend_pd(_mm256_permute4x64_pd(w, 0x90), zero, 0x1);
    const __m256d s1 = _mm256_add_pd(w, w_shift1);
    // (w0, w0 + w1, w0 + (w1 + w2), (w0 + w1) + (w2 + w3))
    const __m256d s1_shift2 = _mm256_permute2f128_pd(s1, s1, 0x08);  // (0, 0, s1_0, s1_1)
    const __m256d sums = _mm256_add_pd(carry, _mm256_add_pd(s1, s1_shift2));
    _mm256_storeu_pd(running + j, sums);
    carry = _mm256_permute4x64_pd(sums, 0xff);
    const int own_bits = _mm_movemask_ps(_mm_castsi128_ps(is_own));
    if (own_bits != 0) own_index = j + static_cast<int32_t>(_tzcnt_u32(own_bits));
  }
  return {_mm256_cvtsd_f64(carry), own_index};
}

PPLDA_AVX2 int32_t CountAtOrBelowAvx2(const double* running, int32_t n, double u) {
  const __m256d threshold = _mm256_set1_pd(u);
  int32_t count = 0;
  for (int32_t j = 0; j < n; j += 4) {
    const __m256d below = _mm256_cmp_pd(_mm256_loadu_pd(running + j), threshold, _CMP_LE_OQ);
    count += _mm_popcnt_u32(static_cast<unsigned>(_mm256_movemask_pd(below)));
  }
  return count;
}

}  // namespace pplda::lda

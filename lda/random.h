// Fast seeded pseudo-random numbers for the plaintext samplers and metrics:
// xoshiro256++ (Blackman & Vigna, "Scrambled linear pseudorandom number
// generators", 2021) seeded through splitmix64 (Steele, Lea & Flood 2014).
//
// NOT cryptographic: these streams drive Gibbs sampling in lda/ only. The
// secure protocol draws its randomness from crypto/'s SecureRng.
//
// Streams: Rng::ForStream(seed, a, b) gives a generator for the pair (a, b)
// under `seed`, e.g. (iteration, document), so results computed per stream
// do not depend on how work is split across threads. Distinct (seed, a, b)
// give statistically independent streams (splitmix64 hashing of the inputs).
//
// Thread-safety: an Rng object is not shared; give each thread its own.
#ifndef PPLDA_LDA_RANDOM_H_
#define PPLDA_LDA_RANDOM_H_

#include <cstdint>

namespace pplda::lda {

// The splitmix64 finaliser: a bijective mix of a 64-bit word.
inline uint64_t SplitMix64Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Stream families, so that different uses of one seed never share a stream:
// the first stream index is (domain | counter).
inline constexpr uint64_t kInitStreams = 1ULL << 56;      // (init, document)
inline constexpr uint64_t kStandardStreams = 2ULL << 56;  // (sampler, partition)
inline constexpr uint64_t kBatchedStreams = 3ULL << 56;   // (iteration, document)
inline constexpr uint64_t kFoldInStreams = 4ULL << 56;    // (fold-in, document)
inline constexpr uint64_t kMetropolisStreams = 5ULL << 56;  // (sampler, partition)
inline constexpr uint64_t kWarpStreams = 6ULL << 56;        // (sampler, phase block)
inline constexpr uint64_t kSparseStreams = 7ULL << 56;      // (sampler, partition)
inline constexpr uint64_t kTermInitStreams = 8ULL << 56;    // (init, term)

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t x = seed;
    for (uint64_t& s : s_) {
      x += 0x9e3779b97f4a7c15ULL;
      s = SplitMix64Mix(x);
    }
  }

  // A generator for stream (a, b) under `seed` (see the header comment).
  static Rng ForStream(uint64_t seed, uint64_t a, uint64_t b = 0) {
    uint64_t h = SplitMix64Mix(seed ^ 0x6a09e667f3bcc909ULL);
    h = SplitMix64Mix(h ^ (a + 0x9e3779b97f4a7c15ULL));
    h = SplitMix64Mix(h ^ (b + 0xbb67ae8584caa73bULL));
    return Rng(h);
  }

  // xoshiro256++: the next 64 uniform bits.
  uint64_t Next() {
    const uint64_t result = Rotl(s_[0] + s_[3], 23) + s_[0];
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform double in [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n), n >= 1, exactly (Lemire's multiply-and-reject,
  // "Fast random integer generation in an interval", 2019).
  uint32_t Below(uint32_t n) {
    uint64_t m = static_cast<uint64_t>(static_cast<uint32_t>(Next() >> 32)) * n;
    uint32_t low = static_cast<uint32_t>(m);
    if (low < n) {
      const uint32_t threshold = static_cast<uint32_t>(-n) % n;
      while (low < threshold) {
        m = static_cast<uint64_t>(static_cast<uint32_t>(Next() >> 32)) * n;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace pplda::lda

#endif  // PPLDA_LDA_RANDOM_H_

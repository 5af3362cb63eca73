// MpcConfig: the validated, immutable public parameters of the MPC engine:
// n compute parties, Shamir threshold t (any t parties learn nothing; t < n/2
// so the engine is secure against a semi-honest coalition of up to t), and
// the statistical security parameter sigma (every value opened under a
// statistical mask is within 2^-sigma statistical distance of a value
// independent of the secret).
//
// Shared randomness (random values, random bits, masks): either
// pseudo-random secret sharing (pseudo_random_sharing.h; no dealing round,
// one key-agreement round per engine) when the n-choose-t keys it needs are
// at most kMaxPseudoRandomSets, or dealt by t+1 parties (one round per
// batch). kAuto picks the first when it is possible.
//
// Bit budget of statistically masked openings (comparison.h): opening
// x + r_low + 2^m r_high, with x < 2^k, r_low < 2^m <= 2^k and r_high the
// sum of S = mask_summands() values uniform in [0, 2^(k-m+sigma+1)) (t+1
// dealers' or one per pseudo-random key), must not wrap around p = 2^127-1:
//     2^(k+1) + S 2^(k+sigma+1) <= p,
// and max_masked_bits() is the largest such k, e.g. 84 for n = 3, t = 1,
// sigma = 40 (S = 2 or 3). Comparisons of l-bit values mask l+1 bits:
// max_comparison_bits() = max_masked_bits() - 1.
//
// Ranges: 3 <= n <= 64, 1 <= t < n/2, 20 <= sigma <= 64.
// Errors: InvalidArgument naming the parameter. Thread-safe (immutable).
#ifndef PPLDA_CRYPTO_MPC_MPC_CONFIG_H_
#define PPLDA_CRYPTO_MPC_MPC_CONFIG_H_

#include "absl/status/statusor.h"
#include "crypto/mpc/shamir.h"

namespace pplda::crypto {

class MpcConfig {
 public:
  static constexpr int kDefaultSigma = 40;
  static constexpr int kMinSigma = 20;
  static constexpr int kMaxSigma = 64;

  static constexpr int kMaxPseudoRandomSets = 128;

  // kAuto: pseudo-random where possible, random bits for t = 1 by the XOR
  // of two dealers' bits (no square roots: the least CPU). kPseudoRandom:
  // also random bits by squaring pseudo-random values (one round and half
  // the bytes per bit, about 1 microsecond of CPU per bit for the square
  // root: for slow links). kDealt: everything dealt.
  enum class SharedRandomness { kAuto, kPseudoRandom, kDealt };

  // InvalidArgument also when kPseudoRandom is asked for but n choose t
  // exceeds kMaxPseudoRandomSets.
  static absl::StatusOr<MpcConfig> Create(int num_parties, int threshold,
                                          int sigma = kDefaultSigma,
                                          SharedRandomness randomness = SharedRandomness::kAuto);

  int num_parties() const { return shamir_.num_parties(); }
  int threshold() const { return shamir_.threshold(); }
  int sigma() const { return sigma_; }
  const ShamirScheme& shamir() const { return shamir_; }

  // True: pseudo-random secret sharing; false: dealt by parties 0..t.
  bool pseudo_random_sharing() const { return pseudo_random_sharing_; }
  // True when replicated sharing (replicated_ring.h) can run on the engine:
  // n = 3, t = 1 and pseudo-random sharing (one key per pair of parties).
  bool replicated_three_party() const {
    return num_parties() == 3 && threshold() == 1 && pseudo_random_sharing_;
  }
  // True when CNF replicated sharing (cnf_ring.h) can run on the engine:
  // n = 2t + 1 and pseudo-random sharing (one key per set of t + 1 parties).
  bool replicated() const { return num_parties() == 2 * threshold() + 1 && pseudo_random_sharing_; }
  // Number of uniform values summed into a mask's high part: n choose t
  // (pseudo-random) or t + 1 (dealt).
  int mask_summands() const;
  // Rounds of one GenerateMasks call with random bits: 1 (pseudo-random:
  // the opening of the bits' squares) or 2 (dealing, then XOR or squares).
  // The engine's one key-agreement round comes on top, once per engine.
  int mask_rounds() const { return pseudo_random_sharing_ && !random_bits_by_xor_ ? 1 : 2; }
  // Random bits as the XOR of two dealers' bits (t = 1 only) rather than
  // by squaring (mpc_engine.h).
  bool random_bits_by_xor() const { return random_bits_by_xor_; }
  // Largest k for which a k-bit value can be opened under a statistical mask.
  int max_masked_bits() const;
  // Largest l for LessThan / Equal on l-bit operands.
  int max_comparison_bits() const { return max_masked_bits() - 1; }

 private:
  MpcConfig(ShamirScheme shamir, int sigma, bool pseudo_random_sharing, bool random_bits_by_xor)
      : shamir_(shamir),
        sigma_(sigma),
        pseudo_random_sharing_(pseudo_random_sharing),
        random_bits_by_xor_(random_bits_by_xor) {}

  ShamirScheme shamir_;
  int sigma_;
  bool pseudo_random_sharing_;
  bool random_bits_by_xor_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_MPC_CONFIG_H_

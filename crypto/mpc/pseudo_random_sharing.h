// PseudoRandomSharing: one party's side of pseudo-random secret sharing
// (Cramer, Damgard and Ishai, "Share conversion, pseudorandom secret-sharing
// and applications to secure computation", TCC 2005) for Shamir sharings:
// random values, bounded random integers and sharings of zero, made without
// any communication once keys are agreed.
//
// Keys: one 256-bit key per set A of n - t parties (n choose t sets), known
// exactly to A's members; each key drives a ChaCha20 stream (mpc_prg.h).
// f_A is the degree-t polynomial with f_A(0) = 1 and f_A(x_j) = 0 for every
// party j outside A. With v_A the next value of A's stream:
//   Random:   party i's share sum_{A ni i} v_A f_A(x_i): a degree-t sharing
//             of sum_A v_A, uniform in the field;
//   Bounded:  as Random with v_A uniform in [0, 2^bits): a sharing of an
//             integer below (n choose t) 2^bits;
//   Zero:     sum_{A ni i} f_A(x_i) sum_{l=1..t} v_{A,l} x_i^l: a random
//             degree-2t sharing of 0.
// Any t parties miss the key of the set that excludes them, so the value
// (and, for Zero, the other parties' shares) looks uniform to them up to
// ChaCha20's security; for Bounded, that set's uniform summand hides the rest
// as a dealer's would (mpc_masks.h).
//
// Pairwise streams: besides the set keys, every ordered pair of parties
// (d, j) has a key known to d and j only, for dealings in which d's share
// for j is derived rather than sent (mpc_engine.h): Outgoing(j) at d and
// Incoming(d) at j are the same stream.
//
// Invariant: every member of A draws the same number of values from A's
// stream in the same order; the engine guarantees it by calling the same
// methods with the same counts at every party. Keys are wiped on destruction.
// Thread-safety: not thread-safe (one per engine).
#ifndef PPLDA_CRYPTO_MPC_PSEUDO_RANDOM_SHARING_H_
#define PPLDA_CRYPTO_MPC_PSEUDO_RANDOM_SHARING_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/arith/field_vector.h"
#include "crypto/mpc/mpc_prg.h"
#include "crypto/mpc/shamir.h"

namespace pplda::crypto {

using PrssKey = std::array<uint8_t, 32>;

class PseudoRandomSharing {
 public:
  // The sets of n - t parties, in lexicographic order of their sorted
  // members: the key index used by Create and by the key agreement.
  static std::vector<std::vector<int>> KeySets(int num_parties, int threshold);

  // keys[s] is the key of KeySets()[s] when `party` belongs to that set and
  // is ignored otherwise; outgoing[j] / incoming[j] the pairwise keys with
  // party j (the entry at `party` is ignored; both may be empty: no
  // pairwise streams). InvalidArgument for a wrong number of keys.
  static absl::StatusOr<std::unique_ptr<PseudoRandomSharing>> Create(
      const ShamirScheme& shamir, int party, absl::Span<const PrssKey> keys,
      absl::Span<const PrssKey> outgoing = {}, absl::Span<const PrssKey> incoming = {});

  // Degree-t shares of `count` uniform field elements.
  FieldVector Random(size_t count);
  // Degree-t shares of `count` integers, each a sum of n choose t values
  // uniform in [0, 2^bits), 0 <= bits <= 126.
  FieldVector Bounded(size_t count, int bits);
  // Degree-2t shares of `count` zeros.
  FieldVector Zero(size_t count);
  // As Bounded, and also the summands this party knows: summands->at(s) are
  // the values of key set s (KeySets order) when this party is a member of
  // s, and empty otherwise.
  FieldVector BoundedWithSummands(size_t count, int bits,
                                  std::vector<std::vector<uint128>>* summands);
  // The stream of key set `set` (KeySets order); this party must be a
  // member (asserted). For protocols over replicated sharings.
  SecureRng& SetStream(int set);

  // The pairwise streams (requires pairwise keys at Create).
  SecureRng& Outgoing(int party) { return *outgoing_[party]; }
  SecureRng& Incoming(int dealer) { return *incoming_[dealer]; }
  bool has_pairwise_streams() const { return !outgoing_.empty(); }

 private:
  struct KeyStream {
    std::unique_ptr<ExpandedRng> stream;
    FieldElement weight;  // f_A(x_party)
    int set;              // index in KeySets
  };

  PseudoRandomSharing(int threshold, FieldElement point) : threshold_(threshold), point_(point) {}
  // sum over this party's sets of weight_A * values_A, values drawn by `draw`.
  template <typename Draw>
  FieldVector Combine(size_t count, Draw draw);

  int SetOf(const SecureRng& stream) const;

  int threshold_;
  int num_sets_ = 0;
  FieldElement point_;  // x_party
  std::vector<KeyStream> streams_;
  std::vector<std::unique_ptr<ExpandedRng>> outgoing_, incoming_;  // by party; null at self
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_PSEUDO_RANDOM_SHARING_H_

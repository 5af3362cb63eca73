// ReplicatedRing: one party's side of three-party replicated secret sharing
// (Araki, Furukawa, Lindell, Nof and Ohara, CCS 2016; Mohassel and Rindal's
// ABY3, CCS 2018) over the ring Z_2^128 (arithmetic) and over GF(2),
// bit-sliced (boolean): the comparisons of the secure draw
// (secure_draw.h) at a few dozen bytes each instead of kilobytes.
// Semi-honest, one corrupted party of three, like the Shamir engine with
// n = 3, t = 1 it runs on: it uses that engine's rounds (MpcEngine::Exchange)
// and its pseudo-random sharing keys, one per pair of parties.
//
// Sharing: x = x_0 + x_1 + x_2 (mod 2^128; XOR for bits). Component j is
// known to parties j and j - 1 (mod 3): party i holds (x_i, x_{i+1}) and
// misses x_{i+2}. Component j's randomness comes from the key of the pair
// {j - 1, j}, which the party missing it does not hold.
//
// Operations, rounds and what each party sends per element:
//   FromField     1 round: Shamir shares (degree 1) of x in [0, 2^bits) to
//                 the ring. r = r_0 + r_1 + r_2 with r_j uniform in
//                 [0, 2^(bits + sigma)) from pair j's key is added under
//                 Shamir sharing (pseudo_random_sharing.h: no message) and
//                 c = x + r is opened to the two parties of component
//                 e mod 3 only: one field element each way between them,
//                 2/3 x 16 bytes per party on average. Each of them misses
//                 one r_j, so c is within 2^-sigma of a value independent
//                 of x; the third party sees nothing. Then x_j = -r_j, plus
//                 c in component e mod 3.
//   Mul           1 round: 16 bytes (party i's cross terms plus a zero
//                 sharing from the pair keys, to party i - 1).
//   And           1 round: one bit, the same way.
//   LessThanZero  2 + ceil(log2(m - 2)) rounds for m bits: [x < 0] for x in
//                 [-2^(m-1), 2^(m-1)) as boolean shares: the top bit of
//                 x mod 2^m, from a carry-save adder over the three
//                 components (m - 1 ANDs) and a carry tree (about 2m ANDs):
//                 about 3m bits.
//   OpenBitsTo    1 round: one bit per element, to its receiver only.
//
// Preconditions: n = 3, t = 1 and pseudo-random sharing
// (MpcConfig::replicated_three_party()); else FailedPrecondition. Errors:
// InvalidArgument for sizes, widths or receivers out of range and for a
// received message of the wrong size or an opened value out of its range
// (naming the peer); transport errors pass through. After an error the
// engine must not be used further.
// Thread-safety: as MpcEngine (one per party thread).
#ifndef PPLDA_CRYPTO_MPC_REPLICATED_RING_H_
#define PPLDA_CRYPTO_MPC_REPLICATED_RING_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/arith/field.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/mpc_shares.h"

namespace pplda::crypto {

// Party i's components i ("own") and i + 1 ("next") of each element.
struct RingShares {
  std::vector<uint128> own, next;
  size_t size() const { return own.size(); }
};

// Bit-sliced boolean shares: element e is bit e % 64 of word e / 64.
struct BitShares {
  size_t count = 0;
  std::vector<uint64_t> own, next;
};

class ReplicatedRing {
 public:
  static absl::StatusOr<ReplicatedRing> Create(MpcEngine& engine);

  // Shares of every x[e] in [0, 2^bits), 1 <= bits, bits + sigma <= 125.
  absl::StatusOr<RingShares> FromField(const Shares& x, int bits);
  // Element-wise products mod 2^128.
  absl::StatusOr<RingShares> Mul(const RingShares& a, const RingShares& b);
  // Element-wise [x < 0] for x in [-2^(m-1), 2^(m-1)), 2 <= m <= 128
  // (x's bits above m are ignored).
  absl::StatusOr<BitShares> LessThanZero(const RingShares& x, int m);
  // Bit e to party receivers[e] only; the result has a value at e exactly
  // when this party is receivers[e].
  absl::StatusOr<std::vector<std::optional<bool>>> OpenBitsTo(const BitShares& bits,
                                                              absl::Span<const int> receivers);

  // This party's part of `bits` for a receiver outside the committee (a
  // data holder): its own component; the XOR of the three parts is the bits.
  std::vector<uint64_t> PartForClient(const BitShares& bits) const { return bits.own; }
  // x + c for a public c (added to component 0: party 0's own, party 2's next).
  void AddConstant(RingShares& x, uint128 c) const;

  int party_id() const { return party_; }

 private:
  // A bit-sliced matrix: `planes` planes of `words` words each; plane k of
  // an element vector holds its bit k.
  struct BitMatrix {
    int planes = 0;
    size_t words = 0;
    std::vector<uint64_t> own, next;
  };

  ReplicatedRing(MpcEngine& engine, PseudoRandomSharing& keys)
      : engine_(&engine), keys_(&keys), party_(engine.party_id()) {}

  int Prev() const { return (party_ + 2) % 3; }
  int Succ() const { return (party_ + 1) % 3; }
  // The stream of component j's pair key.
  SecureRng& ComponentStream(int component);
  // One round: sends `mine` (this party's new own components, as bytes) to
  // the previous party and returns what the next party sent.
  absl::StatusOr<std::vector<uint8_t>> PassToPrevious(std::vector<uint8_t> mine,
                                                       size_t expected_bytes,
                                                       const char* what);
  // Element-wise AND of equally shaped word vectors (one round).
  absl::StatusOr<BitMatrix> And(const BitMatrix& a, const BitMatrix& b);
  // A group's carry generate and propagate bits (one plane each).
  struct GroupCarry {
    std::vector<uint64_t> g_own, g_next, p_own, p_next;
  };
  // The carries of the three components as addends, low `planes` positions.
  absl::StatusOr<BitMatrix> CarrySave(const BitMatrix& value, int planes);
  // The carry out of the top of x + y (equal shapes).
  absl::StatusOr<BitMatrix> CarryOut(const BitMatrix& x, const BitMatrix& y);
  absl::StatusOr<std::vector<GroupCarry>> CombineGroups(std::vector<GroupCarry>& level,
                                                        size_t words);
  // Top bit of (x mod 2^m) for the three components as addends.
  absl::StatusOr<BitMatrix> TopBitOfSum(const BitMatrix& value, int m);

  MpcEngine* engine_;
  PseudoRandomSharing* keys_;
  int party_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_REPLICATED_RING_H_

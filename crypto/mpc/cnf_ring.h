// CnfRing: one party's side of replicated (CNF) secret sharing for any odd
// committee n = 2t + 1 (Ito, Saito and Nishizeki 1987; Maurer, "Secure
// multi-party computation made simple", 2002) over the ring Z_2^128
// (arithmetic) and over GF(2), bit-sliced (boolean): the secure draw's
// comparisons (secure_draw.h) for committees of five or more, where Shamir
// sharing would need full-range comparisons of a few kilobytes each.
// Semi-honest, t corrupted parties of n, like the Shamir engine it runs on:
// it uses that engine's rounds (MpcEngine::Exchange) and its pseudo-random
// sharing keys, one per set of t + 1 parties (PseudoRandomSharing::KeySets).
//
// Sharing: x = sum over the S = (n choose t) key sets A of x_A (mod 2^128;
// XOR for bits). Component x_A is known to A's t + 1 members exactly, so
// any t parties miss the component of the set outside them. Party i holds
// the components of the sets it belongs to, in KeySets order (`parts`).
//
// Operations, rounds and what each party sends per element:
//   FromField     1 round: degree-t Shamir shares of x in [0, 2^bits) to
//                 the ring. r = sum_A r_A, r_A uniform in [0, 2^(bits +
//                 sigma)) from A's key, is added under Shamir sharing
//                 (no message) and c = x + r is opened to the t + 1
//                 members of the set E = e mod S only (each sends its
//                 share to the other t): any t parties miss some r_A, so c
//                 is within 2^-sigma of a value independent of x. Then
//                 x_A = -r_A, plus c in component E.
//   Mul / And     1 round, t elements (16 bytes or one bit each): each
//                 cross term a_A b_B is computed by one party of A and B
//                 (t + 1 + t + 1 > n: they meet), its sum z_i masked by a
//                 pseudo-random zero sharing and, minus the fresh
//                 components it is charged with, sent to the other t
//                 members of its own target set (a window of t + 1 parties
//                 from i).
//   LessThanZero  [x < 0] for x in [-2^(m-1), 2^(m-1)) as boolean shares:
//                 the top bit of x mod 2^m, with the S components as S
//                 boolean addends reduced to two by layers of carry-save
//                 adders (one AND layer each: 1 for n = 3, 5 for n = 5),
//                 then a carry tree (1 + ceil(log2(m - 2)) rounds).
//   OpenBitsTo    1 round: each element's missing components to its
//                 receiver only, one bit from each of at most t + 1 senders
//                 (2 for n = 5).
//
// Preconditions: n = 2t + 1 >= 3 and pseudo-random sharing (MpcConfig::
// replicated()); else FailedPrecondition. Errors: InvalidArgument for sizes,
// widths or receivers out of range and for a received message of the wrong
// size or an opened value out of its range (naming the peer); transport
// errors pass through. After an error the engine must not be used further.
// Thread-safety: as MpcEngine (one per party thread).
#ifndef PPLDA_CRYPTO_MPC_CNF_RING_H_
#define PPLDA_CRYPTO_MPC_CNF_RING_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/arith/field.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/mpc_shares.h"

namespace pplda::crypto {

// parts[h]: the component of this party's h-th key set (KeySets order) of
// each element.
struct CnfShares {
  std::vector<std::vector<uint128>> parts;
  size_t size() const { return parts.empty() ? 0 : parts[0].size(); }
};

// Bit-sliced boolean shares: element e is bit e % 64 of word e / 64 of
// each part.
struct CnfBits {
  size_t count = 0;
  std::vector<std::vector<uint64_t>> parts;
};

class CnfRing {
 public:
  static absl::StatusOr<CnfRing> Create(MpcEngine& engine);
  // Rounds of LessThanZero on m bits for n parties.
  static int SignRounds(int num_parties, int m);
  // The largest `bits` FromField takes with this sigma and n.
  static int MaxConversionBits(int num_parties, int sigma);

  // Shares of every x[e] in [0, 2^bits), 1 <= bits <= MaxConversionBits.
  absl::StatusOr<CnfShares> FromField(const Shares& x, int bits);
  // Element-wise products mod 2^128.
  absl::StatusOr<CnfShares> Mul(const CnfShares& a, const CnfShares& b);
  // Element-wise [x < 0] for x in [-2^(m-1), 2^(m-1)), 2 <= m <= 128
  // (x's bits above m are ignored).
  absl::StatusOr<CnfBits> LessThanZero(const CnfShares& x, int m);
  // Bit e to party receivers[e] only; the result has a value at e exactly
  // when this party is receivers[e].
  absl::StatusOr<std::vector<std::optional<bool>>> OpenBitsTo(const CnfBits& bits,
                                                              absl::Span<const int> receivers);
  // This party's part of `bits` for a receiver outside the committee (a
  // data holder): the XOR of the components it is charged to send; the
  // XOR of every member's part is the bits.
  std::vector<uint64_t> PartForClient(const CnfBits& bits) const;
  // x + c for a public c (added to the component of key set 0).
  void AddConstant(CnfShares& x, uint128 c) const;

  int party_id() const { return party_; }
  int num_parts() const;  // components this party holds: (n - 1 choose t)

  // Who does what, the same at every party: built once at Create.
  struct Layout;

 private:
  // A bit-sliced matrix: `planes` planes of `words` words each, per part.
  struct BitMatrix {
    int planes = 0;
    size_t words = 0;
    std::vector<std::vector<uint64_t>> parts;
  };

  CnfRing(MpcEngine& engine, PseudoRandomSharing& keys, std::shared_ptr<const Layout> layout)
      : engine_(&engine), keys_(&keys), party_(engine.party_id()), layout_(std::move(layout)) {}

  // One round: `mine` (this party's masked sum) to the other members of its
  // target set; returns what each party whose target set holds this one
  // sent, by party.
  absl::StatusOr<std::vector<std::vector<uint8_t>>> Reshare(const std::vector<uint8_t>& mine,
                                                            size_t expected_bytes,
                                                            const char* what);
  absl::StatusOr<BitMatrix> And(const BitMatrix& a, const BitMatrix& b);
  // The sum of `addends` as two addends (the second's plane 0 is zero),
  // one AND layer per carry-save level.
  absl::StatusOr<std::pair<BitMatrix, BitMatrix>> ReduceToTwo(std::vector<BitMatrix> addends);
  // Carry out of the top of x + y (equal shapes).
  absl::StatusOr<BitMatrix> CarryOut(const BitMatrix& x, const BitMatrix& y);

  MpcEngine* engine_;
  PseudoRandomSharing* keys_;
  int party_;
  std::shared_ptr<const Layout> layout_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_CNF_RING_H_

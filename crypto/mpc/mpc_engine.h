// MpcEngine: one compute party's side of the honest-majority Shamir MPC
// engine (semi-honest security against any coalition of up to t < n/2
// parties; DESIGN.md sections 3 and 4).
//
// Structure: the engine is a deterministic program over an injected
// PartyTransport (transport.h) and an injected SecureRng. Every party runs
// the same sequence of calls with the same public arguments; each call that
// communicates consumes a fixed number of rounds, whatever the batch size:
//
//   call              rounds  what each party sends (n parties, t threshold;
//                             with pseudo-random sharing a dealer derives its
//                             t partners' shares from pairwise keys and sends
//                             only n-1-t: 1 instead of 2 for n = 3)
//   Input             1       each owner: its elements' shares to n-1 peers
//   Mul               1       parties 0..2t: n-1 shares per product (GRR)
//   InnerProducts     1       as Mul, one share per group
//   Open              1       n-1 shares per element
//   OpenTo            1       one share per element to its receiver
//   ExchangeWithAll   1       the caller's bytes, to every peer
// Shared randomness, pseudo-random (config.pseudo_random_sharing(); the
// first call also spends one round agreeing the keys, 32 bytes per key):
//   Random            0       nothing
//   RandomBits        1       open of r^2 (degree 2t): n-1 shares per bit;
//                     2       with config.random_bits_by_xor() (t = 1 by
//                             default): 2 dealers deal bits, XOR by one Mul
//   GenerateMasks     as RandomBits; high masks cost nothing
// or dealt:
//   Random            1       parties 0..t: n-1 shares per element
//   RandomBits        2       t = 1: 2 dealers deal bits, XOR by one Mul;
//                             t >= 2: t+1 dealers deal r, open of r^2 (all)
//   GenerateMasks     2       as RandomBits, plus t+1 dealers' high masks
//
// Multiplication is Gennaro-Rabin-Rabin (PODC 1998): parties 0..2t reshare
// their local degree-2t product a_i b_i at degree t and every party
// recombines with the degree-2t Lagrange coefficients at 0. Random bits:
// Damgard-Fitzi-Kiltz-Nielsen-Toft (TCC 2006): r^2 is opened at degree 2t,
// randomised by a degree-2t sharing of zero, and b = (r/sqrt(r^2)+1)/2, with
// r and the zero sharing pseudo-random (pseudo_random_sharing.h) or dealt by
// t+1 parties. With config.random_bits_by_xor() (t = 1), parties 0 and 1
// instead each deal a random bit and b = b0 xor b1 = b0 + b1 - 2 b0 b1 (one
// Mul; either dealer alone sees nothing of b): one more round and twice the
// bytes per bit of the dealers, but no square root (about 135 field
// multiplications per bit, which dominate the squaring's CPU time). A random r = 0 (probability
// about 2^-126
// per bit) is redrawn, at most kMaxBitAttempts times.
//
// Errors: InvalidArgument for inputs of the wrong size or range and for
// malformed or inconsistent shares received from a peer (naming the party,
// round and element); transport errors are passed through. After an error
// the engine must not be used further (parties may be out of step).
// Thread-safety: one engine per party thread; not thread-safe.
#ifndef PPLDA_CRYPTO_MPC_MPC_ENGINE_H_
#define PPLDA_CRYPTO_MPC_MPC_ENGINE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/arith/field_vector.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_masks.h"
#include "crypto/mpc/mpc_prg.h"
#include "crypto/mpc/mpc_shares.h"
#include "crypto/mpc/pseudo_random_sharing.h"
#include "crypto/mpc/transport.h"
#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

class MpcEngine {
 public:
  static constexpr int kMaxBitAttempts = 4;

  // How the engine uses the injected SecureRng.
  enum class Randomness {
    // Key a ChaCha20 stream (mpc_prg.h) from it once: the default.
    kExpand,
    // Draw every random byte from it directly (tests that control bytes).
    kDirect,
  };

  // The transport's party count must equal config.num_parties().
  static absl::StatusOr<std::unique_ptr<MpcEngine>> Create(
      const MpcConfig& config, PartyTransport& transport, SecureRng& rng,
      Randomness randomness = Randomness::kExpand);

  const MpcConfig& config() const { return config_; }
  int party_id() const { return party_; }
  int num_parties() const { return config_.num_parties(); }
  int threshold() const { return config_.threshold(); }
  // Rounds this engine has stepped through so far.
  uint64_t rounds() const { return round_; }
  // The engine's random source: a ChaCha20 stream keyed from the injected
  // SecureRng at creation (mpc_prg.h), or the injected one (kDirect).
  SecureRng& rng() { return rng_; }

  // Element i is secret-shared by party owners[i]; this party passes the
  // values of the elements it owns, in index order.
  absl::StatusOr<Shares> Input(absl::Span<const int> owners,
                               absl::Span<const FieldElement> my_values);

  // Element-wise products a[i] * b[i].
  absl::StatusOr<Shares> Mul(const Shares& a, const Shares& b);
  // out[g] = sum_{i in [g*group_size, (g+1)*group_size)} a[i] * b[i];
  // a.size() must be a multiple of group_size >= 1.
  absl::StatusOr<Shares> InnerProducts(const Shares& a, const Shares& b, size_t group_size);

  // Reveals every element to every party (checking share consistency when
  // n > t + 1).
  absl::StatusOr<FieldVector> Open(const Shares& a);
  // Reveals element i to party receivers[i] only; the result has a value at
  // i exactly when receivers[i] is this party. Other parties receive
  // nothing for element i.
  absl::StatusOr<std::vector<std::optional<FieldElement>>> OpenTo(
      const Shares& a, absl::Span<const int> receivers);

  // Shares of `count` uniform random field elements (sum of t+1 dealers').
  absl::StatusOr<Shares> Random(size_t count);
  // Shares of `count` uniform random bits.
  absl::StatusOr<Shares> RandomBits(size_t count);
  // One MaskBatch per spec (mpc_masks.h), all generated in the same 2 rounds.
  absl::StatusOr<std::vector<MaskBatch>> GenerateMasks(absl::Span<const MaskSpec> specs);

  // One round of opaque bytes, for protocol layers whose messages are not
  // field elements (e.g. Paillier ciphertexts, share_conversion.h): sends
  // payloads[j] to every party j != party_id() (payloads has num_parties()
  // entries; this party's own entry is ignored) and returns what every other
  // party sent (empty at this party's own index).
  absl::StatusOr<std::vector<std::vector<uint8_t>>> ExchangeWithAll(
      std::vector<std::vector<uint8_t>> payloads);
  // One round of opaque bytes between chosen peers: sends payloads[j] to
  // every j in send_to and returns, at index j, what each j in receive_from
  // sent (empty elsewhere). Every party must make the matching call (what
  // i sends to j, j receives from i). InvalidArgument for a bad peer id or
  // a payloads vector without num_parties() entries.
  absl::StatusOr<std::vector<std::vector<uint8_t>>> Exchange(
      absl::Span<const int> send_to, std::vector<std::vector<uint8_t>> payloads,
      absl::Span<const int> receive_from);

  // The pseudo-random sharing (pseudo_random_sharing.h), agreeing its keys
  // (one round) on first use; FailedPrecondition when the config deals its
  // randomness instead. For protocol layers that draw from the key sets'
  // streams (replicated_ring.h): they must do so in the same order at
  // every member of a set.
  absl::StatusOr<PseudoRandomSharing*> SharedRandomness();

  // The pseudo-random sharing's keys as agreed: KeySets order, and the
  // pairwise keys by peer (this party's entries unused). SECRET: wiped on
  // destruction.
  struct SharedKeys {
    std::vector<PrssKey> sets, outgoing, incoming;
    SharedKeys() = default;
    SharedKeys(const SharedKeys&) = default;
    SharedKeys& operator=(const SharedKeys&) = default;
    ~SharedKeys();
  };
  // Agrees fresh keys now (one round) and uses them, returning a copy for a
  // caller that rebuilds engines over keys derived from them
  // (party/iteration_randomness.h). FailedPrecondition when the config
  // deals its randomness or keys are already in use.
  absl::StatusOr<SharedKeys> AgreeSharedKeys();
  // Uses `keys` (agreed by the same parties, or derived alike by all of
  // them) instead of agreeing: no round. FailedPrecondition as above;
  // InvalidArgument for a wrong number of keys.
  absl::Status UseSharedKeys(const SharedKeys& keys);
  // Numbers this engine's next round rounds + 1. Engines that take over a
  // transport in turn continue its numbering, alike at every party.
  void ContinueRoundsAfter(uint64_t rounds) { round_ = rounds; }

 private:
  struct DealBlock {
    absl::Span<const FieldElement> secrets;
    int degree;
  };

  MpcEngine(const MpcConfig& config, PartyTransport& transport, SecureRng& rng,
            Randomness randomness)
      : config_(config),
        transport_(transport),
        expanded_(randomness == Randomness::kExpand ? std::make_unique<ExpandedRng>(rng)
                                                    : nullptr),
        rng_(expanded_ ? *expanded_ : rng),
        party_(transport.party_id()),
        product_recombination_(config.shamir().ZeroCoefficients(2 * config.threshold())) {}

  uint64_t BeginRound() { return ++round_; }
  absl::Status SendElements(int to, uint64_t round, absl::Span<const FieldElement> values);
  absl::StatusOr<FieldVector> ReceiveElements(int from, uint64_t round, size_t count,
                                              std::string_view what);
  // Shamir-shares this party's blocks (my_count values in total) and sends
  // every peer its shares in `round`; returns this party's own shares.
  absl::StatusOr<FieldVector> SendDealtShares(uint64_t round,
                                              absl::Span<const DealBlock> my_blocks,
                                              size_t my_count, std::string_view what);
  // With pseudo-random sharing, dealer d's shares for its t partners
  // (parties d+1..d+t mod n) come from the pairwise streams and only the
  // other n-1-t are sent: half the bytes of a dealing for n = 3, t = 1.
  bool IsPartner(int dealer, int party) const;
  absl::StatusOr<FieldVector> SendDerivedShares(uint64_t round,
                                                absl::Span<const DealBlock> my_blocks,
                                                size_t my_count, std::string_view what);
  // Dealer d's shares for this party: derived when a partner, else received.
  absl::StatusOr<FieldVector> ReceiveDealtShares(int dealer, uint64_t round, size_t count,
                                                 std::string_view what);
  // One round in which parties 0..dealers-1 each deal `count` values; returns
  // sum_d coefficients[d] * (shares from dealer d), decoded on the fly.
  absl::StatusOr<Shares> DealAndCombine(absl::Span<const DealBlock> my_blocks, size_t count,
                                        int dealers, absl::Span<const FieldElement> coefficients,
                                        std::string_view what);
  absl::StatusOr<Shares> MulSpans(absl::Span<const FieldElement> a,
                                  absl::Span<const FieldElement> b, std::string_view what);
  // One round in which each party d with count_by_dealer[d] > 0 deals
  // Shamir sharings of its blocks (this party passes its own blocks, whose
  // total size must equal count_by_dealer[party_id()]). Returns this
  // party's shares from each dealer, indexed by dealer.
  absl::StatusOr<std::vector<FieldVector>> Deal(absl::Span<const DealBlock> my_blocks,
                                                absl::Span<const size_t> count_by_dealer,
                                                std::string_view what);
  // Reshares local degree-2t values (parties 0..2t) and recombines: the
  // degree-reduction step of Mul and InnerProducts.
  absl::StatusOr<Shares> ReduceDegree(const FieldVector& local_products,
                                      std::string_view what);
  // Opens a sharing of the given degree (every party sends to every other).
  absl::StatusOr<FieldVector> OpenAtDegree(const FieldVector& shares, int degree,
                                           std::string_view what);
  struct MaskMaterial {
    Shares bits;
    Shares high;
  };
  // True when random bits are made as the XOR of two dealers' bits (dealt
  // randomness, t = 1), false when by squaring.
  bool UsesXorBits() const { return config_.random_bits_by_xor(); }
  // The pseudo-random sharing, agreeing its keys (one round) on first use.
  absl::StatusOr<PseudoRandomSharing*> PseudoRandom();
  // Mask material without dealing: pseudo-random r, zero and high masks.
  absl::StatusOr<MaskMaterial> PseudoRandomMaskMaterial(absl::Span<const MaskSpec> specs,
                                                        size_t total_bits);
  // Fresh shares of random r (degree t) and of zero (degree 2t) for `count`
  // redrawn bits.
  absl::StatusOr<std::pair<Shares, Shares>> RedrawSquares(size_t count);
  // The dealing round and, for bits, the XOR or squaring round.
  absl::StatusOr<MaskMaterial> DealMaskMaterial(absl::Span<const MaskSpec> specs,
                                                size_t total_bits, size_t total_high);
  static std::vector<MaskBatch> AssembleMasks(absl::Span<const MaskSpec> specs,
                                              const Shares& bits, const Shares& high);
  absl::StatusOr<Shares> XorOfDealerBits(absl::Span<const FieldElement> first,
                                         absl::Span<const FieldElement> second);
  // Turns shares of random r (degree t) and of zero (degree 2t) into shares
  // of random bits; positions where r = 0 are redrawn.
  absl::StatusOr<Shares> BitsFromSquares(Shares r, Shares zero);
  // Sums this party's shares over the t+1 dealers' blocks [offset, offset+count).
  static Shares SumOverDealers(const std::vector<FieldVector>& by_dealer, int dealers,
                               size_t offset, size_t count);

  MpcConfig config_;
  PartyTransport& transport_;
  std::unique_ptr<ExpandedRng> expanded_;
  SecureRng& rng_;
  int party_;
  // Degree-2t Lagrange coefficients at 0 for parties 0..2t.
  FieldVector product_recombination_;
  std::unique_ptr<PseudoRandomSharing> pseudo_random_;
  uint64_t round_ = 0;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_MPC_ENGINE_H_

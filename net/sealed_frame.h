// Sealed MPC frames for relay mode (proto/relay_service.proto): the
// coordinator forwards party-to-party payloads it cannot read or forge.
//
// Keys: each owner of the runs (every participant but the coordinator) holds an X25519 key pair for
// libsodium's crypto_box (X25519 + XSalsa20-Poly1305, authenticated: the receiver knows the
// sender's secret key was used). The public key is pinned in the consortium file next to the
// certificate fingerprint (`box_public_key`), the secret key is a file of 64 hex digits, mode 0600,
// named in party.toml (deploy/make-certs.sh writes both).
//
// A frame from party S to party R in run X at (iteration i, round r):
//   box = nonce || crypto_box_easy(SealedContent{header(version, X, i, r, S),
//                                                R, payload}, nonce, pk_R, sk_S)
// with a fresh random 24-byte nonce (randombytes_buf) per frame. The outer
// SealedFrame names run X, sender S and receiver R for routing only. Open
// refuses, in this order:
//   InvalidArgument     a box shorter than nonce + MAC, or content that is
//                       not a SealedContent
//   PermissionDenied    outer receiver is not this party, outer run is not
//                       this run, outer sender is not an owner of
//                       the run or is this party
//   PermissionDenied    the box does not open with (pk_S, sk_R): not sealed
//                       by S for R, or altered in transit
//   FailedPrecondition  inner protocol version other than kProtocolVersion
//   PermissionDenied    inner run, sender or receiver differ from the outer
//                       ones / this party: a frame replayed into another
//                       run or redirected to another receiver
// Replays within the run (the same box again, or an older one) open fine
// and are refused by the run's FrameInbox: (iteration, round) must come
// after the last frame accepted from S (FailedPrecondition).
// Secrets: the secret key and the precomputed shared keys are zeroed
// (sodium_memzero) on destruction; plaintext buffers made here are zeroed
// after use; nothing secret is logged.
// Thread-safety: BoxSecretKey and FrameSealer are immutable after creation;
// Seal and Open may be called from any thread.
#ifndef PPLDA_NET_SEALED_FRAME_H_
#define PPLDA_NET_SEALED_FRAME_H_

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "net/consortium_file.h"
#include "proto/relay_service.pb.h"

namespace pplda::net {

inline constexpr size_t kBoxKeyBytes = 32;
using BoxPublicKey = std::array<uint8_t, kBoxKeyBytes>;

// 64 hex digits (any case) -> key; InvalidArgument otherwise.
absl::StatusOr<BoxPublicKey> ParseBoxPublicKey(std::string_view hex);
std::string BoxPublicKeyHex(const BoxPublicKey& key);

class BoxSecretKey {
 public:
  // Reads a file holding 64 hex digits (surrounding whitespace allowed):
  // NotFound when unreadable, FailedPrecondition when group or others may
  // read it (chmod 600), InvalidArgument for other content.
  static absl::StatusOr<BoxSecretKey> Load(const std::filesystem::path& path);
  // From 64 hex digits; `hex` is zeroed.
  static absl::StatusOr<BoxSecretKey> FromHex(std::string hex);
  // A fresh key pair from libsodium's generator (tests, tooling).
  static BoxSecretKey Generate();

  BoxSecretKey(BoxSecretKey&& other) noexcept;
  BoxSecretKey& operator=(BoxSecretKey&& other) noexcept;
  BoxSecretKey(const BoxSecretKey&) = delete;
  BoxSecretKey& operator=(const BoxSecretKey&) = delete;
  ~BoxSecretKey();

  const BoxPublicKey& public_key() const { return public_; }
  // FailedPrecondition unless the consortium pins this key's public half
  // for `participant_name` (a daemon checks it at start).
  absl::Status CheckPinned(const Consortium& consortium, std::string_view participant_name) const;

 private:
  friend class FrameSealer;
  BoxSecretKey() = default;
  void DerivePublic();

  std::array<uint8_t, kBoxKeyBytes> secret_{};
  BoxPublicKey public_{};
};

// The frame's contents once opened.
struct OpenedFrame {
  int from = -1;  // sender's party index
  int iteration = 0;
  uint64_t round = 0;
  std::string payload;
};

// One party's sealing keys for one run: a shared key (crypto_box_beforenm)
// per peer, computed once.
class FrameSealer {
 public:
  struct Party {
    std::string name;
    BoxPublicKey box_public_key;
  };
  // `parties`: every owner of the run by owner index, this one
  // (party_id) included. FailedPrecondition when `secret`'s public half is
  // not parties[party_id]'s key; InvalidArgument for an empty run id or a
  // party id out of range.
  static absl::StatusOr<std::unique_ptr<FrameSealer>> Create(std::string run_id, int party_id,
                                                             std::vector<Party> parties,
                                                             const BoxSecretKey& secret);
  // The consortium's owners (owners()) with their pinned box keys;
  // FailedPrecondition naming a party without one.
  static absl::StatusOr<std::vector<Party>> PartiesOf(const Consortium& consortium);
  ~FrameSealer();
  FrameSealer(const FrameSealer&) = delete;
  FrameSealer& operator=(const FrameSealer&) = delete;

  const std::string& run_id() const { return run_id_; }
  int party_id() const { return party_id_; }
  int num_parties() const { return static_cast<int>(parties_.size()); }
  const std::string& party_name(int party) const { return parties_[party].name; }
  // Index of a party's name, or -1.
  int PartyIndex(std::string_view name) const;

  // This party's frame of (iteration, round) for party `to`.
  // InvalidArgument for `to` out of range or this party.
  absl::StatusOr<pplda::v1::SealedFrame> Seal(int to, int iteration, uint64_t round,
                                              absl::Span<const uint8_t> payload) const;
  // See the refusals above.
  absl::StatusOr<OpenedFrame> Open(const pplda::v1::SealedFrame& frame) const;

 private:
  FrameSealer(std::string run_id, int party_id, std::vector<Party> parties);

  const std::string run_id_;
  const int party_id_;
  const std::vector<Party> parties_;
  // crypto_box_beforenm(pk_j, sk_me) by party index; zeros for self.
  std::vector<std::array<uint8_t, 32>> shared_;
};

}  // namespace pplda::net

#endif  // PPLDA_NET_SEALED_FRAME_H_

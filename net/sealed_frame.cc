#include "net/sealed_frame.h"

#include <sodium.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/secret_file.h"
#include "base/status_macros.h"
#include "net/protocol_version.h"

namespace pplda::net {
namespace {

static_assert(crypto_box_PUBLICKEYBYTES == kBoxKeyBytes);
static_assert(crypto_box_SECRETKEYBYTES == kBoxKeyBytes);
static_assert(crypto_box_BEFORENMBYTES == 32);

absl::Status EnsureSodium() {
  if (sodium_init() < 0) return absl::InternalError("libsodium failed to initialise");
  return absl::OkStatus();
}

// 64 hex digits -> 32 bytes (constant-time decoding, libsodium's).
absl::Status DecodeHex32(std::string_view hex, std::array<uint8_t, kBoxKeyBytes>& out) {
  size_t length = 0;
  const char* end = nullptr;
  if (hex.size() != 2 * kBoxKeyBytes ||
      sodium_hex2bin(out.data(), out.size(), hex.data(), hex.size(), nullptr, &length, &end) !=
          0 ||
      length != kBoxKeyBytes || end != hex.data() + hex.size()) {
    sodium_memzero(out.data(), out.size());
    return absl::InvalidArgumentError("not an X25519 key (64 hex digits)");
  }
  return absl::OkStatus();
}

void Wipe(std::string& s) {
  if (!s.empty()) sodium_memzero(s.data(), s.size());
  s.clear();
}

}  // namespace

absl::StatusOr<BoxPublicKey> ParseBoxPublicKey(std::string_view hex) {
  BoxPublicKey key{};
  RETURN_IF_ERROR(DecodeHex32(hex, key));
  return key;
}

std::string BoxPublicKeyHex(const BoxPublicKey& key) {
  std::string hex(2 * kBoxKeyBytes + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), key.data(), key.size());
  hex.pop_back();
  return hex;
}

BoxSecretKey::BoxSecretKey(BoxSecretKey&& other) noexcept
    : secret_(other.secret_), public_(other.public_) {
  sodium_memzero(other.secret_.data(), other.secret_.size());
}

BoxSecretKey& BoxSecretKey::operator=(BoxSecretKey&& other) noexcept {
  if (this != &other) {
    secret_ = other.secret_;
    public_ = other.public_;
    sodium_memzero(other.secret_.data(), other.secret_.size());
  }
  return *this;
}

BoxSecretKey::~BoxSecretKey() { sodium_memzero(secret_.data(), secret_.size()); }

void BoxSecretKey::DerivePublic() { crypto_scalarmult_base(public_.data(), secret_.data()); }

absl::StatusOr<BoxSecretKey> BoxSecretKey::FromHex(std::string hex) {
  RETURN_IF_ERROR(EnsureSodium());
  BoxSecretKey key;
  const absl::string_view trimmed = absl::StripAsciiWhitespace(hex);
  absl::Status decoded =
      DecodeHex32(std::string_view(trimmed.data(), trimmed.size()), key.secret_);
  Wipe(hex);
  RETURN_IF_ERROR(decoded);
  key.DerivePublic();
  return key;
}

BoxSecretKey BoxSecretKey::Generate() {
  if (sodium_init() < 0) std::abort();  // libsodium unusable: nothing can be sealed
  BoxSecretKey key;
  crypto_box_keypair(key.public_.data(), key.secret_.data());
  return key;
}

absl::StatusOr<BoxSecretKey> BoxSecretKey::Load(const std::filesystem::path& path) {
  ASSIGN_OR_RETURN(std::string text, ReadSecretFile(path, "box secret key", 4096));
  absl::StatusOr<BoxSecretKey> key = FromHex(std::move(text));
  if (!key.ok()) {
    return absl::Status(key.status().code(),
                        absl::StrCat("box secret key ", path.string(), ": ", key.status().message()));
  }
  return key;
}

absl::Status BoxSecretKey::CheckPinned(const Consortium& consortium,
                                       std::string_view participant_name) const {
  ASSIGN_OR_RETURN(Participant me, consortium.FindByName(participant_name));
  const std::string mine = BoxPublicKeyHex(public_);
  if (me.box_public_key != mine) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the box key's public half ", mine, " is not the box_public_key pinned for \"",
        me.name, "\" in consortium \"", consortium.name(), "\" (",
        me.box_public_key.empty() ? "none" : me.box_public_key, ")"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<FrameSealer::Party>> FrameSealer::PartiesOf(
    const Consortium& consortium) {
  std::vector<Party> out;
  for (const Participant& p : consortium.owners()) {
    if (p.box_public_key.empty()) {
      return absl::FailedPreconditionError(absl::StrCat("participant \"", p.name,
                                                        "\" has no box_public_key in consortium \"",
                                                        consortium.name(), "\""));
    }
    ASSIGN_OR_RETURN(BoxPublicKey key, ParseBoxPublicKey(p.box_public_key));
    out.push_back(Party{p.name, key});
  }
  return out;
}

FrameSealer::FrameSealer(std::string run_id, int party_id, std::vector<Party> parties)
    : run_id_(std::move(run_id)), party_id_(party_id), parties_(std::move(parties)) {}

FrameSealer::~FrameSealer() {
  for (auto& k : shared_) sodium_memzero(k.data(), k.size());
}

absl::StatusOr<std::unique_ptr<FrameSealer>> FrameSealer::Create(std::string run_id,
                                                                 int party_id,
                                                                 std::vector<Party> parties,
                                                                 const BoxSecretKey& secret) {
  RETURN_IF_ERROR(EnsureSodium());
  if (run_id.empty()) return absl::InvalidArgumentError("frame sealer: empty run id");
  const int n = static_cast<int>(parties.size());
  if (party_id < 0 || party_id >= n) {
    return absl::InvalidArgumentError(
        absl::StrCat("frame sealer: party id ", party_id, " outside 0..", n - 1));
  }
  if (parties[party_id].box_public_key != secret.public_key()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the box secret key of \"", parties[party_id].name,
        "\" does not match its pinned box_public_key"));
  }
  std::unique_ptr<FrameSealer> sealer(new FrameSealer(std::move(run_id), party_id,
                                                      std::move(parties)));
  sealer->shared_.resize(n);
  for (int j = 0; j < n; ++j) {
    sealer->shared_[j].fill(0);
    if (j == party_id) continue;
    if (crypto_box_beforenm(sealer->shared_[j].data(),
                            sealer->parties_[j].box_public_key.data(),
                            secret.secret_.data()) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the box_public_key of \"", sealer->parties_[j].name, "\" is a weak X25519 key"));
    }
  }
  return sealer;
}

int FrameSealer::PartyIndex(std::string_view name) const {
  for (size_t i = 0; i < parties_.size(); ++i) {
    if (parties_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

absl::StatusOr<pplda::v1::SealedFrame> FrameSealer::Seal(int to, int iteration, uint64_t round,
                                                         absl::Span<const uint8_t> payload) const {
  if (to < 0 || to >= num_parties() || to == party_id_) {
    return absl::InvalidArgumentError(absl::StrCat("party ", party_id_,
                                                   " cannot seal a frame for party ", to));
  }
  pplda::v1::SealedContent content;
  pplda::v1::WireHeader* h = content.mutable_header();
  h->set_protocol_version(kProtocolVersion);
  h->set_run_id(run_id_);
  h->set_iteration(iteration);
  h->set_round(round);
  h->set_sender(parties_[party_id_].name);
  content.set_receiver(parties_[to].name);
  content.set_payload(payload.data(), payload.size());
  std::string plain = content.SerializeAsString();
  Wipe(*content.mutable_payload());

  std::string box(crypto_box_NONCEBYTES + crypto_box_MACBYTES + plain.size(), '\0');
  auto* out = reinterpret_cast<unsigned char*>(box.data());
  randombytes_buf(out, crypto_box_NONCEBYTES);
  const int rc = crypto_box_easy_afternm(out + crypto_box_NONCEBYTES,
                                         reinterpret_cast<const unsigned char*>(plain.data()),
                                         plain.size(), out, shared_[to].data());
  Wipe(plain);
  if (rc != 0) return absl::InternalError("crypto_box_easy_afternm failed");
  pplda::v1::SealedFrame frame;
  frame.set_run_id(run_id_);
  frame.set_sender(parties_[party_id_].name);
  frame.set_receiver(parties_[to].name);
  frame.set_box(std::move(box));
  return frame;
}

absl::StatusOr<OpenedFrame> FrameSealer::Open(const pplda::v1::SealedFrame& frame) const {
  const std::string& me = parties_[party_id_].name;
  const std::string& box = frame.box();
  if (box.size() < crypto_box_NONCEBYTES + crypto_box_MACBYTES) {
    return absl::InvalidArgumentError(absl::StrCat("sealed frame from \"", frame.sender(),
                                                   "\" of ", box.size(),
                                                   " bytes is shorter than nonce + MAC"));
  }
  if (frame.receiver() != me) {
    return absl::PermissionDeniedError(absl::StrCat("sealed frame for \"", frame.receiver(),
                                                    "\" delivered to \"", me, "\""));
  }
  if (frame.run_id() != run_id_) {
    return absl::PermissionDeniedError(absl::StrCat("sealed frame of run \"", frame.run_id(),
                                                    "\" delivered to run ", run_id_));
  }
  const int from = PartyIndex(frame.sender());
  if (from < 0 || from == party_id_) {
    return absl::PermissionDeniedError(absl::StrCat("sealed frame from \"", frame.sender(),
                                                    "\", not a peer of \"", me, "\" in run ",
                                                    run_id_));
  }
  const auto* in = reinterpret_cast<const unsigned char*>(box.data());
  std::string plain(box.size() - crypto_box_NONCEBYTES - crypto_box_MACBYTES, '\0');
  if (crypto_box_open_easy_afternm(reinterpret_cast<unsigned char*>(plain.data()),
                                   in + crypto_box_NONCEBYTES, box.size() - crypto_box_NONCEBYTES,
                                   in, shared_[from].data()) != 0) {
    return absl::PermissionDeniedError(absl::StrCat(
        "sealed frame claiming to come from \"", frame.sender(), "\" does not open at \"", me,
        "\": not sealed by that party for this one, or altered in transit"));
  }
  pplda::v1::SealedContent content;
  const bool parsed = content.ParseFromString(plain);
  Wipe(plain);
  if (!parsed || !content.has_header()) {
    Wipe(*content.mutable_payload());
    return absl::InvalidArgumentError(absl::StrCat("sealed frame from \"", frame.sender(),
                                                   "\" holds no valid SealedContent"));
  }
  const pplda::v1::WireHeader& h = content.header();
  absl::Status refused;
  if (h.protocol_version() != kProtocolVersion) {
    refused = absl::FailedPreconditionError(
        absl::StrCat("sealed frame from \"", frame.sender(), "\": protocol version ",
                     h.protocol_version(), ", this daemon speaks ", kProtocolVersion));
  } else if (h.run_id() != run_id_) {
    refused = absl::PermissionDeniedError(absl::StrCat(
        "sealed frame from \"", frame.sender(), "\" was sealed for run \"", h.run_id(),
        "\", not ", run_id_, " (replayed from another run)"));
  } else if (h.sender() != frame.sender()) {
    refused = absl::PermissionDeniedError(absl::StrCat(
        "sealed frame from \"", frame.sender(), "\" names sender \"", h.sender(), "\" inside"));
  } else if (content.receiver() != me) {
    refused = absl::PermissionDeniedError(absl::StrCat(
        "sealed frame from \"", frame.sender(), "\" was sealed for \"", content.receiver(),
        "\", not \"", me, "\" (redirected)"));
  } else if (h.iteration() < 0 || h.round() == 0) {
    refused = absl::InvalidArgumentError(absl::StrCat(
        "sealed frame from \"", frame.sender(), "\": iteration ", h.iteration(), ", round ",
        h.round(), " (iteration >= 0, round >= 1)"));
  }
  if (!refused.ok()) {
    Wipe(*content.mutable_payload());
    return refused;
  }
  OpenedFrame out;
  out.from = from;
  out.iteration = h.iteration();
  out.round = h.round();
  out.payload = std::move(*content.mutable_payload());
  return out;
}

}  // namespace pplda::net

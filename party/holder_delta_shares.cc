#include "party/holder_delta_shares.h"

#include <algorithm>
#include <array>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "crypto/arith/big_int.h"
#include "crypto/mpc/mpc_prg.h"

namespace pplda::party {
namespace {

constexpr size_t kSeedBytes = 32;

size_t ValueBytes(const mpz_class& modulus) { return (crypto::BitLength(modulus) + 7) / 8; }

// The pseudo-random share a seed stands for.
std::vector<mpz_class> ExpandSeed(const std::array<uint8_t, kSeedBytes>& seed, size_t count,
                                  const mpz_class& modulus) {
  crypto::ExpandedRng stream(seed);
  std::vector<mpz_class> share(count);
  for (mpz_class& v : share) v = stream.UniformBelow(modulus);
  return share;
}

}  // namespace

std::vector<std::vector<uint8_t>> SplitPackedDeltas(const std::vector<mpz_class>& packed,
                                                    const mpz_class& modulus, int committee,
                                                    int holder, crypto::SecureRng& rng) {
  const int full = FullShareMember(holder, committee);
  std::vector<mpz_class> rest(packed.size());
  for (size_t i = 0; i < packed.size(); ++i) {
    rest[i] = packed[i] % modulus;
    if (rest[i] < 0) rest[i] += modulus;
  }
  std::vector<std::vector<uint8_t>> messages(committee);
  for (int j = 0; j < committee; ++j) {
    if (j == full) continue;
    std::array<uint8_t, kSeedBytes> seed{};
    rng.Fill(absl::MakeSpan(seed));
    const std::vector<mpz_class> share = ExpandSeed(seed, packed.size(), modulus);
    for (size_t i = 0; i < rest.size(); ++i) {
      rest[i] -= share[i];
      if (rest[i] < 0) rest[i] += modulus;
    }
    messages[j].assign(seed.begin(), seed.end());
  }
  const size_t width = ValueBytes(modulus);
  std::vector<uint8_t>& out = messages[full];
  out.reserve(rest.size() * width);
  for (mpz_class& v : rest) {
    // 0 <= v < N < 256^width: the encoding cannot fail.
    const std::string bytes = *crypto::ToFixedBytes(v, width);
    out.insert(out.end(), bytes.begin(), bytes.end());
    crypto::Wipe(v);
  }
  return messages;
}

absl::StatusOr<std::vector<mpz_class>> PackedDeltaShare(const std::vector<uint8_t>& message,
                                                        size_t count, const mpz_class& modulus,
                                                        int committee, int holder, int member) {
  const std::string who =
      absl::StrCat("data holder ", holder, "'s delta share for member ", member);
  if (member != FullShareMember(holder, committee)) {
    if (message.size() != kSeedBytes) {
      return absl::InvalidArgumentError(
          absl::StrCat(who, ": ", message.size(), " bytes, expected a ", kSeedBytes, "-byte seed"));
    }
    std::array<uint8_t, kSeedBytes> seed{};
    std::copy(message.begin(), message.end(), seed.begin());
    return ExpandSeed(seed, count, modulus);
  }
  const size_t width = ValueBytes(modulus);
  if (message.size() != count * width) {
    return absl::InvalidArgumentError(absl::StrCat(who, ": ", message.size(), " bytes, expected ",
                                                   count, " values of ", width, " bytes"));
  }
  std::vector<mpz_class> share(count);
  for (size_t i = 0; i < count; ++i) {
    share[i] = crypto::FromBytes(
        std::string_view(reinterpret_cast<const char*>(message.data()) + i * width, width));
    if (share[i] >= modulus) {
      return absl::InvalidArgumentError(absl::StrCat(who, ": value ", i, " is not below N"));
    }
  }
  return share;
}

}  // namespace pplda::party

#include "crypto/mpc/mpc_prg.h"

#include <sodium.h>

#include <algorithm>
#include <cstring>

namespace pplda::crypto {

static_assert(crypto_stream_chacha20_KEYBYTES == 32);
static_assert(crypto_stream_chacha20_NONCEBYTES == 8);

ExpandedRng::ExpandedRng(SecureRng& seed_source)
    : buffer_(kBufferBytes), used_(kBufferBytes) {
  [[maybe_unused]] const int ignored = sodium_init();
  seed_source.Fill(absl::MakeSpan(key_));
}

ExpandedRng::ExpandedRng(const std::array<uint8_t, 32>& key)
    : key_(key), buffer_(kBufferBytes), used_(kBufferBytes) {
  [[maybe_unused]] const int ignored = sodium_init();
}

ExpandedRng::~ExpandedRng() {
  sodium_memzero(key_.data(), key_.size());
  sodium_memzero(buffer_.data(), buffer_.size());
}

void ExpandedRng::Refill() {
  uint8_t nonce[crypto_stream_chacha20_NONCEBYTES];
  for (int i = 0; i < 8; ++i) nonce[i] = static_cast<uint8_t>(nonce_ >> (8 * i));
  ++nonce_;
  crypto_stream_chacha20(buffer_.data(), buffer_.size(), nonce, key_.data());
  used_ = 0;
}

void ExpandedRng::Fill(absl::Span<uint8_t> out) {
  size_t done = 0;
  while (done < out.size()) {
    if (used_ == buffer_.size()) Refill();
    const size_t n = std::min(out.size() - done, buffer_.size() - used_);
    std::memcpy(out.data() + done, buffer_.data() + used_, n);
    sodium_memzero(buffer_.data() + used_, n);  // bytes handed out are not kept
    used_ += n;
    done += n;
  }
}

}  // namespace pplda::crypto

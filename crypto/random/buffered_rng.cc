#include "crypto/random/buffered_rng.h"

#include <sodium.h>

#include <algorithm>
#include <cstring>

namespace pplda::crypto {

BufferedRng::~BufferedRng() { sodium_memzero(buffer_.data(), buffer_.size()); }

void BufferedRng::Fill(absl::Span<uint8_t> out) {
  std::lock_guard<std::mutex> lock(mu_);
  size_t done = 0;
  while (done < out.size()) {
    if (next_ == buffer_.size()) {
      inner_.Fill(absl::MakeSpan(buffer_));
      next_ = 0;
    }
    const size_t take = std::min(out.size() - done, buffer_.size() - next_);
    std::memcpy(out.data() + done, buffer_.data() + next_, take);
    sodium_memzero(buffer_.data() + next_, take);
    next_ += take;
    done += take;
  }
}

}  // namespace pplda::crypto

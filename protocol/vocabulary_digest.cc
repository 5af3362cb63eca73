#include "protocol/vocabulary_digest.h"

#include <sodium.h>

#include <cstdint>

namespace pplda::protocol {

std::string VocabularySha256(const lda::Vocabulary& vocabulary) {
  crypto_hash_sha256_state state;
  crypto_hash_sha256_init(&state);
  for (const std::string& t : vocabulary.terms()) {
    crypto_hash_sha256_update(&state, reinterpret_cast<const uint8_t*>(t.data()), t.size());
    const uint8_t newline = '\n';
    crypto_hash_sha256_update(&state, &newline, 1);
  }
  uint8_t out[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&state, out);
  std::string hex(2 * sizeof(out) + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), out, sizeof(out));
  hex.pop_back();
  return hex;
}

}  // namespace pplda::protocol

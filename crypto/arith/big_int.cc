#include "crypto/arith/big_int.h"

#include <sodium.h>

#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace pplda::crypto {

size_t BitLength(const mpz_class& x) {
  return x == 0 ? 0 : mpz_sizeinbase(x.get_mpz_t(), 2);
}

size_t ByteLength(const mpz_class& x) { return (BitLength(x) + 7) / 8; }

absl::StatusOr<std::string> ToFixedBytes(const mpz_class& x, size_t len) {
  if (x < 0) {
    return absl::OutOfRangeError("cannot encode a negative integer as unsigned bytes");
  }
  const size_t need = ByteLength(x);
  if (need > len) {
    return absl::OutOfRangeError(absl::StrCat("integer of ", need,
                                              " bytes does not fit the fixed length of ",
                                              len, " bytes"));
  }
  std::string out(len, '\0');
  size_t written = 0;
  mpz_export(out.data() + (len - need), &written, 1, 1, 1, 0, x.get_mpz_t());
  return out;
}

std::string ToMinimalBytes(const mpz_class& x) {
  std::string out(ByteLength(x), '\0');
  size_t written = 0;
  if (!out.empty()) mpz_export(out.data(), &written, 1, 1, 1, 0, x.get_mpz_t());
  return out;
}

mpz_class FromBytes(std::string_view bytes) {
  mpz_class out;
  if (!bytes.empty()) {
    mpz_import(out.get_mpz_t(), bytes.size(), 1, 1, 1, 0, bytes.data());
  }
  return out;
}

void Wipe(mpz_class& x) {
  mpz_ptr p = x.get_mpz_t();
  if (p->_mp_alloc > 0 && p->_mp_d != nullptr) {
    sodium_memzero(p->_mp_d, static_cast<size_t>(p->_mp_alloc) * sizeof(mp_limb_t));
  }
  p->_mp_size = 0;
}

void WipeString(std::string& s) {
  if (!s.empty()) sodium_memzero(s.data(), s.size());
  s.clear();
}

mpz_class HashToInteger(std::string_view input, size_t bytes) {
  std::string out;
  for (uint32_t block = 0; out.size() < bytes; ++block) {
    unsigned char digest[crypto_generichash_BYTES_MAX];
    std::string message(input);
    message += "/" + std::to_string(block);
    crypto_generichash(digest, sizeof(digest), reinterpret_cast<const unsigned char*>(message.data()),
                       message.size(), nullptr, 0);
    out.append(reinterpret_cast<const char*>(digest), sizeof(digest));
  }
  return FromBytes(out);
}

mpz_class Factorial(unsigned n) {
  mpz_class out;
  mpz_fac_ui(out.get_mpz_t(), n);
  return out;
}

namespace {

void* ZeroingAlloc(size_t size) { return std::malloc(size); }

void* ZeroingRealloc(void* old, size_t old_size, size_t new_size) {
  void* fresh = std::malloc(new_size);
  if (fresh == nullptr) return nullptr;
  std::memcpy(fresh, old, old_size < new_size ? old_size : new_size);
  sodium_memzero(old, old_size);
  std::free(old);
  return fresh;
}

void ZeroingFree(void* p, size_t size) {
  sodium_memzero(p, size);
  std::free(p);
}

}  // namespace

void InstallZeroingGmpAllocator() {
  mp_set_memory_functions(&ZeroingAlloc, &ZeroingRealloc, &ZeroingFree);
}

}  // namespace pplda::crypto

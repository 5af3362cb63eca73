// libFuzzer target: the key file readers on arbitrary file bytes. The first
// byte chooses the reader: a threshold Paillier key share (0600,
// crypto/paillier/paillier_key_file.h), the public key, or a party's X25519 box
// secret key (0600, net/sealed_frame.h); the rest is the file. Any crash,
// sanitizer report, hang or out-of-memory is a finding; an error status is
// the expected answer to bad bytes. A key that reads must be usable
// (abort = finding): a share decrypts its own public key's encryption of 1
// to a partial decryption, a public key encrypts.
//
// Seeds: PPLDA_FUZZ_WRITE_SEEDS=fuzz/corpus/key_files build-fuzz/fuzz/fuzz_key_files
// writes a dealt 1024-bit test key's files (crypto/paillier/paillier_testing.h) and
// exits.
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_key_file.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "fuzz/fuzz_util.h"
#include "net/sealed_frame.h"

namespace pplda::fuzz {
namespace {

enum Reader : uint8_t { kKeyShare = 0, kPublicKey = 1, kBoxSecretKey = 2, kReaders = 3 };

std::string ReadBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteSeeds(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const std::filesystem::path scratch = ScratchFolder("key_seeds");
  absl::StatusOr<crypto::DealtKey> key =
      crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, 3, 2, 3);
  Require(key.ok());
  Require(crypto::WriteKeyShareFile(scratch / "share.key", key->shares[0]).ok());
  Require(crypto::WritePublicKeyFile(scratch / "public.key", *key->public_key).ok());
  WriteFile(dir / "share", std::string(1, kKeyShare) + ReadBytes(scratch / "share.key"));
  WriteFile(dir / "public", std::string(1, kPublicKey) + ReadBytes(scratch / "public.key"));
  WriteFile(dir / "box", std::string(1, kBoxSecretKey) +
                             "3f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0\n");
  std::exit(0);
}

// An encryption of 1 under `key`, from a fixed seed. A 1-bit window keeps
// the fixed-base table to ell squarings (the default 8-bit window costs
// about 16,000 multiplications mod N^2 per input: 0.3 s under ASan, and a
// 10 s libFuzzer timeout on a loaded machine).
crypto::Ciphertext EncryptOne(const crypto::PaillierPublicKey& key) {
  crypto::SeededRng rng(7);
  crypto::EncryptorOptions options;
  options.window_bits = 1;
  absl::StatusOr<std::unique_ptr<crypto::PaillierEncryptor>> encryptor =
      crypto::PaillierEncryptor::Create(key, rng, options);
  Require(encryptor.ok());
  absl::StatusOr<crypto::Ciphertext> c = (*encryptor)->Encrypt(mpz_class(1));
  Require(c.ok());
  return *std::move(c);
}

void Run(uint8_t reader, std::string_view bytes) {
  const std::filesystem::path dir = ScratchFolder("keys");
  switch (reader % kReaders) {
    case kKeyShare: {
      WriteFile(dir / "share.key", bytes, 0600);
      absl::StatusOr<crypto::PaillierKeyShare> share = crypto::ReadKeyShareFile(dir / "share.key");
      Trace("ReadKeyShareFile", share.status());
      if (share.ok()) {
        const crypto::Ciphertext c = EncryptOne(share->public_key()->paillier());
        Require(share->PartialDecrypt(c).ok());
      }
      break;
    }
    case kPublicKey: {
      WriteFile(dir / "public.key", bytes, 0644);
      absl::StatusOr<crypto::ThresholdPublicKeyPtr> key =
          crypto::ReadPublicKeyFile(dir / "public.key");
      Trace("ReadPublicKeyFile", key.status());
      if (key.ok()) (void)EncryptOne((*key)->paillier());
      break;
    }
    default:
      WriteFile(dir / "box.key", bytes, 0600);
      Trace("BoxSecretKey::Load", net::BoxSecretKey::Load(dir / "box.key").status());
      break;
  }
}

}  // namespace
}  // namespace pplda::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const std::filesystem::path seeds = pplda::fuzz::SeedFolder();
  if (!seeds.empty()) pplda::fuzz::WriteSeeds(seeds);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  pplda::fuzz::Run(data[0], std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  return 0;
}

// Value types that travel between parties in threshold Paillier:
//  - Ciphertext:             c in Z*_{N^2} (PaillierPublicKey::ValidateCiphertext).
//  - PartialDecryption:      party i's c_i = c^(2 Delta s_i) mod N^2.
//  - DecryptionProof:        Shoup's proof (e, z) that log_{c^4}(c_i^2) =
//                            log_v(v_i) (see paillier_key_share.h).
//  - PartialDecryptionBatch: one party's partial decryptions of a batch of
//                            ciphertexts, in the batch's order; proofs is
//                            empty or has one entry per value.
// Plain data: no invariants are enforced here; they are checked where values
// are received (paillier_serialization.h, PaillierCombiner).
#ifndef PPLDA_CRYPTO_PAILLIER_PAILLIER_CIPHERTEXT_H_
#define PPLDA_CRYPTO_PAILLIER_PAILLIER_CIPHERTEXT_H_

#include <gmpxx.h>

#include <vector>

namespace pplda::crypto {

struct Ciphertext {
  mpz_class value;
  bool operator==(const Ciphertext& other) const { return value == other.value; }
};

struct DecryptionProof {
  mpz_class challenge;  // e in [0, 2^128)
  mpz_class response;   // z = r + e * Delta * s_i
};

struct PartialDecryption {
  int party = 0;  // 1 .. num_parties
  mpz_class value;
};

struct PartialDecryptionBatch {
  int party = 0;  // 1 .. num_parties
  std::vector<mpz_class> values;
  std::vector<DecryptionProof> proofs;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PAILLIER_CIPHERTEXT_H_

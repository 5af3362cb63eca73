// How a data holder outside the committee hands the committee its packed
// count deltas of an iteration (party/data_holder.h, step 5) without
// encrypting them itself: an additive sharing modulo N (the Paillier
// modulus) of the packed plaintexts P (plan.layout(): matrix then totals),
// one share per member; each member adds its share of every holder to its
// own packed deltas and encrypts the sum once (party/lda_party.h, step 6),
// so the fold of the members' updates holds every holder's deltas, and
// the holders' updates of iterations 1.. are empty.
//   - The full member of holder h is member h mod n (the load rotates);
//     every other member j gets a 32-byte seed s_j and its share is the
//     stream ExpandedRng(s_j).UniformBelow(N), one value per plaintext; the
//     full member gets P - (sum of those shares) mod N, |N| bytes each,
//     big-endian.
//   - Any n - 1 members together see values independent of P (uniform up to
//     ChaCha20's pseudo-randomness); so a data holder's deltas need every
//     member to collude, more than the key's t + 1.
// What a holder sends per iteration: (n - 1) * 32 + count * |N| bytes, in
// place of 2 * count * |N| bytes of ciphertexts and count encryptions.
// Errors: InvalidArgument for a message of the wrong size or a value not
// below N, naming the holder and member.
#ifndef PPLDA_PARTY_HOLDER_DELTA_SHARES_H_
#define PPLDA_PARTY_HOLDER_DELTA_SHARES_H_

#include <gmpxx.h>

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "crypto/random/secure_rng.h"

namespace pplda::party {

// The member that receives holder `holder`'s full share vector.
inline int FullShareMember(int holder, int committee) { return holder % committee; }

// One message per member: the sharing of `packed` (each value reduced mod
// `modulus` first), seeds drawn from `rng`.
std::vector<std::vector<uint8_t>> SplitPackedDeltas(const std::vector<mpz_class>& packed,
                                                    const mpz_class& modulus, int committee,
                                                    int holder, crypto::SecureRng& rng);

// Member `member`'s share of `count` values from holder `holder`'s message.
absl::StatusOr<std::vector<mpz_class>> PackedDeltaShare(const std::vector<uint8_t>& message,
                                                        size_t count, const mpz_class& modulus,
                                                        int committee, int holder, int member);

}  // namespace pplda::party

#endif  // PPLDA_PARTY_HOLDER_DELTA_SHARES_H_

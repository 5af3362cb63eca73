// The typed messages between the coordinator and the parties of a secure LDA
// run (docs/protocol.md, "Messages"). The peer-to-peer MPC traffic goes over
// the MpcEngine's PartyTransport; these are the only coordinator <-> party
// messages, so a gRPC adapter maps each struct to one proto message.
//
//   CountUpdate      party -> coordinator: the party's packed encrypted
//                    topic-term counts (iteration 0: its initial counts;
//                    later: its deltas for EVERY term, so the coordinator
//                    cannot tell which terms changed) and topic totals;
//                    in a DP run, when iteration + 1 starts with a release,
//                    also the party's encrypted noise shares in the same
//                    layout (protocol/secure_dp_noise.h), folded into a noisy
//                    copy and never into the exact counts.
//   GlobalCounts     coordinator -> every party: the encrypted global matrix
//                    [n_k(t)] (SecureLdaPlan::MatrixCiphertexts()) and the
//                    encrypted totals [n_k] at the start of `iteration`.
//   DecryptionShare  party -> coordinator, at publication: the party's
//                    partial decryptions of GlobalCounts' ciphertexts
//                    (matrix first, then totals).
// Every message carries the run id and the iteration; a receiver rejects a
// message of another run or iteration with FailedPrecondition and one of the
// wrong shape with InvalidArgument (naming the field and the sender).
// Plain data; thread-safety of a value.
#ifndef PPLDA_PROTOCOL_MESSAGES_H_
#define PPLDA_PROTOCOL_MESSAGES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "crypto/paillier/paillier_ciphertext.h"

namespace pplda::protocol {

struct CountUpdate {
  std::string run_id;
  int iteration = 0;  // 0: initial counts; i >= 1: deltas of iteration i
  int party = 0;      // 0-based compute party id
  std::vector<crypto::Ciphertext> matrix;
  std::vector<crypto::Ciphertext> totals;
  // DP: the noise for the release at the start of iteration + 1 (empty
  // otherwise): packed Z_p(t, k) like `matrix`, Z_p(k) = sum_t like `totals`.
  std::vector<crypto::Ciphertext> noise_matrix;
  std::vector<crypto::Ciphertext> noise_totals;
};

struct GlobalCounts {
  std::string run_id;
  int iteration = 0;  // counts at the start of iteration `iteration` (1-based)
  std::vector<crypto::Ciphertext> matrix;
  std::vector<crypto::Ciphertext> totals;
};

struct DecryptionShare {
  std::string run_id;
  int iteration = 0;
  int party = 0;
  crypto::PartialDecryptionBatch partials;
};

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_MESSAGES_H_

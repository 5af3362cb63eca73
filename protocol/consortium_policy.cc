#include "protocol/consortium_policy.h"

#include "absl/strings/str_cat.h"

namespace pplda::protocol {

absl::StatusOr<int> ComputeParties(int data_holders) {
  if (data_holders < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a secure run needs at least 2 data-holding parties, got ", data_holders));
  }
  return data_holders == 2 ? 3 : data_holders;
}

int MpcThreshold(int compute_parties) { return (compute_parties - 1) / 2; }

int PaillierThreshold(int compute_parties) { return MpcThreshold(compute_parties) + 1; }

std::string KeyOriginLabel(crypto::KeyOrigin origin) {
  return origin == crypto::KeyOrigin::kDistributed ? "distributed" : "trusted dealer";
}

nlohmann::json LeakageStatement(const LeakageContext& c) {
  const bool dealt = c.key_origin != "distributed";
  std::string leakage =
      "Revealed: each party's total token count; the public parameters (K, vocabulary, "
      "alpha, beta, iterations); the published topic-term counts; to each party, the "
      "topics of its own tokens. Not revealed: documents, per-document or per-party "
      "counts, sampling weights, intermediate global counts, other parties' topics "
      "(docs/protocol.md). The coordinator sees only ciphertexts.";
  std::string hiding =
      "'Not revealed' holds against semi-honest parties of which fewer than half collude (an "
      "honest majority of the compute parties), assuming Paillier (decisional composite "
      "residuosity) and ChaCha20 (pseudo-random sharing) are secure, and statistically: "
      "every masked value the parties open is within 2^-40 and every converted ciphertext "
      "slot within 2^-39 of a value independent of the data, and these distances add up over "
      "a run (about 4.9e-5 for 1,000 iterations of 3,000 tokens with K = 5 and the default "
      "draw, 5.7e-5 with --draw binary; the formula is in "
      "docs/mpc.md, 'Statistical distance of a whole run'). Not covered: malicious parties "
      "that deviate from the protocol, a colluding majority, and the published counts "
      "themselves (no differential privacy in this model).";
  if (c.dp_counts) {
    // The DP statement replaces "no differential privacy in this model".
    const std::string no_dp = " (no differential privacy in this model)";
    const size_t at = hiding.find(no_dp);
    if (at != std::string::npos) {
      hiding.replace(at, no_dp.size(), " beyond the differential privacy of DP training");
    }
    absl::StrAppend(&leakage,
                    " DP training: the published counts are the last noisy release of the "
                    "counts (noise added under encryption by every compute party at each noisy "
                    "iteration), never the exact counts; the budget and what it covers are in "
                    "this model's privacy object.");
  }
  if (c.holders_outside_committee > 0) {
    absl::StrAppend(
        &leakage,
        " Data holders outside the committee: each sends only its own encrypted selections, "
        "input shares, its encrypted initial counts and, each iteration, additive shares mod N "
        "of its count deltas, one per committee member (hidden unless every member colludes); "
        "it receives the public encrypted counts (checked against every committee member's "
        "digest), the members' digests and its own tokens' topics, holds no key share and "
        "decrypts nothing. It trusts that at most t committee members collude.");
  }
  if (!c.dp_counts && c.data_holders == 2) {
    absl::StrAppend(&leakage,
                    " With two data holders the published exact counts minus one holder's own "
                    "counts are the other holder's counts: each holder learns the other's "
                    "topic-term counts.");
  }
  nlohmann::json out = {{"setting", c.setting},
                        {"key_origin", dealt ? "trusted dealer" : "distributed"},
                        {"leakage", leakage},
                        {"hiding", hiding},
                        {"data_holders", c.data_holders},
                        {"compute_parties", c.compute_parties},
                        {"holders_outside_committee", c.holders_outside_committee},
                        {"mpc_threshold", MpcThreshold(c.compute_parties)},
                        {"paillier_threshold", PaillierThreshold(c.compute_parties)},
                        {"paillier_modulus_bits", c.modulus_bits},
                        {"differential_privacy", nullptr},
                        {"epsilon", nullptr},
                        {"delta", nullptr}};
  if (dealt) {
    out["key"] = "dealer-mode key (TRUSTED DEALER): whoever dealt the key shares could decrypt "
                 "everything; for trying the protocol only";
  }
  if (c.insecure_deterministic_rng_seed.has_value()) {
    out["randomness"] = absl::StrCat(
        "INSECURE deterministic randomness for testing (seed ", *c.insecure_deterministic_rng_seed,
        "): every mask, share and encryption randomiser follows from the seed; whoever knows it "
        "learns everything the protocol hides. Never use with real data");
  }
  if (c.data_holders == 2) {
    out["helper"] = "a data-less helper party joined as the third compute party; it holds a key "
                    "share, so the honest majority includes it (docs/protocol.md)";
  }
  return out;
}

}  // namespace pplda::protocol

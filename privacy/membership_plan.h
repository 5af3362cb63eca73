// Which documents of the audit corpus each model of a LiRA audit trains on.
//
// Every model trains on a uniformly random half of the D documents
// (floor(D/2) or ceil(D/2) of them). Models are drawn in complementary
// pairs: model 2p takes a random half and model 2p + 1 the other documents,
// so every document is a member of exactly one model of each pair. With M
// models every document is then "in" for floor(M/2) or ceil(M/2) of them and
// "out" for the rest, which keeps both Gaussian fits of every document
// estimable (Carlini et al. 2022 balance their shadow sets the same way).
// When M is odd the last model is an unpaired random half. Which model of a
// pair gets the larger half (odd D) is a fair coin.
//
// Deterministic: pair p draws from stream (kMembershipPlanStreams | p) of
// `seed` (lda/random.h), so the plan depends only on (M, D, seed).
//
// Thread-safety: immutable after Create(); const access is safe.
#ifndef PPLDA_PRIVACY_MEMBERSHIP_PLAN_H_
#define PPLDA_PRIVACY_MEMBERSHIP_PLAN_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

namespace pplda::privacy {

// Stream families of the audit's randomness (lda/random.h reserves 1-4).
inline constexpr uint64_t kMembershipPlanStreams = 16ULL << 56;  // (pair)
inline constexpr uint64_t kShadowSeedStreams = 17ULL << 56;      // (model)

class MembershipPlan {
 public:
  MembershipPlan() = default;  // an empty plan (no models, no documents)
  // InvalidArgument when num_models < 2 or num_documents < 2.
  static absl::StatusOr<MembershipPlan> Create(int num_models, int32_t num_documents,
                                               uint64_t seed);

  int num_models() const { return num_models_; }
  int32_t num_documents() const { return num_documents_; }
  // Requires model in [0, M) and document in [0, D).
  bool IsMember(int model, int32_t document) const {
    return member_[static_cast<size_t>(model) * num_documents_ + document] != 0;
  }
  // The documents of `model`, increasing.
  std::vector<int32_t> Members(int model) const;

 private:
  int num_models_ = 0;
  int32_t num_documents_ = 0;
  std::vector<uint8_t> member_;  // M x D
};

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_MEMBERSHIP_PLAN_H_

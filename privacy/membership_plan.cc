#include "privacy/membership_plan.h"

#include <numeric>
#include <utility>

#include "absl/strings/str_format.h"
#include "lda/random.h"

namespace pplda::privacy {
namespace {

// A uniformly random permutation of [0, n) (Fisher-Yates).
std::vector<int32_t> Shuffled(int32_t n, lda::Rng& rng) {
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (int32_t i = n - 1; i > 0; --i) {
    std::swap(order[i], order[rng.Below(static_cast<uint32_t>(i) + 1)]);
  }
  return order;
}

}  // namespace

absl::StatusOr<MembershipPlan> MembershipPlan::Create(int num_models, int32_t num_documents,
                                                      uint64_t seed) {
  if (num_models < 2 || num_documents < 2) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "a membership plan needs at least 2 models and 2 documents; got %d models, %d documents",
        num_models, num_documents));
  }
  MembershipPlan plan;
  plan.num_models_ = num_models;
  plan.num_documents_ = num_documents;
  plan.member_.assign(static_cast<size_t>(num_models) * num_documents, 0);
  for (int first = 0; first < num_models; first += 2) {
    lda::Rng rng = lda::Rng::ForStream(seed, kMembershipPlanStreams | static_cast<uint64_t>(first / 2));
    const std::vector<int32_t> order = Shuffled(num_documents, rng);
    // Odd D: a coin decides whether the first model of the pair gets the larger half.
    const int32_t half = num_documents / 2 + ((num_documents % 2 == 1 && (rng.Next() & 1)) ? 1 : 0);
    const bool paired = first + 1 < num_models;
    for (int32_t i = 0; i < num_documents; ++i) {
      const int model = i < half ? first : first + 1;
      if (model == first || paired) {
        plan.member_[static_cast<size_t>(model) * num_documents + order[i]] = 1;
      }
    }
  }
  return plan;
}

std::vector<int32_t> MembershipPlan::Members(int model) const {
  std::vector<int32_t> members;
  for (int32_t d = 0; d < num_documents_; ++d) {
    if (IsMember(model, d)) members.push_back(d);
  }
  return members;
}

}  // namespace pplda::privacy

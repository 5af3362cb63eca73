#include "party/owned_tokens.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace pplda::party {
namespace {

using crypto::Ciphertext;

// Runs fn(begin, end) over [0, n), on the pool when there is one.
void ForRange(ThreadPool* pool, size_t n, const std::function<void(size_t, size_t)>& fn) {
  if (pool == nullptr || n < 2) {
    fn(0, n);
    return;
  }
  pool->ParallelForChunks(n, std::min<size_t>(n, 4 * static_cast<size_t>(pool->num_threads())),
                          [&](size_t b, size_t e, int) { fn(b, e); });
}

}  // namespace

absl::StatusOr<OwnedTokens> OwnedTokens::Create(std::string who,
                                                const protocol::SecureLdaPlan& plan,
                                                std::vector<std::vector<lda::TermId>> documents,
                                                std::vector<std::vector<int>> topics) {
  if (documents.size() != topics.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(who, ": ", documents.size(), " documents but topics for ", topics.size()));
  }
  OwnedTokens out(std::move(who));
  const int K = plan.num_topics();
  out.doc_topic_.assign(documents.size() * K, 0);
  for (size_t m = 0; m < documents.size(); ++m) {
    if (documents[m].size() != topics[m].size()) {
      return absl::InvalidArgumentError(absl::StrCat(out.who_, ", document ", m, ": ",
                                                     documents[m].size(), " tokens but ",
                                                     topics[m].size(), " topics"));
    }
    out.doc_lengths_.push_back(static_cast<int64_t>(documents[m].size()));
    for (size_t i = 0; i < documents[m].size(); ++i) {
      const lda::TermId t = documents[m][i];
      const int z = topics[m][i];
      if (t < 0 || t >= plan.num_terms()) {
        return absl::InvalidArgumentError(
            absl::StrCat(out.who_, ", document ", m, ", token ", i, ": term id ", t,
                         " outside the vocabulary of ", plan.num_terms()));
      }
      if (z < 0 || z >= K) {
        return absl::InvalidArgumentError(absl::StrCat(out.who_, ", document ", m, ", token ", i,
                                                       ": topic ", z, " outside [0, ", K, ")"));
      }
      out.terms_.push_back(t);
      out.topics_.push_back(z);
      out.doc_of_.push_back(static_cast<int32_t>(m));
      ++out.doc_topic_[m * K + z];
    }
  }
  return out;
}

absl::StatusOr<std::vector<Ciphertext>> OwnedTokens::Select(
    const protocol::SecureLdaPlan& plan, const std::vector<Ciphertext>& matrix,
    const crypto::PaillierEvaluator& evaluator, const crypto::PaillierEncryptor& encryptor,
    ThreadPool* pool) const {
  if (matrix.size() != plan.MatrixCiphertexts()) {
    return absl::InvalidArgumentError(absl::StrCat(who_, ": a matrix of ", matrix.size(),
                                                   " ciphertexts, the plan has ",
                                                   plan.MatrixCiphertexts()));
  }
  const size_t s = plan.layout().slots();
  const size_t n_ct = plan.SelectionCiphertexts(size());
  const size_t items = static_cast<size_t>(size()) * plan.chunks();
  const size_t per_ct = plan.items_per_ciphertext();
  std::vector<int64_t> correction(n_ct * s, 0);
  for (size_t j = 0; j < terms_.size(); ++j) {
    correction[plan.SelectionSlot(static_cast<int64_t>(j), topics_[j])] = -1;
  }
  ASSIGN_OR_RETURN(const std::vector<mpz_class> packed, plan.layout().Pack(correction));
  const mpz_class shift = mpz_class(1) << (plan.chunk_width() * plan.layout().slot_bits());
  auto row = [&](size_t item) -> const Ciphertext& {
    const size_t token = item / plan.chunks();
    const size_t h = item % plan.chunks();
    return matrix[static_cast<size_t>(terms_[token]) * plan.chunks() + h];
  };
  // Items [first(g), last(g)) go to ciphertext g; only the last one may be short.
  auto first = [&](size_t g) { return g * per_ct; };
  auto last = [&](size_t g) { return std::min(items, first(g) + per_ct); };
  // Horner's rule, acc_g = acc_g^shift * row(item) from the last item down,
  // run for all ciphertexts in lockstep so that each step's exponentiations
  // form one MulScalarBatch (8 at a time in the IFMA kernel when available).
  std::vector<Ciphertext> out(n_ct);
  for (size_t g = 0; g < n_ct; ++g) out[g] = row(last(g) - 1);
  size_t active = n_ct;  // ciphertexts with more than `step` items: a prefix
  for (size_t step = 1; step < per_ct; ++step) {
    while (active > 0 && last(active - 1) - first(active - 1) <= step) --active;
    if (active == 0) break;
    const std::vector<Ciphertext> shifted =
        evaluator.MulScalarBatch(absl::MakeConstSpan(out).subspan(0, active), shift, pool);
    ForRange(pool, active, [&](size_t begin, size_t end) {
      for (size_t g = begin; g < end; ++g) {
        out[g] = evaluator.Add(shifted[g], row(last(g) - 1 - step));
      }
    });
  }
  ForRange(pool, n_ct, [&](size_t begin, size_t end) {
    for (size_t g = begin; g < end; ++g) out[g] = evaluator.AddPlain(out[g], packed[g]);
  });
  return encryptor.RerandomiseBatch(out, pool);
}

crypto::FieldVector OwnedTokens::Inputs(int num_topics) const {
  const int K = num_topics;
  crypto::FieldVector out;
  out.reserve(2 * terms_.size() * K);
  for (size_t j = 0; j < terms_.size(); ++j) {
    for (int k = 0; k < K; ++k) {
      const int e = topics_[j] == k ? 1 : 0;
      out.push_back(
          crypto::FieldElement::FromInt64(doc_topic_[static_cast<size_t>(doc_of_[j]) * K + k] - e));
    }
  }
  for (size_t j = 0; j < terms_.size(); ++j) {
    for (int k = 0; k < K; ++k) {
      out.push_back(crypto::FieldElement::FromInt64(topics_[j] == k ? 1 : 0));
    }
  }
  return out;
}

CountTables OwnedTokens::Counts(const protocol::SecureLdaPlan& plan) const {
  const int K = plan.num_topics();
  CountTables out{std::vector<int64_t>(static_cast<size_t>(plan.num_terms()) * K, 0),
                  std::vector<int64_t>(K, 0)};
  for (size_t i = 0; i < terms_.size(); ++i) {
    ++out.term_topic[static_cast<size_t>(terms_[i]) * K + topics_[i]];
    ++out.totals[topics_[i]];
  }
  return out;
}

absl::StatusOr<CountTables> OwnedTokens::Apply(const protocol::SecureLdaPlan& plan,
                                               absl::Span<const int> drawn) {
  const int K = plan.num_topics();
  if (drawn.size() != terms_.size()) {
    return absl::InternalError(
        absl::StrCat(who_, ": ", drawn.size(), " topics drawn for ", terms_.size(), " tokens"));
  }
  for (size_t j = 0; j < drawn.size(); ++j) {
    if (drawn[j] < 0 || drawn[j] >= K) {
      return absl::InternalError(absl::StrCat(who_, ": no valid topic drawn for token ", j));
    }
  }
  CountTables delta{std::vector<int64_t>(static_cast<size_t>(plan.num_terms()) * K, 0),
                    std::vector<int64_t>(K, 0)};
  for (size_t j = 0; j < terms_.size(); ++j) {
    const int old = topics_[j], z = drawn[j];
    if (z == old) continue;
    const size_t row = static_cast<size_t>(terms_[j]) * K;
    --delta.term_topic[row + old];
    ++delta.term_topic[row + z];
    --delta.totals[old];
    ++delta.totals[z];
    --doc_topic_[static_cast<size_t>(doc_of_[j]) * K + old];
    ++doc_topic_[static_cast<size_t>(doc_of_[j]) * K + z];
    topics_[j] = z;
  }
  return delta;
}

std::vector<std::vector<int>> OwnedTokens::Assignments() const {
  std::vector<std::vector<int>> out(doc_lengths_.size());
  for (size_t j = 0; j < topics_.size(); ++j) out[doc_of_[j]].push_back(topics_[j]);
  return out;
}

std::vector<std::vector<double>> OwnedTokens::DocumentTopicMixtures(int num_topics,
                                                                    double alpha) const {
  const int K = num_topics;
  std::vector<std::vector<double>> theta(doc_lengths_.size(), std::vector<double>(K));
  for (size_t m = 0; m < doc_lengths_.size(); ++m) {
    const double denom = static_cast<double>(doc_lengths_[m]) + K * alpha;
    for (int k = 0; k < K; ++k) theta[m][k] = (doc_topic_[m * K + k] + alpha) / denom;
  }
  return theta;
}

absl::StatusOr<std::vector<mpz_class>> PackCountTables(const protocol::SecureLdaPlan& plan,
                                                       const CountTables& tables) {
  const int K = plan.num_topics();
  const size_t s = plan.layout().slots();
  std::vector<int64_t> slots(plan.MatrixCiphertexts() * s, 0);
  for (int32_t t = 0; t < plan.num_terms(); ++t) {
    for (int k = 0; k < K; ++k) {
      const int h = k / plan.chunk_width();
      slots[(static_cast<size_t>(t) * plan.chunks() + h) * s + (k - h * plan.chunk_width())] =
          tables.term_topic[static_cast<size_t>(t) * K + k];
    }
  }
  ASSIGN_OR_RETURN(std::vector<mpz_class> packed, plan.layout().Pack(slots));
  ASSIGN_OR_RETURN(std::vector<mpz_class> packed_totals, plan.layout().Pack(tables.totals));
  packed.insert(packed.end(), packed_totals.begin(), packed_totals.end());
  return packed;
}

absl::StatusOr<protocol::CountUpdate> EncryptPackedCounts(
    const protocol::SecureLdaPlan& plan, const crypto::PaillierEncryptor& encryptor,
    const std::vector<mpz_class>& packed, const std::string& run_id, int iteration, int owner,
    ThreadPool* pool) {
  const size_t m = plan.MatrixCiphertexts();
  if (packed.size() != m + plan.TotalsCiphertexts()) {
    return absl::InternalError(
        absl::StrCat(packed.size(), " packed counts, the plan has ", m + plan.TotalsCiphertexts()));
  }
  protocol::CountUpdate update;
  update.run_id = run_id;
  update.iteration = iteration;
  update.party = owner;
  ASSIGN_OR_RETURN(std::vector<crypto::Ciphertext> all, encryptor.EncryptBatch(packed, pool));
  update.totals.assign(all.begin() + static_cast<std::ptrdiff_t>(m), all.end());
  all.resize(m);
  update.matrix = std::move(all);
  return update;
}

absl::StatusOr<protocol::CountUpdate> EncryptCountTables(const protocol::SecureLdaPlan& plan,
                                                         const crypto::PaillierEncryptor& encryptor,
                                                         const CountTables& tables,
                                                         const std::string& run_id, int iteration,
                                                         int owner, ThreadPool* pool) {
  ASSIGN_OR_RETURN(const std::vector<mpz_class> packed, PackCountTables(plan, tables));
  return EncryptPackedCounts(plan, encryptor, packed, run_id, iteration, owner, pool);
}

}  // namespace pplda::party

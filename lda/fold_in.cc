#include "lda/fold_in.h"

namespace pplda::lda {

FoldIn::FoldIn(const LdaModel& model, int sweeps, int burn_in)
    : k_(model.num_topics), alpha_(model.alpha), sweeps_(sweeps), burn_in_(burn_in) {
  const int32_t v = model.num_terms();
  const std::vector<double> phi = model.PhiMatrix();
  phi_by_term_.resize(phi.size());
  for (int k = 0; k < k_; ++k) {
    for (TermId t = 0; t < v; ++t) {
      phi_by_term_[static_cast<size_t>(t) * k_ + k] = phi[static_cast<size_t>(k) * v + t];
    }
  }
}

std::vector<double> FoldIn::Theta(std::span<const TermId> tokens, Rng& rng) const {
  const size_t n = tokens.size();
  std::vector<double> theta(k_, 0.0);
  std::vector<int32_t> counts(k_, 0);
  std::vector<int> z(n);
  for (size_t i = 0; i < n; ++i) {
    z[i] = static_cast<int>(rng.Below(static_cast<uint32_t>(k_)));
    ++counts[z[i]];
  }
  std::vector<double> cumulative(k_);
  const double norm = 1.0 / (static_cast<double>(n) + k_ * alpha_);
  for (int sweep = 0; sweep < sweeps_; ++sweep) {
    for (size_t i = 0; i < n; ++i) {
      --counts[z[i]];
      const double* phi = phi_row(tokens[i]);
      double total = 0;
      for (int k = 0; k < k_; ++k) {
        total += phi[k] * (counts[k] + alpha_);
        cumulative[k] = total;
      }
      const double u = rng.Uniform() * total;
      int k = 0;
      while (k + 1 < k_ && cumulative[k] <= u) ++k;
      z[i] = k;
      ++counts[k];
    }
    if (sweep >= burn_in_) {
      for (int k = 0; k < k_; ++k) theta[k] += (counts[k] + alpha_) * norm;
    }
  }
  const double averaged = static_cast<double>(sweeps_ - burn_in_);
  for (double& x : theta) x /= averaged;
  return theta;
}

double FoldIn::TermProbability(const std::vector<double>& theta, TermId t) const {
  const double* phi = phi_row(t);
  double p = 0;
  for (int k = 0; k < k_; ++k) p += theta[k] * phi[k];
  return p;
}

}  // namespace pplda::lda

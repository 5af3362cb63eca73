#include "report/topic_map.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"

namespace pplda::report {
namespace {

// p log(p / m), 0 when p = 0.
double KlTerm(double p, double m) { return p > 0 ? p * std::log(p / m) : 0.0; }

}  // namespace

double JensenShannonDivergence(std::span<const double> p, std::span<const double> q) {
  double kl_p = 0, kl_q = 0;
  for (size_t t = 0; t < p.size(); ++t) {
    const double m = 0.5 * (p[t] + q[t]);
    if (m <= 0) continue;
    kl_p += KlTerm(p[t], m);
    kl_q += KlTerm(q[t], m);
  }
  // Rounding can leave a tiny negative value for identical rows.
  return std::max(0.0, 0.5 * (kl_p + kl_q));
}

absl::StatusOr<std::vector<double>> TopicDistanceMatrix(std::span<const double> phi,
                                                        int num_terms) {
  if (num_terms <= 0 || phi.empty() || phi.size() % static_cast<size_t>(num_terms) != 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("topic map: %d entries are not K rows of %d terms", phi.size(), num_terms));
  }
  const size_t k = phi.size() / num_terms;
  if (k > static_cast<size_t>(kMaxMapTopics)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "topic map: %d topics; the map is computed for at most %d", k, kMaxMapTopics));
  }
  std::vector<double> d(k * k, 0.0);
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = i + 1; j < k; ++j) {
      const double v = JensenShannonDivergence(phi.subspan(i * num_terms, num_terms),
                                               phi.subspan(j * num_terms, num_terms));
      d[i * k + j] = d[j * k + i] = v;
    }
  }
  return d;
}

SymmetricEigen EigenSymmetric(std::vector<double> a, int n) {
  std::vector<double> v(static_cast<size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) v[i * n + i] = 1.0;
  auto at = [n](std::vector<double>& m, int r, int c) -> double& { return m[r * n + c]; };
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, total = 0;
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        total += at(a, r, c) * at(a, r, c);
        if (r != c) off += at(a, r, c) * at(a, r, c);
      }
    }
    if (off <= 1e-30 * std::max(total, 1e-300)) break;
    for (int p = 0; p < n - 1; ++p) {
      for (int q = p + 1; q < n; ++q) {
        const double apq = at(a, p, q);
        if (apq == 0) continue;
        // The rotation that zeroes a(p, q) (Golub and Van Loan, alg. 8.5.1).
        const double tau = (at(a, q, q) - at(a, p, p)) / (2 * apq);
        const double t = (tau >= 0 ? 1.0 : -1.0) / (std::abs(tau) + std::sqrt(1 + tau * tau));
        const double c = 1 / std::sqrt(1 + t * t), s = t * c;
        for (int r = 0; r < n; ++r) {  // A <- A J
          const double arp = at(a, r, p), arq = at(a, r, q);
          at(a, r, p) = c * arp - s * arq;
          at(a, r, q) = s * arp + c * arq;
        }
        for (int r = 0; r < n; ++r) {  // A <- J' A
          const double apr = at(a, p, r), aqr = at(a, q, r);
          at(a, p, r) = c * apr - s * aqr;
          at(a, q, r) = s * apr + c * aqr;
        }
        for (int r = 0; r < n; ++r) {  // V <- V J
          const double vrp = at(v, r, p), vrq = at(v, r, q);
          at(v, r, p) = c * vrp - s * vrq;
          at(v, r, q) = s * vrp + c * vrq;
        }
      }
    }
  }
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return at(a, x, x) > at(a, y, y); });
  SymmetricEigen out;
  out.values.resize(n);
  out.vectors.resize(static_cast<size_t>(n) * n);
  for (int i = 0; i < n; ++i) {
    out.values[i] = at(a, order[i], order[i]);
    for (int r = 0; r < n; ++r) out.vectors[r * n + i] = at(v, r, order[i]);
  }
  return out;
}

absl::StatusOr<std::vector<MapPoint>> ClassicalMds2d(std::span<const double> distances) {
  const size_t k = static_cast<size_t>(std::llround(std::sqrt(distances.size())));
  if (distances.empty() || k * k != distances.size()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("MDS: %d entries are not a square matrix", distances.size()));
  }
  if (k > static_cast<size_t>(kMaxMapTopics)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("MDS: %d points; at most %d", k, kMaxMapTopics));
  }
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j < k; ++j) {
      const double d = distances[i * k + j];
      if (!std::isfinite(d) || d < 0) {
        return absl::InvalidArgumentError(
            absl::StrFormat("MDS: distance (%d, %d) = %g is not finite and >= 0", i, j, d));
      }
      if (std::abs(d - distances[j * k + i]) > 1e-12 * std::max(1.0, std::abs(d))) {
        return absl::InvalidArgumentError(
            absl::StrFormat("MDS: the distance matrix is not symmetric at (%d, %d)", i, j));
      }
    }
  }
  const int n = static_cast<int>(k);
  // B = -H D^2 H / 2: double centring of the squared distances.
  std::vector<double> b(k * k);
  std::vector<double> row_mean(k, 0.0);
  double grand = 0;
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j < k; ++j) {
      const double d2 = distances[i * k + j] * distances[i * k + j];
      b[i * k + j] = d2;
      row_mean[i] += d2 / k;
    }
    grand += row_mean[i] / k;
  }
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j < k; ++j) {
      b[i * k + j] = -0.5 * (b[i * k + j] - row_mean[i] - row_mean[j] + grand);
    }
  }
  for (size_t i = 0; i < k; ++i) {  // exact symmetry for Jacobi
    for (size_t j = i + 1; j < k; ++j) b[j * k + i] = b[i * k + j];
  }
  const SymmetricEigen eig = EigenSymmetric(std::move(b), n);
  const double scale = 1e-12 * std::max(1.0, std::abs(eig.values[0]));
  std::vector<MapPoint> points(k);
  for (int axis = 0; axis < std::min(2, n); ++axis) {
    const double l = eig.values[axis];
    if (l <= scale) continue;  // zero or negative: the coordinate stays 0
    int largest = 0;
    for (int r = 1; r < n; ++r) {
      if (std::abs(eig.vectors[r * n + axis]) >
          std::abs(eig.vectors[largest * n + axis]) * (1 + 1e-9)) {
        largest = r;
      }
    }
    const double sign = eig.vectors[largest * n + axis] < 0 ? -1.0 : 1.0;
    for (int r = 0; r < n; ++r) {
      const double c = sign * std::sqrt(l) * eig.vectors[r * n + axis];
      (axis == 0 ? points[r].x : points[r].y) = c;
    }
  }
  return points;
}

absl::StatusOr<std::vector<MapPoint>> TopicMap(std::span<const double> phi, int num_terms) {
  ASSIGN_OR_RETURN(std::vector<double> d, TopicDistanceMatrix(phi, num_terms));
  return ClassicalMds2d(d);
}

}  // namespace pplda::report

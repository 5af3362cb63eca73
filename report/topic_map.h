// The inter-topic distance map of LDAvis (Sievert and Shirley, "LDAvis: A
// method for visualizing and interpreting topics", ILLVI 2014, sec. 3.1) as
// pyLDAvis computes it by default (js_PCoA): the Jensen-Shannon divergence
// between every pair of topic-term distributions, then classical
// multidimensional scaling (principal coordinate analysis, Gower 1966) to
// two dimensions.
//
//   JSD(p, q) = (KL(p || m) + KL(q || m)) / 2,  m = (p + q) / 2,
//   KL(p || m) = sum_t p(t) log(p(t) / m(t))   (natural log; terms with
//   p(t) = 0 add 0), so JSD is in [0, log 2].
//
// Classical MDS of a K x K distance matrix D: B = -H D^2 H / 2 with the
// centring matrix H = I - 11'/K and D^2 the element-wise square; with the
// eigenpairs (l_1 >= l_2 >= ...) of B and unit eigenvectors v_i, the
// coordinates are x_k = sqrt(l_1) v_1(k), y_k = sqrt(l_2) v_2(k), where an
// eigenvalue <= 1e-12 * max(1, |l_1|) counts as 0 (as pyLDAvis's np.isclose
// and zeroing of negative eigenvalues). Eigenvectors have no sign: each is
// flipped so that its entry of largest magnitude (the first one on a tie) is
// positive, which makes the map deterministic. Eigenpairs by the cyclic
// Jacobi method (Golub and Van Loan, Matrix Computations, sec. 8.5).
//
// Cost: O(K^2 V) for the divergences and O(K^3) per Jacobi sweep, so the map
// is offered for K <= kMaxMapTopics (InvalidArgument beyond).
// Thread-safety: pure functions.
#ifndef PPLDA_REPORT_TOPIC_MAP_H_
#define PPLDA_REPORT_TOPIC_MAP_H_

#include <span>
#include <vector>

#include "absl/status/statusor.h"

namespace pplda::report {

inline constexpr int kMaxMapTopics = 200;

// JSD(p, q) above. Requires p.size() == q.size(); p and q are probability
// vectors (entries >= 0 adding up to 1; not checked).
double JensenShannonDivergence(std::span<const double> p, std::span<const double> q);

// The K x K matrix (row-major) of JSD between rows of `phi` (K rows of V
// entries, row-major). InvalidArgument when phi is empty, its size is not a
// multiple of num_terms, or K > kMaxMapTopics.
absl::StatusOr<std::vector<double>> TopicDistanceMatrix(std::span<const double> phi, int num_terms);

struct MapPoint {
  double x = 0;
  double y = 0;
};

// Classical MDS of the K x K symmetric distance matrix `distances` to 2-D,
// as above. InvalidArgument when the matrix is not square, empty, larger
// than kMaxMapTopics, not symmetric, or holds a negative or non-finite entry.
absl::StatusOr<std::vector<MapPoint>> ClassicalMds2d(std::span<const double> distances);

// The eigenvalues (descending) and unit eigenvectors (column i of the
// row-major n x n result pairs with eigenvalue i) of a symmetric n x n
// matrix, by cyclic Jacobi. Requires `a` symmetric with n * n entries.
struct SymmetricEigen {
  std::vector<double> values;
  std::vector<double> vectors;
};
SymmetricEigen EigenSymmetric(std::vector<double> a, int n);

// The map of a model's topics: TopicDistanceMatrix then ClassicalMds2d.
absl::StatusOr<std::vector<MapPoint>> TopicMap(std::span<const double> phi, int num_terms);

}  // namespace pplda::report

#endif  // PPLDA_REPORT_TOPIC_MAP_H_

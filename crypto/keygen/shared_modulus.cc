#include "crypto/keygen/shared_modulus.h"

#include <sodium.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/keygen/big_field_mpc.h"
#include "crypto/keygen/big_field_shamir.h"

namespace pplda::crypto {
namespace {

std::vector<uint32_t> OddPrimesUpTo(uint32_t bound) {
  std::vector<bool> composite(bound + 1, false);
  std::vector<uint32_t> primes;
  for (uint32_t i = 3; i <= bound; i += 2) {
    if (composite[i]) continue;
    primes.push_back(i);
    for (uint64_t j = uint64_t{i} * i; j <= bound; j += 2 * i) composite[j] = true;
  }
  return primes;
}

// Products of consecutive primes that fit 64 bits, for fast trial division.
struct PrimeGroup {
  uint64_t product;
  std::vector<uint32_t> primes;
};
std::vector<PrimeGroup> GroupPrimes(const std::vector<uint32_t>& primes) {
  std::vector<PrimeGroup> groups;
  for (uint32_t p : primes) {
    if (groups.empty() || groups.back().product > UINT64_MAX / p) groups.push_back({1, {}});
    groups.back().product *= p;
    groups.back().primes.push_back(p);
  }
  return groups;
}

bool HasFactorIn(const mpz_class& n, const std::vector<PrimeGroup>& groups) {
  for (const PrimeGroup& g : groups) {
    const uint64_t r = mpz_fdiv_ui(n.get_mpz_t(), g.product);
    for (uint32_t p : g.primes) {
      if (r % p == 0) return true;
    }
  }
  return false;
}

// A unit modulo m (m = 4 * odd) that is `residue` mod 4.
mpz_class RandomUnit(const mpz_class& m, unsigned residue, SecureRng& rng) {
  while (true) {
    mpz_class a = rng.UniformBelow(m);
    if (mpz_fdiv_ui(a.get_mpz_t(), 4) != residue) continue;
    mpz_class g;
    mpz_gcd(g.get_mpz_t(), a.get_mpz_t(), m.get_mpz_t());
    if (g == 1) return a;
  }
}

// Shares of the product of factors[0..] (each a vector over candidates), by
// a tree of Mul rounds: ceil(log2 count) rounds.
absl::StatusOr<std::vector<mpz_class>> ProductTree(std::vector<std::vector<mpz_class>> factors,
                                                   BigFieldMpc& mpc) {
  while (factors.size() > 1) {
    const size_t pairs = factors.size() / 2, width = factors[0].size();
    std::vector<mpz_class> left, right;
    for (size_t k = 0; k < pairs; ++k) {
      left.insert(left.end(), factors[2 * k].begin(), factors[2 * k].end());
      right.insert(right.end(), factors[2 * k + 1].begin(), factors[2 * k + 1].end());
    }
    ASSIGN_OR_RETURN(std::vector<mpz_class> products, mpc.Mul(left, right));
    std::vector<std::vector<mpz_class>> next;
    for (size_t k = 0; k < pairs; ++k) {
      next.emplace_back(products.begin() + k * width, products.begin() + (k + 1) * width);
    }
    if (factors.size() % 2 == 1) next.push_back(std::move(factors.back()));
    factors = std::move(next);
  }
  return std::move(factors[0]);
}

// One party's state for a batch of candidate pairs: its shares p_i, q_i.
struct Candidates {
  std::vector<mpz_class> p, q;  // by pair
};

}  // namespace

absl::StatusOr<ModulusSievePlan> PlanModulusSieve(const SharedModulusOptions& o,
                                                  int num_parties) {
  if (o.modulus_bits < 256 || o.modulus_bits > 8192 || o.modulus_bits % 2 != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "shared modulus: modulus_bits must be even and in 256..8192, got ", o.modulus_bits));
  }
  if (o.biprimality_rounds < 1 || o.biprimality_rounds > 256 || o.sigma < 20 || o.sigma > 128 ||
      o.pairs_per_batch < 0 || o.pairs_per_batch > 1 << 16 || o.max_batches < 1 ||
      o.public_trial_bound < 3 || o.public_trial_bound > (1u << 24)) {
    return absl::InvalidArgumentError(
        "shared modulus: biprimality_rounds 1..256, sigma 20..128, pairs_per_batch 0..65536, "
        "max_batches >= 1 and public_trial_bound 3..2^24");
  }
  const int half = o.modulus_bits / 2;
  ModulusSievePlan plan;
  plan.sieve_modulus = 4;
  mpz_class survival_num = 1, survival_den = 1;
  for (uint32_t l : OddPrimesUpTo(10000)) {
    const mpz_class next = plan.sieve_modulus * l;
    if (num_parties * static_cast<int>(BitLength(next)) > half - 66) break;
    plan.sieve_modulus = next;
    plan.largest_sieve_prime = l;
    survival_num *= l - 1;
    survival_den *= l;
  }
  if (plan.largest_sieve_prime == 0) {
    return absl::InvalidArgumentError("shared modulus: modulus too small for the sieve");
  }
  const mpz_class& m = plan.sieve_modulus;
  const mpz_class quarter = mpz_class(1) << (half - 2);
  plan.offset = (3 * quarter + m - 1) / m;
  mpz_class m_to_n = 1;
  for (int i = 0; i < num_parties; ++i) m_to_n *= m;
  plan.r_sum_bound = (quarter - m - m_to_n) / m;
  plan.mask_bits = num_parties * static_cast<int>(BitLength(m)) + o.sigma;
  plan.field_prime = BigFieldShamir::PublicPrime(o.modulus_bits + half + 3 * o.sigma + 64);
  if (o.pairs_per_batch > 0) {
    plan.pairs_per_batch = o.pairs_per_batch;
  } else {
    // Expected pairs per biprime: (Pr[sieved odd p is prime])^-2, with
    // Pr = 2 / (half ln 2) / prod_{l <= L} (1 - 1/l); a quarter of that.
    const double survival = mpq_class(survival_num, survival_den).get_d();
    const double per_prime = half * std::log(2.0) / 2 * survival;
    plan.pairs_per_batch = std::clamp(static_cast<int>(per_prime * per_prime / 4), 64, 2048);
  }
  return plan;
}

mpz_class BiprimalityBase(const mpz_class& n, int j) {
  const std::string prefix =
      absl::StrCat("pplda shared modulus biprimality base ", j, " ") + ToMinimalBytes(n);
  for (uint32_t counter = 0;; ++counter) {
    // 8 bytes longer than N, then reduced.
    const mpz_class g =
        HashToInteger(prefix + std::to_string(counter), ByteLength(n) + 8) % n;
    if (g > 1 && mpz_jacobi(g.get_mpz_t(), n.get_mpz_t()) == 1) return g;
  }
}

mpz_class BiprimalityValue(int party, const mpz_class& n, const mpz_class& g,
                           const mpz_class& p_share, const mpz_class& q_share) {
  mpz_class exponent =
      party == 0 ? mpz_class(n + 1 - p_share - q_share) : mpz_class(p_share + q_share);
  mpz_class quarter;
  mpz_fdiv_q_2exp(quarter.get_mpz_t(), exponent.get_mpz_t(), 2);  // exact: shares are = mod 4
  mpz_class v;
  mpz_powm(v.get_mpz_t(), g.get_mpz_t(), quarter.get_mpz_t(), n.get_mpz_t());  // g is a unit
  return v;
}

bool BiprimalityValuesAgree(const mpz_class& n, const std::vector<mpz_class>& values) {
  mpz_class product = 1;
  for (size_t i = 1; i < values.size(); ++i) product = product * values[i] % n;
  return values[0] == product || values[0] == (n - product) % n;
}

absl::StatusOr<std::vector<mpz_class>> OpenBiprimalityGcdValues(
    const std::vector<mpz_class>& moduli, const std::vector<mpz_class>& sum_shares,
    int modulus_bits, int sigma, BigFieldMpc& mpc, SecureRng& rng) {
  if (sum_shares.size() != moduli.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "shared modulus: ", sum_shares.size(), " shares of p + q for ", moduli.size(), " moduli"));
  }
  const BigFieldShamir& scheme = mpc.scheme();
  const int t = scheme.threshold();
  const int half = modulus_bits / 2;
  std::vector<mpz_class> dealt;
  std::vector<int> degrees;
  for (const mpz_class& n : moduli) {
    dealt.push_back(rng.UniformBelow(n << sigma));          // r_i
    dealt.push_back(rng.RandomBits(2 * sigma + half + 4));  // R'_i
    dealt.push_back(0);
    degrees.insert(degrees.end(), {t, t, 2 * t});
  }
  ASSIGN_OR_RETURN(auto by_dealer, mpc.Deal(dealt, degrees));
  for (mpz_class& v : dealt) Wipe(v);
  std::vector<mpz_class> local;
  for (size_t a = 0; a < moduli.size(); ++a) {
    const mpz_class r = BigFieldMpc::SumOverDealers(by_dealer, 3 * a, scheme);
    const mpz_class hide = BigFieldMpc::SumOverDealers(by_dealer, 3 * a + 1, scheme);
    const mpz_class zero = BigFieldMpc::SumOverDealers(by_dealer, 3 * a + 2, scheme);
    // p + q - 1: the constant 1 is subtracted from every share (a public
    // constant shifts a Shamir sharing's value when added to all shares).
    local.push_back(scheme.Reduce(r * (sum_shares[a] - 1) + moduli[a] * hide + zero));
  }
  return mpc.Open(local, 2 * t);
}

namespace {

class ModulusGenerator {
 public:
  ModulusGenerator(const SharedModulusOptions& options, ModulusSievePlan plan, MpcEngine& engine,
                   BigFieldShamir scheme)
      : o_(options),
        plan_(std::move(plan)),
        engine_(engine),
        scheme_(std::move(scheme)),
        mpc_(scheme_, engine),
        me_(engine.party_id()),
        n_(engine.num_parties()),
        t_(engine.threshold()) {
    std::vector<uint32_t> primes = OddPrimesUpTo(o_.public_trial_bound);
    primes.erase(primes.begin(),
                 std::upper_bound(primes.begin(), primes.end(), plan_.largest_sieve_prime));
    trial_groups_ = GroupPrimes(primes);
  }

  absl::StatusOr<SharedModulus> Run() {
    SharedModulus out;
    for (int batch = 0; batch < o_.max_batches; ++batch) {
      out.stats.batches = batch + 1;
      ASSIGN_OR_RETURN(Candidates c, Sieve());
      ASSIGN_OR_RETURN(std::vector<mpz_class> moduli, OpenModuli(c));
      out.stats.candidate_pairs += static_cast<int64_t>(moduli.size());
      std::vector<size_t> alive;
      for (size_t k = 0; k < moduli.size(); ++k) {
        if (BitLength(moduli[k]) == static_cast<size_t>(o_.modulus_bits) &&
            !HasFactorIn(moduli[k], trial_groups_)) {
          alive.push_back(k);
        }
      }
      out.stats.biprimality_tests += static_cast<int64_t>(alive.size());
      ASSIGN_OR_RETURN(alive, JacobiTest(c, moduli, alive, 0, 1));
      if (!alive.empty()) {
        ASSIGN_OR_RETURN(alive, JacobiTest(c, moduli, alive, 1, o_.biprimality_rounds));
      }
      if (!alive.empty()) {
        ASSIGN_OR_RETURN(alive, GcdTest(moduli, alive));
      }
      if (!alive.empty()) {
        const size_t k = alive.front();
        out.n = moduli[k];
        out.p_share = SecretInt(c.p[k]);
        out.q_share = SecretInt(c.q[k]);
        for (mpz_class& v : c.p) Wipe(v);
        for (mpz_class& v : c.q) Wipe(v);
        return out;
      }
      for (mpz_class& v : c.p) Wipe(v);
      for (mpz_class& v : c.q) Wipe(v);
    }
    return absl::ResourceExhaustedError(absl::StrCat(
        "shared modulus: no biprime among ", out.stats.candidate_pairs, " candidate pairs in ",
        o_.max_batches, " batches (raise max_batches)"));
  }

 private:
  // Step 1: this party's shares p_i, q_i of pairs_per_batch sieved pairs.
  absl::StatusOr<Candidates> Sieve() {
    const size_t pairs = static_cast<size_t>(plan_.pairs_per_batch), values = 2 * pairs;
    SecureRng& rng = engine_.rng();
    std::vector<mpz_class> dealt;  // [a for p and q (2 pairs)] then [masks]
    std::vector<mpz_class> masks(values);
    for (size_t k = 0; k < values; ++k) {
      dealt.push_back(RandomUnit(plan_.sieve_modulus, me_ == 0 ? 3 : 1, rng));
    }
    for (size_t k = 0; k < values; ++k) {
      masks[k] = me_ == 0 ? rng.RandomBits(plan_.mask_bits)
                          : mpz_class(rng.RandomBits(plan_.mask_bits - 2) << 2);
      dealt.push_back(masks[k]);
    }
    ASSIGN_OR_RETURN(auto by_dealer, mpc_.Deal(dealt, std::vector<int>(dealt.size(), t_)));
    for (mpz_class& v : dealt) Wipe(v);
    std::vector<std::vector<mpz_class>> factors(n_, std::vector<mpz_class>(values));
    std::vector<mpz_class> mask_sum(values);
    for (size_t k = 0; k < values; ++k) {
      for (int d = 0; d < n_; ++d) factors[d][k] = by_dealer[d][k];
      mask_sum[k] = BigFieldMpc::SumOverDealers(by_dealer, values + k, scheme_);
    }
    ASSIGN_OR_RETURN(std::vector<mpz_class> product, ProductTree(std::move(factors), mpc_));
    for (size_t k = 0; k < values; ++k) product[k] = scheme_.Reduce(product[k] + mask_sum[k]);
    ASSIGN_OR_RETURN(std::vector<mpz_class> masked, mpc_.Open(product, t_));
    Candidates c;
    for (size_t k = 0; k < values; ++k) {
      mpz_class share = me_ == 0 ? masked[k] - masks[k] : mpz_class(-masks[k]);
      mpz_class r = rng.UniformBelow(plan_.r_sum_bound / n_);
      if (me_ == 0) r += plan_.offset;
      share += plan_.sieve_modulus * r;
      (k < pairs ? c.p : c.q).push_back(std::move(share));
      Wipe(masks[k]);
      Wipe(r);
    }
    return c;
  }

  // Step 2: N for every pair; keeps shares of p + q for the gcd test.
  absl::StatusOr<std::vector<mpz_class>> OpenModuli(const Candidates& c) {
    const size_t pairs = c.p.size();
    std::vector<mpz_class> dealt;
    std::vector<int> degrees;
    for (size_t k = 0; k < pairs; ++k) {
      dealt.push_back(c.p[k]);
      dealt.push_back(c.q[k]);
      dealt.push_back(0);
      degrees.insert(degrees.end(), {t_, t_, 2 * t_});
    }
    ASSIGN_OR_RETURN(auto by_dealer, mpc_.Deal(dealt, degrees));
    for (mpz_class& v : dealt) Wipe(v);
    std::vector<mpz_class> local(pairs);
    sum_shares_.assign(pairs, 0);
    for (size_t k = 0; k < pairs; ++k) {
      const mpz_class p = BigFieldMpc::SumOverDealers(by_dealer, 3 * k, scheme_);
      const mpz_class q = BigFieldMpc::SumOverDealers(by_dealer, 3 * k + 1, scheme_);
      local[k] = scheme_.Reduce(p * q + BigFieldMpc::SumOverDealers(by_dealer, 3 * k + 2, scheme_));
      sum_shares_[k] = scheme_.Reduce(p + q);
    }
    return mpc_.Open(local, 2 * t_);
  }

  // Step 4: bases [first, last) for the candidates in `alive`; returns the
  // ones whose values agree for every base.
  absl::StatusOr<std::vector<size_t>> JacobiTest(const Candidates& c,
                                                 const std::vector<mpz_class>& moduli,
                                                 const std::vector<size_t>& alive, int first,
                                                 int last) {
    std::vector<mpz_class> mine;
    for (size_t k : alive) {
      for (int j = first; j < last; ++j) {
        const mpz_class g = BiprimalityBase(moduli[k], j);
        mine.push_back(BiprimalityValue(me_, moduli[k], g, c.p[k], c.q[k]));
      }
    }
    const size_t bytes = ByteLength(plan_.field_prime);
    std::vector<uint8_t> payload;
    for (const mpz_class& v : mine) {
      absl::StatusOr<std::string> b = ToFixedBytes(v, bytes);
      if (!b.ok()) return b.status();
      payload.insert(payload.end(), b->begin(), b->end());
    }
    std::vector<std::vector<uint8_t>> payloads(n_, payload);
    ASSIGN_OR_RETURN(auto received, engine_.ExchangeWithAll(std::move(payloads)));
    std::vector<std::vector<mpz_class>> values(n_);
    for (int d = 0; d < n_; ++d) {
      if (d == me_) {
        values[d] = mine;
        continue;
      }
      if (received[d].size() != mine.size() * bytes) {
        return absl::InvalidArgumentError(absl::StrCat(
            "shared modulus: party ", d, " sent ", received[d].size(),
            " bytes of biprimality values, expected ", mine.size() * bytes));
      }
      for (size_t k = 0; k < mine.size(); ++k) {
        values[d].push_back(FromBytes(std::string_view(
            reinterpret_cast<const char*>(received[d].data()) + k * bytes, bytes)));
      }
    }
    std::vector<size_t> passed;
    const int per = last - first;
    for (size_t a = 0; a < alive.size(); ++a) {
      bool ok = true;
      for (int j = 0; j < per && ok; ++j) {
        std::vector<mpz_class> column(n_);
        for (int d = 0; d < n_; ++d) column[d] = values[d][a * per + j];
        ok = BiprimalityValuesAgree(moduli[alive[a]], column);
      }
      if (ok) passed.push_back(alive[a]);
    }
    return passed;
  }

  // gcd(r (p + q - 1) mod N, N) = 1, r shared random (BF97 Section 3.2).
  absl::StatusOr<std::vector<size_t>> GcdTest(const std::vector<mpz_class>& moduli,
                                              const std::vector<size_t>& alive) {
    std::vector<mpz_class> tested, sums;
    for (size_t k : alive) {
      tested.push_back(moduli[k]);
      sums.push_back(sum_shares_[k]);
    }
    ASSIGN_OR_RETURN(
        std::vector<mpz_class> opened,
        OpenBiprimalityGcdValues(tested, sums, o_.modulus_bits, o_.sigma, mpc_, engine_.rng()));
    std::vector<size_t> passed;
    for (size_t a = 0; a < alive.size(); ++a) {
      const mpz_class& n = moduli[alive[a]];
      mpz_class z = opened[a] % n, g;
      mpz_gcd(g.get_mpz_t(), z.get_mpz_t(), n.get_mpz_t());
      if (g == 1) passed.push_back(alive[a]);
    }
    return passed;
  }

  const SharedModulusOptions o_;
  const ModulusSievePlan plan_;
  MpcEngine& engine_;
  const BigFieldShamir scheme_;
  BigFieldMpc mpc_;
  const int me_, n_, t_;
  std::vector<PrimeGroup> trial_groups_;
  std::vector<mpz_class> sum_shares_;  // shares of p + q (degree t), by pair
};

}  // namespace

absl::StatusOr<SharedModulus> GenerateSharedModulus(const SharedModulusOptions& options,
                                                    MpcEngine& engine) {
  ASSIGN_OR_RETURN(ModulusSievePlan plan, PlanModulusSieve(options, engine.num_parties()));
  ASSIGN_OR_RETURN(BigFieldShamir scheme,
                   BigFieldShamir::Create(engine.num_parties(), engine.threshold(),
                                          plan.field_prime));
  ModulusGenerator generator(options, std::move(plan), engine, std::move(scheme));
  return generator.Run();
}

}  // namespace pplda::crypto

#include "crypto/paillier/packing.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"

namespace pplda::crypto {
namespace {

int CeilLog2(uint64_t x) {
  int bits = 0;
  while (bits < 64 && (uint64_t{1} << bits) < x) ++bits;
  return bits;
}

mpz_class Pow2(int bits) {
  mpz_class out;
  mpz_ui_pow_ui(out.get_mpz_t(), 2, static_cast<unsigned long>(bits));
  return out;
}

absl::Status CheckOptions(const PackingOptions& o) {
  if (o.value_bits < 1 || o.value_bits > 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("packing: value_bits = ", o.value_bits, " is outside [1, 1024]"));
  }
  if (o.max_terms == 0) return absl::InvalidArgumentError("packing: max_terms must be >= 1");
  if (o.mask_parties < 0 || o.mask_parties > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("packing: mask_parties = ", o.mask_parties, " is outside [0, 64]"));
  }
  if (o.mask_parties > 0 && (o.sigma < kStatisticalSecurityBits || o.sigma > 256)) {
    return absl::InvalidArgumentError(absl::StrCat("packing: sigma = ", o.sigma,
                                                   " is outside [", kStatisticalSecurityBits,
                                                   ", 256]"));
  }
  if (o.guard_bits < 0 || o.guard_bits > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("packing: guard_bits = ", o.guard_bits, " is outside [0, 64]"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PackingLayout> PackingLayout::Create(const PackingOptions& options,
                                                    const PaillierPublicKey& key) {
  RETURN_IF_ERROR(CheckOptions(options));
  PackingLayout layout;
  layout.options_ = options;
  layout.n_ = key.n();
  layout.sum_bits_ = options.value_bits + CeilLog2(options.max_terms);
  layout.slot_bits_ = layout.sum_bits_ + 1 + options.guard_bits;
  if (options.mask_parties > 0) {
    layout.mask_bound_ = Pow2(layout.sum_bits_ + options.sigma);
    layout.slot_bits_ +=
        options.sigma + CeilLog2(static_cast<uint64_t>(options.mask_parties) + 1);
  }
  const size_t usable = key.modulus_bits() - 2;
  layout.slots_ = usable / static_cast<size_t>(layout.slot_bits_);
  if (layout.slots_ == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "packing: a slot of ", layout.slot_bits_, " bits does not fit a ",
        key.modulus_bits(), "-bit plaintext (at most ", usable, " bits)"));
  }
  return layout;
}

size_t PackingLayout::NumPlaintexts(size_t count) const {
  return (count + slots_ - 1) / slots_;
}

absl::StatusOr<std::vector<mpz_class>> PackingLayout::PackChecked(
    absl::Span<const mpz_class> values, const mpz_class& lo, const mpz_class& hi,
    std::string_view what) const {
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < lo || values[i] >= hi) {
      return absl::InvalidArgumentError(absl::StrCat(
          "packing: ", std::string(what), " ", i, " is outside [", lo.get_str(), ", ",
          hi.get_str(), ")"));
    }
  }
  std::vector<mpz_class> out(NumPlaintexts(values.size()));
  for (size_t p = 0; p < out.size(); ++p) {
    const size_t begin = p * slots_;
    const size_t end = std::min(values.size(), begin + slots_);
    mpz_class acc = 0;  // Horner from the top slot down
    for (size_t i = end; i-- > begin;) {
      acc <<= slot_bits_;
      acc += values[i];
    }
    mpz_mod(acc.get_mpz_t(), acc.get_mpz_t(), n_.get_mpz_t());
    out[p] = std::move(acc);
  }
  return out;
}

absl::StatusOr<std::vector<mpz_class>> PackingLayout::Pack(
    absl::Span<const mpz_class> values) const {
  const mpz_class bound = Pow2(options_.value_bits);
  return PackChecked(values, mpz_class(-bound + 1), bound, "value");
}

absl::StatusOr<std::vector<mpz_class>> PackingLayout::Pack(
    absl::Span<const int64_t> values) const {
  std::vector<mpz_class> big;
  big.reserve(values.size());
  for (int64_t v : values) {
    mpz_class x;
    mpz_set_si(x.get_mpz_t(), v);
    big.push_back(std::move(x));
  }
  return Pack(absl::MakeConstSpan(big));
}

absl::StatusOr<std::vector<mpz_class>> PackingLayout::PackMasks(
    absl::Span<const mpz_class> masks) const {
  if (options_.mask_parties == 0) {
    return absl::FailedPreconditionError(
        "packing: this layout has no mask headroom (mask_parties = 0)");
  }
  return PackChecked(masks, mpz_class(0), mask_bound_, "mask");
}

absl::StatusOr<std::vector<mpz_class>> PackingLayout::UnpackChecked(
    absl::Span<const mpz_class> plaintexts, size_t count, const mpz_class& lo,
    const mpz_class& hi, std::string_view what) const {
  if (plaintexts.size() != NumPlaintexts(count)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unpacking ", count, " values needs ", NumPlaintexts(count), " plaintexts of ",
        slots_, " slots, got ", plaintexts.size()));
  }
  const mpz_class half_slot = Pow2(slot_bits_ - 1);
  const mpz_class half_n = (n_ - 1) / 2;
  std::vector<mpz_class> out(count);
  mpz_class rest, digit;
  for (size_t p = 0; p < plaintexts.size(); ++p) {
    if (plaintexts[p] < 0 || plaintexts[p] >= n_) {
      return absl::InvalidArgumentError(
          absl::StrCat("unpacking: plaintext ", p, " is outside [0, N)"));
    }
    rest = plaintexts[p] > half_n ? mpz_class(plaintexts[p] - n_) : plaintexts[p];
    const size_t used = std::min(slots_, count - p * slots_);
    for (size_t s = 0; s < used; ++s) {
      // Balanced digit: rest mod 2^W mapped to [-2^(W-1), 2^(W-1)).
      mpz_fdiv_r_2exp(digit.get_mpz_t(), rest.get_mpz_t(), slot_bits_);
      if (digit >= half_slot) digit -= 2 * half_slot;
      if (digit < lo || digit >= hi) {
        return absl::OutOfRangeError(absl::StrCat(
            "unpacking: slot ", s, " of plaintext ", p, " (value ", p * slots_ + s,
            ") is outside the ", std::string(what), " range [", lo.get_str(), ", ",
            hi.get_str(), "): a sum exceeded the layout's headroom"));
      }
      rest -= digit;
      mpz_fdiv_q_2exp(rest.get_mpz_t(), rest.get_mpz_t(), slot_bits_);
      out[p * slots_ + s] = digit;
    }
    if (rest != 0) {
      return absl::OutOfRangeError(absl::StrCat(
          "unpacking: plaintext ", p, " has non-zero bits above its last used slot ", used,
          ": a sum exceeded the layout's headroom or the plaintext is not packed"));
    }
  }
  return out;
}

absl::StatusOr<std::vector<mpz_class>> PackingLayout::Unpack(
    absl::Span<const mpz_class> plaintexts, size_t count) const {
  const mpz_class bound = Pow2(sum_bits_);
  return UnpackChecked(plaintexts, count, mpz_class(-bound + 1), bound, "sum");
}

absl::StatusOr<std::vector<int64_t>> PackingLayout::UnpackInt64(
    absl::Span<const mpz_class> plaintexts, size_t count) const {
  ASSIGN_OR_RETURN(std::vector<mpz_class> big, Unpack(plaintexts, count));
  std::vector<int64_t> out(big.size());
  for (size_t i = 0; i < big.size(); ++i) {
    if (!mpz_fits_slong_p(big[i].get_mpz_t())) {
      return absl::OutOfRangeError(
          absl::StrCat("unpacking: value ", i, " does not fit in 64 bits"));
    }
    out[i] = mpz_get_si(big[i].get_mpz_t());
  }
  return out;
}

absl::StatusOr<std::vector<mpz_class>> PackingLayout::UnpackMasked(
    absl::Span<const mpz_class> plaintexts, size_t count) const {
  if (options_.mask_parties == 0) {
    return absl::FailedPreconditionError(
        "packing: this layout has no mask headroom (mask_parties = 0)");
  }
  const mpz_class bound = Pow2(sum_bits_);
  return UnpackChecked(plaintexts, count, mpz_class(-bound + 1),
                       mpz_class(bound + options_.mask_parties * mask_bound_), "masked sum");
}

}  // namespace pplda::crypto

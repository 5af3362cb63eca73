#include "cli/number_flags.h"

#include <charconv>
#include <cmath>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace pplda::cli::number_flags_internal {
namespace {

std::string Shown(const std::string& value) {
  constexpr size_t kMax = 40;
  return value.size() <= kMax ? value : value.substr(0, kMax) + "...";
}

// Plain decimal: digits with an optional leading '-' (when allowed), no
// "0x", no leading '+' or spaces, and no leading zero (CLI11 converts with
// base 0, so "010" would silently be 8).
bool PlainDecimal(std::string_view s, bool allow_minus) {
  if (!s.empty() && s[0] == '-' && allow_minus) s.remove_prefix(1);
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

CLI::Validator Named(CLI::Validator v) {
  v.name(kNumberValidatorName);
  return v;
}

template <typename T>
CLI::Validator IntegerValidator(T min, T max, const char* type) {
  const std::string range = absl::StrCat("[", min, ", ", max, "]");
  return Named(CLI::Validator(
      [min, max, range, type](std::string& value) -> std::string {
        T parsed{};
        const bool plain = PlainDecimal(value, std::is_signed_v<T>);
        const auto [end, ec] =
            plain ? std::from_chars(value.data(), value.data() + value.size(), parsed)
                  : std::from_chars_result{value.data(), std::errc::invalid_argument};
        if (!plain || ec != std::errc() || end != value.data() + value.size()) {
          if (plain && ec == std::errc::result_out_of_range) {
            return absl::StrCat(Shown(value), " is out of range: the value must be in ", range);
          }
          return absl::StrCat(Shown(value), " is not ", type, " (decimal digits",
                              std::is_signed_v<T> ? ", optionally after '-'" : "",
                              ", no leading zero); the value must be in ", range);
        }
        if (parsed < min || parsed > max) {
          return absl::StrCat(Shown(value), " is out of range: the value must be in ", range);
        }
        return std::string();
      },
      absl::StrCat("in ", range)));
}

}  // namespace

CLI::Validator IntegerIn(int64_t min, int64_t max) {
  return IntegerValidator<int64_t>(min, max, "an integer");
}

CLI::Validator UnsignedIn(uint64_t min, uint64_t max) {
  return IntegerValidator<uint64_t>(min, max, "a non-negative integer");
}

CLI::Validator FiniteIn(double min, double max) {
  const std::string range = absl::StrFormat("[%g, %g]", min, max);
  return Named(CLI::Validator(
      [min, max, range](std::string& value) -> std::string {
        double parsed = 0;
        // chars_format::general: decimal and exponent forms only (no hex,
        // no leading '+'); "nan" and "inf" parse and are refused below.
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), parsed,
                                               std::chars_format::general);
        if (value.empty() || ec == std::errc::invalid_argument ||
            end != value.data() + value.size()) {
          return absl::StrCat(Shown(value), " is not a number; the value must be in ", range);
        }
        if (ec == std::errc::result_out_of_range || !std::isfinite(parsed)) {
          return absl::StrCat(Shown(value), " is not a finite number in ", range);
        }
        if (parsed < min || parsed > max) {
          return absl::StrCat(Shown(value), " is out of range: the value must be in ", range);
        }
        return std::string();
      },
      absl::StrCat("in ", range)));
}

}  // namespace pplda::cli::number_flags_internal

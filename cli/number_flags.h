// The one validator of every numeric flag of `pplda` (CLI11): the value must
// be a plain decimal number of the flag's type within [min, max], checked
// before CLI11 converts it. It refuses nan and infinities, numbers that do
// not fit the type (an out-of-range seed is an error, never wrapped or
// saturated), a sign on an unsigned flag, hexadecimal and octal forms
// forms, leading zeros (CLI11 would read "010" as octal 8) and trailing
// text. The error names the flag
// (CLI11 prefixes it) and the range, bounds printed as the user would type
// them ("1e+06", not 309 digits):
//   --alpha: 1e309 is not a finite number in [1e-06, 1e+06]
// The range also appears in --help: "NUMBER in [1e-06, 1e+06]".
// Integer types are checked exactly (int64 or uint64 arithmetic); floating
// types as double. Thread-safety: validators are immutable.
#ifndef PPLDA_CLI_NUMBER_FLAGS_H_
#define PPLDA_CLI_NUMBER_FLAGS_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include "CLI/CLI.hpp"
#include "lda/lda_model.h"

namespace pplda::cli {

namespace number_flags_internal {
CLI::Validator IntegerIn(int64_t min, int64_t max);
CLI::Validator UnsignedIn(uint64_t min, uint64_t max);
CLI::Validator FiniteIn(double min, double max);
}  // namespace number_flags_internal

// The validator of a flag of type T (an integer or floating type) with
// values in [min, max]. Usage: app->add_option("--alpha", a, "...")
//     ->check(NumberIn<double>(1e-6, 1e6));
template <typename T>
CLI::Validator NumberIn(T min, T max) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
  if constexpr (std::is_floating_point_v<T>) {
    return number_flags_internal::FiniteIn(static_cast<double>(min), static_cast<double>(max));
  } else if constexpr (std::is_signed_v<T>) {
    return number_flags_internal::IntegerIn(static_cast<int64_t>(min), static_cast<int64_t>(max));
  } else {
    return number_flags_internal::UnsignedIn(static_cast<uint64_t>(min),
                                             static_cast<uint64_t>(max));
  }
}

// The name every NumberIn validator carries (tests find it on an option
// with CLI::Option::get_validator).
inline constexpr char kNumberValidatorName[] = "pplda-number";

// Ranges shared by several subcommands, stated once.
inline constexpr double kMinPrior = lda::kMinPrior;  // --alpha, --beta: also the secure
inline constexpr double kMaxPrior = lda::kMaxPrior;  // protocol's range and resolution
inline constexpr int kMaxThreadsFlag = 1024;

}  // namespace pplda::cli

#endif  // PPLDA_CLI_NUMBER_FLAGS_H_

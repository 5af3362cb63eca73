// Status matchers and helpers shared by the Paillier tests.
#ifndef PPLDA_TESTS_CRYPTO_PAILLIER_TEST_UTIL_H_
#define PPLDA_TESTS_CRYPTO_PAILLIER_TEST_UTIL_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto::testing {

inline const absl::Status& GetStatus(const absl::Status& s) { return s; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& s) {
  return s.status();
}

// Matches a Status / StatusOr with the given code whose message contains
// `substring`.
MATCHER_P2(StatusIs, code, substring, "") {
  const absl::Status& s = GetStatus(arg);
  *result_listener << "status is " << s.ToString();
  return s.code() == code && absl::StrContains(s.message(), std::string(substring));
}

MATCHER(IsOk, "") {
  const absl::Status& s = GetStatus(arg);
  *result_listener << "status is " << s.ToString();
  return s.ok();
}

#define PPLDA_TEST_CONCAT_INNER_(a, b) a##b
#define PPLDA_TEST_CONCAT_(a, b) PPLDA_TEST_CONCAT_INNER_(a, b)
#define ASSERT_OK_AND_ASSIGN(lhs, expr) \
  ASSERT_OK_AND_ASSIGN_IMPL_(PPLDA_TEST_CONCAT_(statusor_, __LINE__), lhs, expr)
#define ASSERT_OK_AND_ASSIGN_IMPL_(var, lhs, expr)   \
  auto var = (expr);                                 \
  ASSERT_TRUE(var.ok()) << var.status().ToString(); \
  lhs = std::move(var).value()
#define ASSERT_OK(expr) ASSERT_THAT((expr), ::pplda::crypto::testing::IsOk())
#define EXPECT_OK(expr) EXPECT_THAT((expr), ::pplda::crypto::testing::IsOk())

}  // namespace pplda::crypto::testing

#endif  // PPLDA_TESTS_CRYPTO_PAILLIER_TEST_UTIL_H_

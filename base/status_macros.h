// The project's one set of Status helpers, used across every module.
//   RETURN_IF_ERROR(expr);            returns expr's status if not OK
//   ASSIGN_OR_RETURN(lhs, expr);      lhs = *expr, or returns expr's status
#ifndef PPLDA_BASE_STATUS_MACROS_H_
#define PPLDA_BASE_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define PPLDA_CONCAT_INNER_(a, b) a##b
#define PPLDA_CONCAT_(a, b) PPLDA_CONCAT_INNER_(a, b)

#define RETURN_IF_ERROR(expr)                      \
  do {                                             \
    ::absl::Status pplda_status_ = (expr);         \
    if (!pplda_status_.ok()) return pplda_status_; \
  } while (0)

#define ASSIGN_OR_RETURN(lhs, expr) \
  PPLDA_ASSIGN_OR_RETURN_IMPL_(PPLDA_CONCAT_(pplda_statusor_, __LINE__), lhs, expr)

#define PPLDA_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                 \
  if (!statusor.ok()) return std::move(statusor).status(); \
  lhs = std::move(statusor).value()

#endif  // PPLDA_BASE_STATUS_MACROS_H_

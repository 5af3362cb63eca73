// MetricsServer: a daemon's HTTP endpoint for monitoring (cpp-httplib):
//   GET /metrics  the registry in Prometheus text format (0.0.4)
//   GET /healthz  200 "ok" while the health check returns OK, else 503 with
//                 the status message (no health check: always 200)
// Plain HTTP: bind it to a loopback or management address (the default is
// 127.0.0.1); it serves counters, never secrets.
//
// Start binds (port 0 picks a free port, see port()) and serves on its own
// thread; Stop (or the destructor) stops accepting, finishes the request in
// flight and joins. Errors: InvalidArgument for an address that is not
// host:port, Unavailable when the address cannot be bound.
// Thread-safety: Stop may be called from any thread, once or more; the
// registry and the health check must outlive the server and be thread-safe.
#ifndef PPLDA_NET_METRICS_SERVER_H_
#define PPLDA_NET_METRICS_SERVER_H_

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "net/metrics_registry.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace pplda::net {

class MetricsServer {
 public:
  struct Options {
    std::string address = "127.0.0.1:9100";  // host:port or [v6]:port
    std::function<absl::Status()> health;    // empty: always healthy
  };

  static absl::StatusOr<std::unique_ptr<MetricsServer>> Start(const MetricsRegistry& registry,
                                                              Options options);
  ~MetricsServer();

  const std::string& host() const { return host_; }
  int port() const { return port_; }
  void Stop();

 private:
  MetricsServer() = default;

  std::string host_;
  int port_ = 0;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  std::mutex stop_mu_;
};

}  // namespace pplda::net

#endif  // PPLDA_NET_METRICS_SERVER_H_

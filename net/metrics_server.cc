#include "net/metrics_server.h"

#include <chrono>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "httplib.h"
#include "spdlog/spdlog.h"

namespace pplda::net {

absl::StatusOr<std::unique_ptr<MetricsServer>> MetricsServer::Start(
    const MetricsRegistry& registry, Options options) {
  const std::string& address = options.address;
  const size_t colon = address.rfind(':');
  int port = -1;
  if (colon == std::string::npos || !absl::SimpleAtoi(address.substr(colon + 1), &port) ||
      port < 0 || port > 65535 || colon == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "metrics address \"", address, "\": expected host:port (port 0 picks a free one)"));
  }
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }

  auto out = std::unique_ptr<MetricsServer>(new MetricsServer());
  out->host_ = host;
  out->server_ = std::make_unique<httplib::Server>();
  httplib::Server& server = *out->server_;
  // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, which would let
  // a second daemon silently share a busy port.
  server.set_socket_options([](auto sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server.Get("/metrics", [&registry](const httplib::Request&, httplib::Response& res) {
    res.set_content(registry.Render(), "text/plain; version=0.0.4; charset=utf-8");
  });
  server.Get("/healthz", [health = options.health](const httplib::Request&,
                                                   httplib::Response& res) {
    const absl::Status status = health ? health() : absl::OkStatus();
    if (status.ok()) {
      res.set_content("ok\n", "text/plain; charset=utf-8");
    } else {
      res.status = 503;
      res.set_content(absl::StrCat(status.message(), "\n"), "text/plain; charset=utf-8");
    }
  });
  if (port == 0) {
    port = server.bind_to_any_port(host);
    if (port < 0) {
      return absl::UnavailableError(absl::StrCat("metrics: cannot bind ", address));
    }
  } else if (!server.bind_to_port(host, port)) {
    return absl::UnavailableError(absl::StrCat("metrics: cannot bind ", address,
                                               " (in use, or not an address of this host)"));
  }
  out->port_ = port;
  out->thread_ = std::thread([&server] {
    if (!server.listen_after_bind()) spdlog::warn("metrics server stopped with an error");
  });
  // Stop() is only effective once the accept loop runs.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!server.is_running() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!server.is_running()) {
    out->Stop();
    return absl::UnavailableError(absl::StrCat("metrics: server on ", address, " did not start"));
  }
  spdlog::info("metrics: serving /metrics and /healthz on {}:{}", host, port);
  return out;
}

MetricsServer::~MetricsServer() { Stop(); }

void MetricsServer::Stop() {
  std::lock_guard<std::mutex> lock(stop_mu_);
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace pplda::net

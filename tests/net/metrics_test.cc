#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "net/metrics_registry.h"
#include "net/metrics_server.h"

namespace pplda::net {
namespace {

using ::testing::HasSubstr;

TEST(MetricsRegistryTest, RendersPrometheusText) {
  MetricsRegistry registry;
  Counter* bytes =
      registry.AddCounter("pplda_bytes_sent_total", "Payload bytes sent", {{"peer", "p\"2"}})
          .value();
  Gauge* iteration = registry.AddGauge("pplda_iteration", "Current iteration").value();
  bytes->Increment(1024);
  bytes->Increment(-5);  // ignored: counters only go up
  iteration->Set(3);
  iteration->Add(0.5);
  EXPECT_EQ(registry.Render(),
            "# HELP pplda_bytes_sent_total Payload bytes sent\n"
            "# TYPE pplda_bytes_sent_total counter\n"
            "pplda_bytes_sent_total{peer=\"p\\\"2\"} 1024\n"
            "# HELP pplda_iteration Current iteration\n"
            "# TYPE pplda_iteration gauge\n"
            "pplda_iteration 3.5\n");
}

TEST(MetricsRegistryTest, SameSeriesTwiceIsTheSameObject) {
  MetricsRegistry registry;
  Counter* a = registry.AddCounter("x_total", "h", {{"k", "v"}}).value();
  Counter* b = registry.AddCounter("x_total", "h", {{"k", "v"}}).value();
  Counter* c = registry.AddCounter("x_total", "h", {{"k", "w"}}).value();
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(registry.AddGauge("x_total", "h").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.AddCounter("x_total", "other help").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.AddCounter("9bad", "h").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.AddCounter("ok", "h", {{"bad-label", "v"}}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(MetricsRegistryTest, ConcurrentIncrementsAreAllCounted) {
  MetricsRegistry registry;
  Counter* c = registry.AddCounter("n_total", "h").value();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([c] {
      for (int i = 0; i < 10000; ++i) c->Increment();
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(c->value(), 40000);
}

TEST(MetricsServerTest, ServesMetricsAndHealth) {
  MetricsRegistry registry;
  registry.AddCounter("pplda_frames_total", "Frames").value()->Increment(7);
  absl::Status health = absl::OkStatus();
  absl::StatusOr<std::unique_ptr<MetricsServer>> server = MetricsServer::Start(
      registry, {.address = "127.0.0.1:0", .health = [&health] { return health; }});
  ASSERT_TRUE(server.ok()) << server.status();
  ASSERT_GT((*server)->port(), 0);
  httplib::Client client("127.0.0.1", (*server)->port());
  auto metrics = client.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 200);
  EXPECT_THAT(metrics->body, HasSubstr("pplda_frames_total 7\n"));
  EXPECT_THAT(metrics->get_header_value("Content-Type"), HasSubstr("version=0.0.4"));
  auto ok = client.Get("/healthz");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  health = absl::UnavailableError("waiting for party p2");
  auto bad = client.Get("/healthz");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 503);
  EXPECT_THAT(bad->body, HasSubstr("waiting for party p2"));
  (*server)->Stop();
  (*server)->Stop();  // idempotent
  EXPECT_FALSE(client.Get("/metrics"));
}

TEST(MetricsServerTest, RefusesBadAndBusyAddresses) {
  MetricsRegistry registry;
  EXPECT_EQ(MetricsServer::Start(registry, {.address = "nonsense", .health = nullptr}).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto first = MetricsServer::Start(registry, {.address = "127.0.0.1:0", .health = nullptr});
  ASSERT_TRUE(first.ok());
  const std::string busy = "127.0.0.1:" + std::to_string((*first)->port());
  EXPECT_EQ(MetricsServer::Start(registry, {.address = busy, .health = nullptr}).status().code(),
            absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace pplda::net

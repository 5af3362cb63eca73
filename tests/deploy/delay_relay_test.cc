#include "tests/deploy/delay_relay.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace pplda::deploy_testing {
namespace {

using Clock = std::chrono::steady_clock;

// An echo server on 127.0.0.1 (one connection at a time, until Stop).
class EchoServer {
 public:
  EchoServer() {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof(a));
    listen(listener_, 4);
    socklen_t size = sizeof(a);
    getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &size);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] {
      while (true) {
        const int c = accept(listener_, nullptr, nullptr);
        if (c < 0) return;
        char buffer[8192];
        ssize_t n;
        while ((n = recv(c, buffer, sizeof(buffer), 0)) > 0) send(c, buffer, n, MSG_NOSIGNAL);
        close(c);
      }
    });
  }
  ~EchoServer() {
    shutdown(listener_, SHUT_RDWR);
    thread_.join();
    close(listener_);
  }
  int port() const { return port_; }

 private:
  int listener_ = -1;
  int port_ = 0;
  std::thread thread_;
};

int Connect(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::string ReadExactly(int fd, size_t size) {
  std::string out;
  char buffer[65536];
  while (out.size() < size) {
    const ssize_t n = recv(fd, buffer, std::min(sizeof(buffer), size - out.size()), 0);
    if (n <= 0) break;
    out.append(buffer, static_cast<size_t>(n));
  }
  return out;
}

TEST(DelayRelayTest, RoundTripTakesTwiceTheDelayAndBytesArriveIntact) {
  EchoServer echo;
  DelayRelay relay({"127.0.0.1", 0}, {"127.0.0.1", echo.port()}, std::chrono::milliseconds(40));
  ASSERT_TRUE(relay.Start().ok());
  const int fd = Connect(relay.port());
  ASSERT_GE(fd, 0);
  // A round trip: 2 x 40 ms, not much more.
  const Clock::time_point start = Clock::now();
  ASSERT_EQ(send(fd, "ping", 4, 0), 4);
  EXPECT_EQ(ReadExactly(fd, 4), "ping");
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  EXPECT_GE(ms, 80);
  EXPECT_LT(ms, 400);
  // 4 MB in order, both ways (the echo).
  std::string big(4 << 20, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>((i * 2654435761u) >> 13);
  std::thread writer([&] { send(fd, big.data(), big.size(), MSG_NOSIGNAL); });
  EXPECT_EQ(ReadExactly(fd, big.size()), big);
  writer.join();
  // A half-close travels through: the echo server closes, the client sees EOF.
  shutdown(fd, SHUT_WR);
  char c;
  EXPECT_EQ(recv(fd, &c, 1, 0), 0);
  close(fd);
  relay.Stop();
}

TEST(DelayRelayTest, UnreachableTargetClosesTheConnection) {
  DelayRelay relay({"127.0.0.1", 0}, {"127.0.0.1", 1}, std::chrono::milliseconds(1));
  ASSERT_TRUE(relay.Start().ok());
  const int fd = Connect(relay.port());
  ASSERT_GE(fd, 0);
  char c;
  EXPECT_LE(recv(fd, &c, 1, 0), 0);
  close(fd);
}

TEST(DelayRelayTest, ParseHostPortRefusesBadText) {
  EXPECT_TRUE(ParseHostPort("10.0.0.1:7000").ok());
  EXPECT_EQ(ParseHostPort("10.0.0.1:7000")->port, 7000);
  for (const char* bad : {"10.0.0.1", "host:7000", "10.0.0.1:x", "10.0.0.1:70000", ":1"}) {
    EXPECT_FALSE(ParseHostPort(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace pplda::deploy_testing

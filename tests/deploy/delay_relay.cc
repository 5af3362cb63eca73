#include "tests/deploy/delay_relay.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace pplda::deploy_testing {
namespace {

using Clock = std::chrono::steady_clock;

absl::StatusOr<sockaddr_in> ToAddress(const HostPort& hp) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(hp.port));
  if (inet_pton(AF_INET, hp.host.c_str(), &a.sin_addr) != 1) {
    return absl::InvalidArgumentError(absl::StrCat("not an IPv4 address: ", hp.host));
  }
  return a;
}

void NoDelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

absl::StatusOr<HostPort> ParseHostPort(const std::string& text) {
  const size_t colon = text.rfind(':');
  HostPort hp;
  if (colon == std::string::npos || !absl::SimpleAtoi(text.substr(colon + 1), &hp.port) ||
      hp.port < 0 || hp.port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("expected HOST:PORT, got \"", text, "\""));
  }
  hp.host = text.substr(0, colon);
  if (absl::Status s = ToAddress(hp).status(); !s.ok()) return s;
  return hp;
}

// One direction of a connection: bytes read from `from`, written to `to`
// at their arrival time plus the delay.
struct DelayedPipe {
  struct Chunk {
    Clock::time_point due;
    std::string bytes;
  };
  std::mutex mu;
  std::condition_variable changed;
  std::deque<Chunk> chunks;
  bool ended = false;    // the reader saw end of stream or an error
  bool aborted = false;  // stop now, drop what is queued
};

struct DelayRelay::Connection {
  int client = -1;
  int upstream = -1;
  DelayedPipe up, down;  // client -> upstream, upstream -> client
  std::vector<std::thread> threads;

  void Abort() {
    for (DelayedPipe* p : {&up, &down}) {
      std::lock_guard<std::mutex> lock(p->mu);
      p->aborted = true;
      p->changed.notify_all();
    }
    shutdown(client, SHUT_RDWR);
    shutdown(upstream, SHUT_RDWR);
  }
};

namespace {

void ReadInto(int from, DelayedPipe& pipe, std::chrono::microseconds delay) {
  std::string buffer(1 << 16, '\0');
  while (true) {
    const ssize_t n = recv(from, buffer.data(), buffer.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    std::lock_guard<std::mutex> lock(pipe.mu);
    if (n <= 0) {
      pipe.ended = true;
      pipe.changed.notify_all();
      return;
    }
    pipe.chunks.push_back({Clock::now() + delay, buffer.substr(0, static_cast<size_t>(n))});
    pipe.changed.notify_all();
  }
}

void WriteFrom(DelayedPipe& pipe, int to) {
  std::unique_lock<std::mutex> lock(pipe.mu);
  while (true) {
    pipe.changed.wait(lock, [&] { return pipe.aborted || pipe.ended || !pipe.chunks.empty(); });
    if (pipe.aborted) return;
    if (pipe.chunks.empty()) {  // ended, everything written
      shutdown(to, SHUT_WR);
      return;
    }
    const Clock::time_point due = pipe.chunks.front().due;
    if (pipe.changed.wait_until(lock, due, [&] { return pipe.aborted; })) return;
    std::string bytes = std::move(pipe.chunks.front().bytes);
    pipe.chunks.pop_front();
    lock.unlock();
    const bool ok = WriteAll(to, bytes.data(), bytes.size());
    lock.lock();
    if (!ok) {  // the far side is gone: end the other direction too
      pipe.aborted = true;
      shutdown(to, SHUT_RDWR);
      return;
    }
  }
}

}  // namespace

DelayRelay::DelayRelay(HostPort listen, HostPort target, std::chrono::microseconds one_way_delay)
    : listen_(std::move(listen)), target_(std::move(target)), delay_(one_way_delay) {}

DelayRelay::~DelayRelay() { Stop(); }

absl::Status DelayRelay::Start() {
  absl::StatusOr<sockaddr_in> address = ToAddress(listen_);
  if (!address.ok()) return address.status();
  listener_ = socket(AF_INET, SOCK_STREAM, 0);
  if (listener_ < 0) return absl::InternalError(absl::StrCat("socket: ", strerror(errno)));
  int one = 1;
  setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (bind(listener_, reinterpret_cast<const sockaddr*>(&*address), sizeof(*address)) != 0 ||
      listen(listener_, 64) != 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", listen_.host, ":",
                                               listen_.port, ": ", strerror(errno)));
  }
  sockaddr_in bound{};
  socklen_t size = sizeof(bound);
  getsockname(listener_, reinterpret_cast<sockaddr*>(&bound), &size);
  port_ = ntohs(bound.sin_port);
  acceptor_ = std::thread([this] { AcceptLoop(); });
  return absl::OkStatus();
}

void DelayRelay::AcceptLoop() {
  while (!stopping_) {
    const int client = accept(listener_, nullptr, nullptr);
    if (client < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return;  // the listener was shut down
    }
    Serve(client);
  }
}

void DelayRelay::Serve(int client) {
  absl::StatusOr<sockaddr_in> target = ToAddress(target_);
  const int upstream = socket(AF_INET, SOCK_STREAM, 0);
  if (!target.ok() || upstream < 0 ||
      connect(upstream, reinterpret_cast<const sockaddr*>(&*target), sizeof(*target)) != 0) {
    if (upstream >= 0) close(upstream);
    close(client);  // the caller sees the connection refused, as without the relay
    return;
  }
  NoDelay(client);
  NoDelay(upstream);
  auto c = std::make_shared<Connection>();
  c->client = client;
  c->upstream = upstream;
  c->threads.emplace_back([c, d = delay_] { ReadInto(c->client, c->up, d); });
  c->threads.emplace_back([c] { WriteFrom(c->up, c->upstream); });
  c->threads.emplace_back([c, d = delay_] { ReadInto(c->upstream, c->down, d); });
  c->threads.emplace_back([c] { WriteFrom(c->down, c->client); });
  std::lock_guard<std::mutex> lock(mu_);
  connections_.push_back(std::move(c));
}

void DelayRelay::Stop() {
  if (stopping_.exchange(true)) return;
  if (listener_ >= 0) shutdown(listener_, SHUT_RDWR);
  if (acceptor_.joinable()) acceptor_.join();
  if (listener_ >= 0) close(listener_);
  std::vector<std::shared_ptr<Connection>> connections;
  {
    std::lock_guard<std::mutex> lock(mu_);
    connections.swap(connections_);
  }
  for (auto& c : connections) {
    c->Abort();
    for (std::thread& t : c->threads) t.join();
    close(c->client);
    close(c->upstream);
  }
}

}  // namespace pplda::deploy_testing

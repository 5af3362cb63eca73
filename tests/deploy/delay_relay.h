// DelayRelay: a TCP relay that delays every byte by a fixed one-way delay in
// each direction, for the multi-host test over emulated WAN links (these
// kernels have no netem; bandwidth comes from tc tbf on the links).
// It listens on `listen` and, per accepted connection, dials `target`; bytes
// read at time t on one side are written to the other side at t + delay, in
// order. Placed in front of a listening daemon, it adds 2 x delay to every
// round trip to that daemon. A side that closes (or fails) closes the other
// side's writing half once every delayed byte has been written.
// Thread-safety: Start once; Stop from any thread; four threads per
// connection (reader and delayed writer per direction).
#ifndef PPLDA_TESTS_DEPLOY_DELAY_RELAY_H_
#define PPLDA_TESTS_DEPLOY_DELAY_RELAY_H_

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pplda::deploy_testing {

struct HostPort {
  std::string host;  // IPv4 dotted quad
  int port = 0;
};
// "1.2.3.4:56" -> HostPort; InvalidArgument otherwise.
absl::StatusOr<HostPort> ParseHostPort(const std::string& text);

class DelayRelay {
 public:
  DelayRelay(HostPort listen, HostPort target, std::chrono::microseconds one_way_delay);
  ~DelayRelay();
  DelayRelay(const DelayRelay&) = delete;
  DelayRelay& operator=(const DelayRelay&) = delete;

  // Binds and starts accepting; listen.port 0 picks a free port (port()).
  absl::Status Start();
  int port() const { return port_; }
  // Closes the listener and every connection; joins every thread.
  void Stop();

 private:
  struct Connection;
  void AcceptLoop();
  void Serve(int client);

  const HostPort listen_;
  const HostPort target_;
  const std::chrono::microseconds delay_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<std::shared_ptr<Connection>> connections_;
};

}  // namespace pplda::deploy_testing

#endif  // PPLDA_TESTS_DEPLOY_DELAY_RELAY_H_

// pplda-delay-relay LISTEN_HOST:PORT TARGET_HOST:PORT ONE_WAY_DELAY_MS
// Relays TCP connections from LISTEN to TARGET, delaying every byte by the
// delay in each direction (tests/deploy/delay_relay.h). Runs until SIGTERM
// or SIGINT. Test harness tool of tests/deploy/wan_namespaces_test.sh.
#include <signal.h>

#include <cstdio>
#include <cstdlib>

#include "absl/strings/numbers.h"
#include "tests/deploy/delay_relay.h"

int main(int argc, char** argv) {
  double delay_ms = 0;
  if (argc != 4 || !absl::SimpleAtod(argv[3], &delay_ms) || !(delay_ms >= 0) ||
      delay_ms > 10000) {
    std::fprintf(stderr,
                 "usage: %s LISTEN_HOST:PORT TARGET_HOST:PORT ONE_WAY_DELAY_MS (0..10000)\n",
                 argv[0]);
    return 2;
  }
  auto listen = pplda::deploy_testing::ParseHostPort(argv[1]);
  auto target = pplda::deploy_testing::ParseHostPort(argv[2]);
  if (!listen.ok() || !target.ok()) {
    std::fprintf(stderr, "pplda-delay-relay: %s\n",
                 std::string((listen.ok() ? target.status() : listen.status()).message()).c_str());
    return 2;
  }
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // before any thread starts
  pplda::deploy_testing::DelayRelay relay(
      *listen, *target,
      std::chrono::microseconds(static_cast<int64_t>(delay_ms * 1000)));
  if (absl::Status s = relay.Start(); !s.ok()) {
    std::fprintf(stderr, "pplda-delay-relay: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  std::fprintf(stderr, "pplda-delay-relay: %s -> %s, %.1f ms each way, listening\n", argv[1],
               argv[2], delay_ms);
  int received = 0;
  sigwait(&signals, &received);
  relay.Stop();
  return 0;
}

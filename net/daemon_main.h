// DaemonMain: the command line both daemons share: `NAME --config FILE`
// (-c FILE), --help. Runs `run(config)` and maps its status to the exit
// code: 0 ok, 1 error (printed as "NAME: error: ..."), 2 usage error.
// Tunes malloc first (base/allocator_tuning.h). BlockTerminationSignals and
// WaitForTerminationSignal: the SIGTERM / SIGINT handling both daemons share.
#ifndef PPLDA_NET_DAEMON_MAIN_H_
#define PPLDA_NET_DAEMON_MAIN_H_

#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "base/allocator_tuning.h"

namespace pplda::net {

// SIGTERM and SIGINT, the signals that stop a daemon.
inline sigset_t TerminationSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

// Blocks SIGTERM and SIGINT in the calling thread: call it before any thread
// starts, so that every later thread inherits the mask.
inline void BlockTerminationSignals() {
  const sigset_t set = TerminationSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

// Waits until SIGTERM or SIGINT arrives (blocked by BlockTerminationSignals)
// and returns it.
inline int WaitForTerminationSignal() {
  const sigset_t set = TerminationSignals();
  int signal = 0;
  sigwait(&set, &signal);
  return signal;
}

inline int DaemonMain(int argc, char** argv, const char* name, const char* config_name,
                      const char* purpose,
                      const std::function<absl::Status(const std::filesystem::path&)>& run) {
  KeepFreedBuffersForReuse();
  std::string config;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--config" || arg == "-c") && i + 1 < argc) {
      config = argv[++i];
    } else if (arg == "--help" || arg == "-h") {
      std::printf("usage: %s --config %s\n%s (docs/operations.md).\n", name, config_name, purpose);
      return 0;
    } else {
      std::fprintf(stderr, "%s: unknown argument '%s' (usage: %s --config %s)\n", name,
                   arg.c_str(), name, config_name);
      return 2;
    }
  }
  if (config.empty()) {
    std::fprintf(stderr, "%s: --config %s is required\n", name, config_name);
    return 2;
  }
  const absl::Status status = run(config);
  if (!status.ok()) {
    std::fprintf(stderr, "%s: error: %s\n", name, std::string(status.message()).c_str());
    return 1;
  }
  return 0;
}

}  // namespace pplda::net

#endif  // PPLDA_NET_DAEMON_MAIN_H_

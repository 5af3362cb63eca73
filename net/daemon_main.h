// DaemonMain: the command line both daemons share: `NAME --config FILE`
// (-c FILE), --help. Runs `run(config)` and maps its status to the exit
// code: 0 ok, 1 error (printed as "NAME: error: ..."), 2 usage error.
// Tunes malloc first (base/allocator_tuning.h).
#ifndef PPLDA_NET_DAEMON_MAIN_H_
#define PPLDA_NET_DAEMON_MAIN_H_

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "base/allocator_tuning.h"

namespace pplda::net {

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

// pplda-coordinator: the consortium coordinator daemon (coordinator_daemon.h).
#include <cstdio>
#include <string>

#include "coordinator/daemon/coordinator_daemon.h"

int main(int argc, char** argv) {
  std::string config;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--config" || arg == "-c") && i + 1 < argc) {
      config = argv[++i];
    } else if (arg == "--help" || arg == "-h") {
      std::printf("usage: pplda-coordinator --config coordinator.toml\n"
                  "Schedules secure LDA runs and publishes their models (docs/operations.md).\n");
      return 0;
    } else {
      std::fprintf(stderr, "pplda-coordinator: unknown argument '%s' (usage: pplda-coordinator --config "
                           "coordinator.toml)\n", arg.c_str());
      return 2;
    }
  }
  if (config.empty()) {
    std::fprintf(stderr, "pplda-coordinator: --config coordinator.toml is required\n");
    return 2;
  }
  const absl::Status status = pplda::coordinator::RunCoordinatorDaemon(config);
  if (!status.ok()) {
    std::fprintf(stderr, "pplda-coordinator: error: %s\n", std::string(status.message()).c_str());
    return 1;
  }
  return 0;
}

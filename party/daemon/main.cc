// pplda-party: one organisation's party daemon (party_daemon.h).
#include <cstdio>
#include <string>

#include "party/daemon/party_daemon.h"

int main(int argc, char** argv) {
  std::string config;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--config" || arg == "-c") && i + 1 < argc) {
      config = argv[++i];
    } else if (arg == "--help" || arg == "-h") {
      std::printf("usage: pplda-party --config party.toml\n"
                  "Serves this organisation's part of secure LDA runs (docs/operations.md).\n");
      return 0;
    } else {
      std::fprintf(stderr, "pplda-party: unknown argument '%s' (usage: pplda-party --config "
                           "party.toml)\n", arg.c_str());
      return 2;
    }
  }
  if (config.empty()) {
    std::fprintf(stderr, "pplda-party: --config party.toml is required\n");
    return 2;
  }
  const absl::Status status = pplda::party::RunPartyDaemon(config);
  if (!status.ok()) {
    std::fprintf(stderr, "pplda-party: error: %s\n", std::string(status.message()).c_str());
    return 1;
  }
  return 0;
}

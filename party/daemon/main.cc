// pplda-party: one organisation's party daemon (party_daemon.h).
#include "net/daemon_main.h"
#include "party/daemon/party_daemon.h"

int main(int argc, char** argv) {
  return pplda::net::DaemonMain(argc, argv, "pplda-party", "party.toml",
                                "Serves this organisation's part of secure LDA runs",
                                pplda::party::RunPartyDaemon);
}

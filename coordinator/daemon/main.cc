// pplda-coordinator: the consortium coordinator daemon (coordinator_daemon.h).
#include "coordinator/daemon/coordinator_daemon.h"
#include "net/daemon_main.h"

int main(int argc, char** argv) {
  return pplda::net::DaemonMain(argc, argv, "pplda-coordinator", "coordinator.toml",
                                "Schedules secure LDA runs and publishes their models",
                                pplda::coordinator::RunCoordinatorDaemon);
}

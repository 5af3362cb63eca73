// Shared by the end-to-end tests: the REAL binaries (pplda, pplda-party,
// pplda-coordinator; paths set by CMake as PPLDA_BINARY, PPLDA_PARTY_BINARY,
// PPLDA_COORDINATOR_BINARY) run as child processes on loopback.
//
//  - RunCommand runs a command to completion (or kills it at a deadline) and
//    captures its exit code and combined stdout and stderr.
//  - Daemon is one long-lived child (a party or the coordinator), its output
//    in a log file; Stop() sends SIGCONT (a stopped daemon must see the
//    SIGTERM), SIGTERM, waits up to 10 s, then SIGKILL, and reaps it. The
//    destructor stops it, and every child gets PR_SET_PDEATHSIG = SIGKILL,
//    so no daemon outlives the test process even when it crashes.
//  - LocalConsortium sets up a whole consortium in one folder, as
//    deploy/demo.sh does: a public vocabulary (`pplda prepare --min-df`),
//    deploy/make-certs.sh certificates and consortium file, a dealt key
//    (`pplda keys deal`), coordinator.toml and one party.toml per party
//    (early, middle, modern: the three eras of data/sotu), on loopback ports
//    chosen free at run time; it starts and stops the daemons.
// Nothing here is thread-safe; one test thread drives it.
#ifndef PPLDA_TESTS_E2E_E2E_TEST_UTIL_H_
#define PPLDA_TESTS_E2E_E2E_TEST_UTIL_H_

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "tests/net/net_test_util.h"

// ASSERT that an absl::Status is OK, printing it otherwise.
#define E2E_ASSERT_OK(expr)                       \
  do {                                            \
    const absl::Status e2e_status_ = (expr);      \
    ASSERT_TRUE(e2e_status_.ok()) << e2e_status_; \
  } while (0)

namespace pplda::e2e::testing {

using ::pplda::net::testing::MakeCerts;
using ::pplda::net::testing::ReadText;
using ::pplda::net::testing::TempDir;
using Clock = std::chrono::steady_clock;

inline const std::string kPplda = PPLDA_BINARY;
inline const std::string kPartyBinary = PPLDA_PARTY_BINARY;
inline const std::string kCoordinatorBinary = PPLDA_COORDINATOR_BINARY;
inline const std::filesystem::path kRepoRoot = PPLDA_REPO_ROOT;

// How many SIGKILL trials the restart tests make: 20 (the restart tests' proof), or
// PPLDA_KILL_TRIALS in [1, 100] when set (deploy/sanitize.sh sets 3: under
// AddressSanitizer 20 trials with real daemons outlast the test timeout,
// and 3 still take every restart path).
inline int KillTrials() {
  const char* text = std::getenv("PPLDA_KILL_TRIALS");
  if (text == nullptr) return 20;
  const int trials = std::atoi(text);
  return trials >= 1 && trials <= 100 ? trials : 20;
}

namespace internal {

// argv as the char* array execv wants (built before fork: the child may only
// make async-signal-safe calls).
class Argv {
 public:
  explicit Argv(const std::vector<std::string>& args) : args_(args) {
    for (std::string& a : args_) pointers_.push_back(a.data());
    pointers_.push_back(nullptr);
  }
  char* const* get() { return pointers_.data(); }

 private:
  std::vector<std::string> args_;
  std::vector<char*> pointers_;
};

// In the child after fork: die with the test process, stdout and stderr to
// `out_fd`, then exec. Never returns.
[[noreturn]] inline void ExecChild(char* const* argv, int out_fd, pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);
  dup2(out_fd, STDOUT_FILENO);
  dup2(out_fd, STDERR_FILENO);
  if (out_fd > STDERR_FILENO) close(out_fd);
  const int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, STDIN_FILENO);
  execv(argv[0], argv);
  _exit(127);
}

}  // namespace internal

struct CommandResult {
  int exit_code = -1;  // -1: killed by a signal or at the deadline
  bool timed_out = false;
  std::string output;  // stdout and stderr, interleaved
  std::string Describe() const {
    return absl::StrCat(timed_out ? "TIMED OUT, " : "", "exit ", exit_code, ", output:\n", output);
  }
};

// Runs `args` (args[0] an absolute path) with a deadline.
inline CommandResult RunCommand(const std::vector<std::string>& args,
                                std::chrono::seconds timeout = std::chrono::seconds(120)) {
  CommandResult result;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    result.output = "pipe failed";
    return result;
  }
  internal::Argv argv(args);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    internal::ExecChild(argv.get(), fds[1], parent);
  }
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    result.output = "fork failed";
    return result;
  }
  const Clock::time_point deadline = Clock::now() + timeout;
  char buf[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 200)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    result.output.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = (!result.timed_out && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  return result;
}

// `pplda ARGS...`.
inline CommandResult RunPplda(std::vector<std::string> args,
                              std::chrono::seconds timeout = std::chrono::seconds(120)) {
  args.insert(args.begin(), kPplda);
  return RunCommand(args, timeout);
}

// `count` different TCP ports on 127.0.0.1 that were free a moment ago,
// for the daemons to listen on. They are drawn at random below the kernel's
// ephemeral range (net.ipv4.ip_local_port_range), so that neither the
// outgoing connections made meanwhile nor other tests' bind(port 0) can take
// them before the daemons start; each is checked by binding it.
inline absl::StatusOr<std::vector<int>> FreePorts(int count) {
  int ephemeral_low = 32768;
  {
    std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range");
    int low = 0;
    if (range >> low && low > 2048) ephemeral_low = low;
  }
  const int low = std::max(1024, ephemeral_low - 20000);
  std::random_device seed;
  std::mt19937 gen(seed());
  std::uniform_int_distribution<int> pick(low, ephemeral_low - 1);
  std::vector<int> ports;
  for (int attempt = 0; attempt < 1000 && static_cast<int>(ports.size()) < count; ++attempt) {
    const int port = pick(gen);
    if (std::find(ports.begin(), ports.end(), port) != ports.end()) continue;
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return absl::InternalError("socket failed");
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);  // as the daemons bind
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    const bool free = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    close(fd);
    if (free) ports.push_back(port);
  }
  if (static_cast<int>(ports.size()) < count) {
    return absl::UnavailableError(
        absl::StrCat("no ", count, " free ports in [", low, ", ", ephemeral_low, ")"));
  }
  return ports;
}

// One daemon process, output to a log file.
class Daemon {
 public:
  static absl::StatusOr<std::unique_ptr<Daemon>> Start(std::string name,
                                                       const std::vector<std::string>& args,
                                                       const std::filesystem::path& log) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return absl::InternalError("cannot open " + log.string());
    struct stat st {};
    const size_t offset = fstat(fd, &st) == 0 ? static_cast<size_t>(st.st_size) : 0;
    internal::Argv argv(args);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0) internal::ExecChild(argv.get(), fd, parent);
    close(fd);
    if (pid < 0) return absl::InternalError("fork failed for " + args[0]);
    return std::unique_ptr<Daemon>(new Daemon(std::move(name), pid, log, offset));
  }
  ~Daemon() { Stop(); }
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  const std::string& name() const { return name_; }
  pid_t pid() const { return pid_; }
  const std::filesystem::path& log() const { return log_; }
  // What this process wrote to its log (a restarted daemon appends to the
  // log of the one before).
  std::string LogText() const {
    const std::string text = ReadText(log_);
    return text.size() > log_offset_ ? text.substr(log_offset_) : std::string();
  }

  // True while the process has not exited (a stopped process is running).
  bool Running() {
    if (reaped_) return false;
    int status = 0;
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      reaped_ = true;
      exit_status_ = status;
      return false;
    }
    return r == 0;
  }
  // How it ended ("exit 0", "signal 9"); empty while running.
  std::string Ended() {
    if (Running()) return "";
    if (WIFEXITED(exit_status_)) return absl::StrCat("exit ", WEXITSTATUS(exit_status_));
    if (WIFSIGNALED(exit_status_)) return absl::StrCat("signal ", WTERMSIG(exit_status_));
    return "ended";
  }

  void Signal(int sig) {
    if (!reaped_) kill(pid_, sig);
  }

  // SIGKILL and reap (a party killed mid-run).
  void Kill() {
    Signal(SIGKILL);
    Reap(std::chrono::seconds(10));
  }

  // SIGCONT + SIGTERM, up to `grace` for a clean exit, then SIGKILL. Returns
  // true when the daemon exited on SIGTERM by itself.
  bool Stop(std::chrono::seconds grace = std::chrono::seconds(10)) {
    if (!Running()) return false;
    Signal(SIGCONT);
    Signal(SIGTERM);
    if (Reap(grace)) return true;
    Signal(SIGKILL);
    Reap(std::chrono::seconds(30));
    return false;
  }

  // Waits until the log holds `text`; FailedPrecondition with the log when
  // the daemon exits first, DeadlineExceeded after `timeout`.
  absl::Status WaitForLog(const std::string& text, std::chrono::seconds timeout) {
    const Clock::time_point deadline = Clock::now() + timeout;
    for (;;) {
      const std::string log = LogText();
      if (log.find(text) != std::string::npos) return absl::OkStatus();
      if (!Running()) {
        return absl::FailedPreconditionError(
            absl::StrCat(name_, " ended (", Ended(), ") before logging \"", text, "\":\n", log));
      }
      if (Clock::now() > deadline) {
        return absl::DeadlineExceededError(
            absl::StrCat(name_, " did not log \"", text, "\" in time:\n", log));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

 private:
  Daemon(std::string name, pid_t pid, std::filesystem::path log, size_t log_offset)
      : name_(std::move(name)), pid_(pid), log_(std::move(log)), log_offset_(log_offset) {}

  bool Reap(std::chrono::seconds timeout) {
    const Clock::time_point deadline = Clock::now() + timeout;
    while (Running()) {
      if (Clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
  }

  std::string name_;
  pid_t pid_;
  std::filesystem::path log_;
  size_t log_offset_;  // where this process's output starts (a restart appends)
  bool reaped_ = false;
  int exit_status_ = 0;
};

inline absl::Status WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.flush();
  if (!out) return absl::InternalError("cannot write " + path.string());
  return absl::OkStatus();
}

// A small secure workload: ~200 terms (terms in at least 50 sentence windows
// of data/sotu), windows of 400 words capped at 3 tokens: a few hundred
// tokens per party.
struct ConsortiumOptions {
  int key_bits = 1024;
  int min_df = 50;
  std::string split = "sentences";
  int window_words = 400;
  int max_tokens = 3;
  std::optional<uint64_t> initial_topics_seed;
  // INSECURE, tests only: every party's randomness from seeded streams.
  std::optional<uint64_t> insecure_deterministic_rng_seed;
  // Relay mode: no party listens; each dials the coordinator, which
  // forwards their sealed MPC frames and carries their control calls.
  bool relay = false;
  // The coordinator captures what its relay reads and writes (capture/
  // relay.capture), and, INSECURE (test builds only), each party the
  // plaintext payloads it sends (capture/<name>.capture).
  bool capture_traffic = false;
  // The last party ("modern") is a data-less helper: two data holders.
  bool last_party_is_helper = false;
  // Every party's party.toml accepts runs with two data holders and no DP.
  bool accept_two_holder_disclosure = false;
  // Every party's party.toml sets this privacy budget (epsilon, delta).
  std::optional<std::pair<double, double>> privacy_budget;
  // coordinator.toml party_restart_wait_seconds (unset: the default).
  std::optional<int> party_restart_wait_seconds;
};

// The daemons' configs (paths relative to the config file's folder).
inline constexpr char kCoordinatorToml[] = R"([coordinator]
name = "coordinator"
consortium = "certs/consortium.toml"
vocabulary = "vocabulary.txt"
public_key = "keys/public.key"
state_dir = "state/coordinator"
listen = "$listen"
$capture
[tls]
ca = "certs/ca.crt"
cert = "certs/coordinator.crt"
key = "certs/coordinator.key"
)";

inline constexpr char kPartyToml[] = R"([party]
name = "$name"
consortium = "certs/consortium.toml"
$documents
vocabulary = "vocabulary.txt"
key_share = "keys/$name.key"
state_dir = "state/$name"
$listen
box_key = "certs/$name.box"
$seed
[input]
split = "$split"
window_words = $window
max_tokens = $max_tokens
[tls]
ca = "certs/ca.crt"
cert = "certs/$name.crt"
key = "certs/$name.key"
)";

class LocalConsortium {
 public:
  static constexpr int kParties = 3;
  static constexpr std::array<const char*, kParties> kPartyNames = {"early", "middle", "modern"};
  static constexpr std::array<const char*, kParties> kEras = {"1790-1860", "1861-1945",
                                                              "1946-2021"};

  // Everything goes under `dir` (which must exist).
  absl::Status Setup(const std::filesystem::path& dir, const ConsortiumOptions& options) {
    dir_ = dir;
    options_ = options;
    std::filesystem::create_directories(dir / "logs");
    CommandResult r = RunPplda({"--quiet", "prepare", "--input", Documents(-1).string(), "--split",
                                options.split, "--min-df", std::to_string(options.min_df), "--out",
                                (dir / "vocabulary-source").string()});
    if (r.exit_code != 0) return absl::InternalError("pplda prepare: " + r.Describe());
    std::filesystem::copy_file(dir / "vocabulary-source" / "vocabulary.txt", vocabulary());
    absl::StatusOr<std::vector<int>> ports = FreePorts(1 + kParties);
    if (!ports.ok()) return ports.status();
    ports_ = *ports;
    std::vector<std::string> spec = {"--name", "e2e", "--coordinator",
                                     "coordinator=" + address(-1)};
    for (int i = 0; i < kParties; ++i) {
      spec.push_back("--party");
      spec.push_back(absl::StrCat(kPartyNames[i], "=", options.relay ? "relay" : address(i)));
    }
    absl::Status certs = MakeCerts(dir / "certs", absl::StrJoin(spec, " "));
    if (!certs.ok()) return certs;
    r = RunPplda({"keys", "deal", "--party", kPartyNames[0], "--party", kPartyNames[1], "--party",
                  kPartyNames[2], "--bits", std::to_string(options.key_bits), "--out",
                  keys().string()});
    if (r.exit_code != 0) return absl::InternalError("pplda keys deal: " + r.Describe());
    if (options.capture_traffic) std::filesystem::create_directories(dir / "capture");
    absl::Status written = WriteText(
        coordinator_config(),
        absl::StrReplaceAll(
            kCoordinatorToml,
            {{"$listen", address(-1)},
             {"$capture\n",
              absl::StrCat(
                  options.capture_traffic ? "relay_capture = \"capture/relay.capture\"\n" : "",
                  options.party_restart_wait_seconds.has_value()
                      ? absl::StrCat("party_restart_wait_seconds = ",
                                     *options.party_restart_wait_seconds, "\n")
                      : "")}}));
    if (!written.ok()) return written;
    for (int i = 0; i < kParties; ++i) {
      std::string seed;
      if (options.initial_topics_seed.has_value()) {
        seed = absl::StrCat("initial_topics_seed = ", *options.initial_topics_seed, "\n");
      }
      if (options.insecure_deterministic_rng_seed.has_value()) {
        absl::StrAppend(&seed, "insecure_deterministic_rng_seed = ",
                        *options.insecure_deterministic_rng_seed, "\n");
      }
      if (options.capture_traffic) {
        absl::StrAppend(&seed, "insecure_capture_sent_payloads = \"capture/", kPartyNames[i],
                        ".capture\"\n");
      }
      if (options.accept_two_holder_disclosure) {
        absl::StrAppend(&seed, "accept_two_holder_disclosure = true\n");
      }
      if (options.privacy_budget.has_value()) {
        absl::StrAppend(&seed, "privacy_budget_epsilon = ", options.privacy_budget->first,
                        "\nprivacy_budget_delta = ", options.privacy_budget->second, "\n");
      }
      const bool helper = options.last_party_is_helper && i == kParties - 1;
      const std::string documents =
          helper ? "" : absl::StrCat("documents = \"", Documents(i).string(), "\"");
      written = WriteText(
          party_config(i),
          absl::StrReplaceAll(
              kPartyToml,
              {{"$name", kPartyNames[i]},
               {"$documents", documents},
               {"$listen", options.relay ? "" : absl::StrCat("listen = \"", address(i), "\"")},
               {"$seed\n", seed},
               {"$split", options.split},
               {"$window", std::to_string(options.window_words)},
               {"$max_tokens", std::to_string(options.max_tokens)}}));
      if (!written.ok()) return written;
    }
    parties_.resize(kParties);
    return absl::OkStatus();
  }

  // Starts the coordinator and every party; waits until each listens.
  absl::Status StartAll() {
    absl::Status s = StartCoordinator();
    for (int i = 0; i < kParties && s.ok(); ++i) s = StartParty(i);
    return s;
  }

  absl::Status StartCoordinator() {
    return StartDaemon(coordinator_, "coordinator", kCoordinatorBinary, coordinator_config());
  }
  // In relay mode, until it reached the coordinator's relay.
  absl::Status StartParty(int i) {
    return StartDaemon(parties_[i], kPartyNames[i], kPartyBinary, party_config(i),
                       options_.relay ? "relay connected" : "listening on");
  }

  // Stops every daemon (see Daemon::Stop); safe to call twice.
  void StopAll() {
    for (std::unique_ptr<Daemon>& d : parties_) {
      if (d) d->Stop();
    }
    if (coordinator_) coordinator_->Stop();
  }

  // Every daemon's log, for a failed test's output.
  std::string Logs() const {
    std::string out;
    for (const char* name : {"coordinator", kPartyNames[0], kPartyNames[1], kPartyNames[2]}) {
      const std::filesystem::path log = dir_ / "logs" / (std::string(name) + ".log");
      if (!std::filesystem::exists(log)) continue;
      std::string text = ReadText(log);
      if (text.size() > 6000) text = "...\n" + text.substr(text.size() - 6000);
      absl::StrAppend(&out, "---- ", name, " log ----\n", text, "\n");
    }
    return out;
  }

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path vocabulary() const { return dir_ / "vocabulary.txt"; }
  std::filesystem::path coordinator_config() const { return dir_ / "coordinator.toml"; }
  std::filesystem::path party_config(int i) const {
    return dir_ / (std::string(kPartyNames[i]) + ".toml");
  }
  std::filesystem::path certs() const { return dir_ / "certs"; }
  // What `pplda keys deal` wrote: public.key and <name>.key per party.
  std::filesystem::path keys() const { return dir_ / "keys"; }
  // With capture_traffic: the relay's capture (-1) or a party's.
  std::filesystem::path capture(int i) const {
    return dir_ / "capture" /
           ((i < 0 ? std::string("relay") : std::string(kPartyNames[i])) + ".capture");
  }
  std::filesystem::path state(int i) const {
    return dir_ / "state" / (i < 0 ? std::string("coordinator") : std::string(kPartyNames[i]));
  }
  // -1: the coordinator; 0..2: the parties.
  std::string address(int i) const { return absl::StrCat("127.0.0.1:", ports_[i + 1]); }
  Daemon& party(int i) { return *parties_[i]; }
  Daemon& coordinator() { return *coordinator_; }
  // A party's documents: one era of data/sotu (-1: all of it).
  static std::filesystem::path Documents(int i) {
    return i < 0 ? kRepoRoot / "data" / "sotu" : kRepoRoot / "data" / "sotu" / kEras[i];
  }

 private:
  absl::Status StartDaemon(std::unique_ptr<Daemon>& slot, const std::string& name,
                           const std::string& binary, const std::filesystem::path& config,
                           const std::string& ready = "listening on") {
    if (slot) slot->Stop();
    absl::StatusOr<std::unique_ptr<Daemon>> d =
        Daemon::Start(name, {binary, "--config", config.string()}, dir_ / "logs" / (name + ".log"));
    if (!d.ok()) return d.status();
    slot = *std::move(d);
    return slot->WaitForLog(ready, std::chrono::seconds(60));
  }

  std::filesystem::path dir_;
  ConsortiumOptions options_;
  std::vector<int> ports_;  // coordinator, then the parties
  std::unique_ptr<Daemon> coordinator_;
  std::vector<std::unique_ptr<Daemon>> parties_;
};

// `pplda run status` as the coordinator: its output, and the state and
// completed iteration parsed from it ("run ID: STATE[, iteration I/N]").
struct RunStatusLine {
  CommandResult command;
  std::string run_id;
  std::string state;  // empty when the command failed
  int iteration = -1;
};

inline RunStatusLine RunStatusOf(const LocalConsortium& c, const std::string& run_id = "") {
  std::vector<std::string> args = {"run", "status", "--config", c.coordinator_config().string()};
  if (!run_id.empty()) {
    args.push_back("--run");
    args.push_back(run_id);
  }
  RunStatusLine s;
  s.command = RunPplda(args, std::chrono::seconds(60));
  if (s.command.exit_code != 0) return s;
  static const std::regex kLine(R"(run (\S+): ([a-z]+)(, iteration (\d+)/(\d+))?)");
  std::smatch m;
  if (std::regex_search(s.command.output, m, kLine)) {
    s.run_id = m[1];
    s.state = m[2];
    if (m[4].matched) s.iteration = std::stoi(m[4]);
  }
  return s;
}

// Polls `pplda run status` until `done` holds; the last status either way.
template <typename Predicate>
RunStatusLine PollStatus(const LocalConsortium& c, const std::string& run_id, Predicate done,
                         std::chrono::seconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  RunStatusLine s;
  for (;;) {
    s = RunStatusOf(c, run_id);
    if (done(s) || Clock::now() > deadline) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

inline bool RunEnded(const RunStatusLine& s) {
  return s.state == "published" || s.state == "failed" || s.state == "cancelled";
}

// `pplda run start` (without --watch) as the coordinator: the run id.
inline absl::StatusOr<std::string> StartRun(const LocalConsortium& c, int topics, int iterations) {
  CommandResult r =
      RunPplda({"run", "start", "--config", c.coordinator_config().string(), "--topics",
                std::to_string(topics), "--iterations", std::to_string(iterations)},
               std::chrono::seconds(60));
  if (r.exit_code != 0) return absl::InternalError("pplda run start: " + r.Describe());
  std::string id = r.output.substr(0, r.output.find('\n'));
  if (id.rfind("run-", 0) != 0) return absl::InternalError("no run id in: " + r.output);
  return id;
}

// A real 1-iteration run through the coordinator, started and watched with
// the run CLI: the consortium still serves (after refusals, failures).
inline void ExpectARealRunPublishes(const LocalConsortium& c) {
  CommandResult start = RunPplda({"run", "start", "--config", c.coordinator_config().string(),
                                  "--topics", "3", "--iterations", "1", "--watch"},
                                 std::chrono::seconds(300));
  EXPECT_EQ(start.exit_code, 0) << start.Describe();
  EXPECT_NE(start.output.find(": published"), std::string::npos) << start.Describe();
}

struct CaptureRecord {
  char tag;
  std::string_view bytes;
};

// The records of a capture file (net/capture_file.h): tag, 4-byte
// little-endian length, bytes. Views into `text`.
inline std::vector<CaptureRecord> ParseCapture(const std::string& text) {
  std::vector<CaptureRecord> out;
  size_t at = 0;
  while (at + 5 <= text.size()) {
    uint32_t size = 0;
    for (int i = 0; i < 4; ++i)
      size |= static_cast<uint32_t>(static_cast<uint8_t>(text[at + 1 + i])) << (8 * i);
    if (at + 5 + size > text.size()) break;
    out.push_back(CaptureRecord{text[at], std::string_view(text).substr(at + 5, size)});
    at += 5 + size;
  }
  EXPECT_EQ(at, text.size()) << "a truncated record";
  return out;
}

// Mode bits of a file (e.g. 0600).
inline unsigned FileMode(const std::filesystem::path& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & 07777;
}

// A test with its own temporary folder and consortium; TearDown prints the
// daemons' logs when the test failed and stops every daemon (also after a
// failed assertion).
class ConsortiumTest : public ::testing::Test {
 protected:
  absl::Status SetUpConsortium(const ConsortiumOptions& options = {}) {
    if (temp_.path().empty()) return absl::InternalError("mkdtemp failed");
    return consortium_.Setup(temp_.path(), options);
  }
  void TearDown() override {
    if (HasFailure()) std::cerr << consortium_.Logs();
    consortium_.StopAll();
  }
  const std::filesystem::path& dir() const { return temp_.path(); }

  TempDir temp_;
  LocalConsortium consortium_;
};

}  // namespace pplda::e2e::testing

#endif  // PPLDA_TESTS_E2E_E2E_TEST_UTIL_H_

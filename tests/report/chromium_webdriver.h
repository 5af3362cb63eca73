// Headless Chromium for tests, driven through chromedriver's WebDriver HTTP
// API with cpp-httplib: start chromedriver on a free local port, open a
// session with browser and performance logging (goog:loggingPrefs), load a
// file:// page, run scripts, read the console and the network log. Debian's
// chromium and chromium-driver packages (deploy/install-deps.sh).
//
// Start() returns null and sets *why when Chromium cannot start (no
// binaries, chromedriver not answering, no session): the caller skips with
// that reason. The destructor deletes the session and ends the chromedriver
// process it started (by its pid). Not thread-safe; one per test.
#ifndef PPLDA_TESTS_REPORT_CHROMIUM_WEBDRIVER_H_
#define PPLDA_TESTS_REPORT_CHROMIUM_WEBDRIVER_H_

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "httplib.h"
#include "nlohmann/json.hpp"

extern char** environ;

namespace pplda::report::testing {

// The binaries: PPLDA_CHROMIUM and PPLDA_CHROMEDRIVER when set (to try
// another build, or to see the skip), else Debian's.
inline std::string ChromiumBinary() {
  const char* env = std::getenv("PPLDA_CHROMIUM");
  return env != nullptr && *env != '\0' ? env : "/usr/bin/chromium";
}
inline std::string ChromedriverBinary() {
  const char* env = std::getenv("PPLDA_CHROMEDRIVER");
  return env != nullptr && *env != '\0' ? env : "/usr/bin/chromedriver";
}

class ChromiumWebDriver {
 public:
  struct LogEntry {
    std::string level;  // "SEVERE", "WARNING", "INFO", ...
    std::string message;
  };

  static std::unique_ptr<ChromiumWebDriver> Start(std::string* why) {
    const std::string chromium = ChromiumBinary(), chromedriver = ChromedriverBinary();
    for (const std::string& binary : {chromium, chromedriver}) {
      if (access(binary.c_str(), X_OK) != 0) {
        *why = binary + " not found (apt-get install chromium chromium-driver)";
        return nullptr;
      }
    }
    const int port = FreePort();
    if (port <= 0) {
      *why = "no free local port for chromedriver";
      return nullptr;
    }
    std::unique_ptr<ChromiumWebDriver> d(new ChromiumWebDriver(port));
    const std::string port_flag = "--port=" + std::to_string(port);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::vector<char*> argv = {const_cast<char*>(chromedriver.c_str()),
                               const_cast<char*>(port_flag.c_str()), nullptr};
    const int spawned =
        posix_spawn(&d->pid_, chromedriver.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
      d->pid_ = 0;
      *why = "cannot start chromedriver";
      return nullptr;
    }
    bool ready = false;
    for (int i = 0; i < 100 && !ready; ++i) {
      auto r = d->http_.Get("/status");
      ready = r && r->status == 200 &&
              nlohmann::json::parse(r->body, nullptr, false)
                  .value("value", nlohmann::json())
                  .value("ready", false);
      if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (!ready) {
      *why = "chromedriver did not become ready on port " + std::to_string(port);
      return nullptr;
    }
    d->profile_ =
        std::filesystem::temp_directory_path() /
        ("pplda_chromium_profile_" + std::to_string(getpid()) + "_" + std::to_string(port));
    const nlohmann::json caps = {
        {"capabilities",
         {{"alwaysMatch",
           {{"browserName", "chrome"},
            {"goog:chromeOptions",
             {{"binary", chromium},
              {"args",
               {"--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1200,1600", "--user-data-dir=" + d->profile_.string()}}}},
            {"goog:loggingPrefs", {{"browser", "ALL"}, {"performance", "ALL"}}}}}}}};
    const nlohmann::json session = d->Post("/session", caps);
    const nlohmann::json value = session.value("value", nlohmann::json());
    if (!value.is_object() || !value.contains("sessionId")) {
      *why = "chromedriver could not start Chromium: " + session.dump().substr(0, 400);
      return nullptr;
    }
    d->session_ = value["sessionId"].get<std::string>();
    return d;
  }

  ~ChromiumWebDriver() {
    if (!session_.empty()) http_.Delete("/session/" + session_);
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
    if (!profile_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(profile_, ec);
    }
  }

  // Requests that the page at `page_url` made other than for itself, and
  // requests to the network (http, https, ws, wss) from any page, since the
  // last call to Requests(). *page_seen: the log holds the page's own load
  // (so an empty answer is not an empty log).
  std::vector<std::string> FetchesBesides(const std::string& page_url, bool* page_seen) {
    std::vector<std::string> fetches;
    *page_seen = false;
    for (const Request& r : Requests()) {
      *page_seen |= r.url == page_url;
      const bool network = r.url.rfind("http:", 0) == 0 || r.url.rfind("https:", 0) == 0 ||
                           r.url.rfind("ws:", 0) == 0 || r.url.rfind("wss:", 0) == 0;
      if ((r.document_url == page_url && r.url != page_url) || network) fetches.push_back(r.url);
    }
    return fetches;
  }

  // Opens about:blank and empties both logs, then loads `url`: the logs then
  // hold nothing of Chromium's start-up pages.
  bool NavigateFresh(const std::string& url, std::string* error) {
    if (!Navigate("about:blank", error)) return false;
    BrowserLog();
    Requests();
    return Navigate(url, error);
  }

  // Loads `url` and waits for the load event (WebDriver's default page load
  // strategy). False with the error in *error on failure.
  bool Navigate(const std::string& url, std::string* error) {
    const nlohmann::json r = Post(SessionPath("/url"), {{"url", url}});
    const nlohmann::json value = r.value("value", nlohmann::json());
    if (value.is_object() && value.contains("error")) {
      *error = value.dump();
      return false;
    }
    return true;
  }

  // The value of `script` (a function body; return what you need) run in
  // the page.
  nlohmann::json Execute(const std::string& script) {
    return Post(SessionPath("/execute/sync"),
                {{"script", script}, {"args", nlohmann::json::array()}})
        .value("value", nlohmann::json());
  }

  // Console messages (and failed loads) since the last call.
  std::vector<LogEntry> BrowserLog() {
    std::vector<LogEntry> out;
    for (const nlohmann::json& e : Log("browser")) {
      out.push_back({e.value("level", ""), e.value("message", "")});
    }
    return out;
  }

  struct Request {
    std::string url;
    std::string document_url;  // the document that made the request
  };
  // Every request since the last call (DevTools Network.requestWillBeSent
  // events of the performance log), from any page: Chromium's own pages
  // (the new-tab page at start) load chrome:// resources too.
  std::vector<Request> Requests() {
    std::vector<Request> out;
    for (const nlohmann::json& e : Log("performance")) {
      const nlohmann::json m = nlohmann::json::parse(e.value("message", ""), nullptr, false)
                                   .value("message", nlohmann::json());
      if (!m.is_object() || m.value("method", "") != "Network.requestWillBeSent") continue;
      const nlohmann::json& params = m["params"];
      out.push_back({params["request"].value("url", ""), params.value("documentURL", "")});
    }
    return out;
  }

 private:
  explicit ChromiumWebDriver(int port) : http_("127.0.0.1", port) {
    http_.set_connection_timeout(5);
    http_.set_read_timeout(120);
  }

  static int FreePort() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    int port = -1;
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      port = ntohs(addr.sin_port);
    }
    close(fd);
    return port;
  }

  std::string SessionPath(const std::string& tail) const { return "/session/" + session_ + tail; }

  nlohmann::json Post(const std::string& path, const nlohmann::json& body) {
    auto r = http_.Post(path, body.dump(), "application/json");
    if (!r) return {{"value", {{"error", "no answer from chromedriver"}}}};
    return nlohmann::json::parse(r->body, nullptr, false);
  }

  nlohmann::json Log(const std::string& type) {
    const nlohmann::json v =
        Post(SessionPath("/se/log"), {{"type", type}}).value("value", nlohmann::json());
    return v.is_array() ? v : nlohmann::json::array();
  }

  httplib::Client http_;
  pid_t pid_ = 0;
  std::string session_;
  std::filesystem::path profile_;
};

}  // namespace pplda::report::testing

#endif  // PPLDA_TESTS_REPORT_CHROMIUM_WEBDRIVER_H_

#include "coordinator/concurrent_party_calls.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace pplda::coordinator {

std::vector<absl::Status> CallEveryParty(
    int num_parties, const std::function<absl::Status(int)>& call,
    std::chrono::milliseconds grace,
    const std::function<void(const absl::Status& first_failure)>& stop_the_rest,
    const std::function<void(int)>& done) {
  std::vector<absl::Status> results(num_parties);
  std::mutex mu;
  std::condition_variable finished;
  int outstanding = num_parties;
  int first_failed = -1;
  std::vector<std::thread> threads;
  threads.reserve(num_parties);
  for (int p = 0; p < num_parties; ++p) {
    threads.emplace_back([&, p] {
      absl::Status status = call(p);
      if (done) done(p);
      std::lock_guard<std::mutex> lock(mu);
      results[p] = std::move(status);
      if (!results[p].ok() && first_failed < 0) first_failed = p;
      --outstanding;
      finished.notify_all();
    });
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    finished.wait(lock, [&] { return outstanding == 0 || first_failed >= 0; });
    if (outstanding > 0 &&
        !finished.wait_for(lock, grace, [&] { return outstanding == 0; })) {
      const absl::Status first = results[first_failed];
      lock.unlock();
      stop_the_rest(first);
    }
  }
  for (std::thread& t : threads) t.join();
  return results;
}

}  // namespace pplda::coordinator

#include "crypto/mpc/simulated_network.h"

#include <algorithm>
#include <thread>

#include "absl/strings/str_cat.h"

namespace pplda::crypto {

class SimulatedNetwork::Endpoint final : public PartyTransport {
 public:
  Endpoint(SimulatedNetwork* network, int party) : network_(network), party_(party) {}
  int party_id() const override { return party_; }
  int num_parties() const override { return network_->num_parties(); }
  absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) override {
    return network_->Deliver(party_, to, round, std::move(payload));
  }
  absl::StatusOr<std::vector<uint8_t>> Receive(int from, uint64_t round) override {
    return network_->Take(party_, from, round);
  }

 private:
  SimulatedNetwork* network_;
  int party_;
};

absl::StatusOr<std::unique_ptr<SimulatedNetwork>> SimulatedNetwork::Create(
    int num_parties, std::chrono::milliseconds receive_timeout) {
  if (num_parties < 2 || num_parties > 64) {
    return absl::InvalidArgumentError(absl::StrCat(
        "simulated network needs 2 to 64 parties, got ", num_parties));
  }
  return std::unique_ptr<SimulatedNetwork>(
      new SimulatedNetwork(num_parties, receive_timeout));
}

SimulatedNetwork::SimulatedNetwork(int num_parties, std::chrono::milliseconds timeout)
    : receive_timeout_(timeout),
      queues_(num_parties, std::vector<std::deque<Message>>(num_parties)),
      traffic_(num_parties),
      last_send_round_(num_parties, 0) {
  for (int p = 0; p < num_parties; ++p) {
    endpoints_.push_back(std::make_unique<Endpoint>(this, p));
  }
}

SimulatedNetwork::~SimulatedNetwork() = default;

PartyTransport& SimulatedNetwork::transport(int party) { return *endpoints_.at(party); }

absl::Status SimulatedNetwork::Deliver(int from, int to, uint64_t round,
                                       std::vector<uint8_t> payload) {
  if (to < 0 || to >= num_parties() || to == from) {
    return absl::InvalidArgumentError(absl::StrCat(
        "party ", from, " cannot send to party ", to, " (peers are 0..",
        num_parties() - 1, ", excluding itself)"));
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (!shutdown_.ok()) {
    return absl::AbortedError(absl::StrCat("network shut down: ", shutdown_.message()));
  }
  const uint64_t bytes = payload.size();
  PartyTraffic& sender = traffic_[from];
  sender.messages_sent += 1;
  sender.bytes_sent += bytes;
  if (last_send_round_[from] != round) {
    sender.rounds_sending += 1;
    last_send_round_[from] = round;
  }
  traffic_[to].messages_received += 1;
  traffic_[to].bytes_received += bytes;
  RoundTraffic& r = per_round_[round];
  r.round = round;
  r.messages += 1;
  r.bytes += bytes;
  queues_[to][from].push_back(Message{round, std::move(payload)});
  arrived_.notify_all();
  return absl::OkStatus();
}

absl::StatusOr<std::vector<uint8_t>> SimulatedNetwork::Take(int to, int from,
                                                            uint64_t round) {
  if (from < 0 || from >= num_parties() || from == to) {
    return absl::InvalidArgumentError(absl::StrCat(
        "party ", to, " cannot receive from party ", from, " (peers are 0..",
        num_parties() - 1, ", excluding itself)"));
  }
  std::unique_lock<std::mutex> lock(mu_);
  std::deque<Message>& queue = queues_[to][from];
  const bool ready = arrived_.wait_for(lock, receive_timeout_, [&] {
    return !queue.empty() || !shutdown_.ok();
  });
  if (!queue.empty()) {
    Message message = std::move(queue.front());
    queue.pop_front();
    if (message.round != round) {
      return absl::FailedPreconditionError(absl::StrCat(
          "party ", to, " expected the message of round ", round, " from party ", from,
          " but received one of round ", message.round,
          " (a message was skipped or sent twice)"));
    }
    return std::move(message.payload);
  }
  if (!shutdown_.ok()) {
    return absl::AbortedError(absl::StrCat("network shut down: ", shutdown_.message()));
  }
  (void)ready;
  return absl::DeadlineExceededError(absl::StrCat(
      "party ", to, " waited ", receive_timeout_.count(), " ms for party ", from,
      "'s message of round ", round));
}

NetworkStats SimulatedNetwork::Stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  NetworkStats stats;
  stats.rounds = per_round_.size();
  stats.parties = traffic_;
  for (const auto& [round, r] : per_round_) stats.per_round.push_back(r);
  return stats;
}

void SimulatedNetwork::ResetStats() {
  std::lock_guard<std::mutex> lock(mu_);
  traffic_.assign(traffic_.size(), PartyTraffic{});
  per_round_.clear();
}

void SimulatedNetwork::Shutdown(const absl::Status& cause) {
  std::lock_guard<std::mutex> lock(mu_);
  if (shutdown_.ok()) {
    shutdown_ = cause.ok() ? absl::CancelledError("shut down") : cause;
  }
  arrived_.notify_all();
}

absl::Status SimulatedNetwork::RunParties(const std::function<absl::Status(int party)>& fn) {
  std::mutex first_mu;
  absl::Status first_error;
  std::vector<std::thread> threads;
  threads.reserve(num_parties());
  for (int party = 0; party < num_parties(); ++party) {
    threads.emplace_back([&, party] {
      absl::Status status = fn(party);
      if (status.ok()) return;
      {
        std::lock_guard<std::mutex> lock(first_mu);
        if (first_error.ok()) {
          first_error = absl::Status(
              status.code(), absl::StrCat("party ", party, ": ", status.message()));
        }
      }
      Shutdown(absl::Status(status.code(),
                            absl::StrCat("party ", party, " failed: ", status.message())));
    });
  }
  for (std::thread& t : threads) t.join();
  return first_error;
}

}  // namespace pplda::crypto

// MpcTestbed: test and benchmark double for the MPC engine. n parties, each
// with its own MpcEngine and deterministic SeededRng, over one
// SimulatedNetwork in this process. A test dealer (seeded) shares plaintext
// inputs directly and reconstructs outputs, so tests can check every
// protocol exactly against plaintext.
//
// RecordingTransport wraps a party's transport and keeps what it receives,
// so that tests can examine a coalition's view.
// For tests and benchmarks ONLY: the dealer sees every input, and the
// seeded random sources are predictable. Daemon mains never include this.
// Thread-safety: Run() runs the parties' functions concurrently (one thread
// each); the other methods are for the test's main thread between runs.
#ifndef PPLDA_CRYPTO_MPC_MPC_TESTING_H_
#define PPLDA_CRYPTO_MPC_MPC_TESTING_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/mpc_shares.h"
#include "crypto/mpc/simulated_network.h"
#include "crypto/random/secure_rng_testing.h"

namespace pplda::crypto {

// A PartyTransport that forwards everything to another: the base of test
// transports that watch or alter one direction (override Send or Receive).
class ForwardingTransport : public PartyTransport {
 public:
  explicit ForwardingTransport(PartyTransport& inner) : inner_(inner) {}
  int party_id() const override { return inner_.party_id(); }
  int num_parties() const override { return inner_.num_parties(); }
  absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) override {
    return inner_.Send(to, round, std::move(payload));
  }
  absl::StatusOr<std::vector<uint8_t>> Receive(int from, uint64_t round) override {
    return inner_.Receive(from, round);
  }

 protected:
  PartyTransport& inner_;
};

// A PartyTransport that forwards to another and records every message it
// receives: what a (possibly colluding) party sees of a protocol.
class RecordingTransport final : public ForwardingTransport {
 public:
  struct Received {
    uint64_t round;
    int from;
    std::vector<uint8_t> payload;
  };

  explicit RecordingTransport(PartyTransport& inner) : ForwardingTransport(inner) {}
  absl::StatusOr<std::vector<uint8_t>> Receive(int from, uint64_t round) override {
    absl::StatusOr<std::vector<uint8_t>> got = inner_.Receive(from, round);
    if (got.ok() && recording_) received_.push_back(Received{round, from, *got});
    return got;
  }

  void set_recording(bool on) { recording_ = on; }
  const std::vector<Received>& received() const { return received_; }
  void Clear() { received_.clear(); }

 private:
  bool recording_ = false;
  std::vector<Received> received_;
};

class MpcTestbed {
 public:
  static absl::StatusOr<std::unique_ptr<MpcTestbed>> Create(
      int num_parties, int threshold, uint64_t seed,
      int sigma = MpcConfig::kDefaultSigma,
      MpcConfig::SharedRandomness randomness = MpcConfig::SharedRandomness::kAuto) {
    ASSIGN_OR_RETURN(MpcConfig config,
                     MpcConfig::Create(num_parties, threshold, sigma, randomness));
    ASSIGN_OR_RETURN(std::unique_ptr<SimulatedNetwork> network,
                     SimulatedNetwork::Create(num_parties));
    auto bed = std::unique_ptr<MpcTestbed>(new MpcTestbed(config, std::move(network), seed));
    for (int p = 0; p < num_parties; ++p) {
      bed->rngs_.push_back(std::make_unique<SeededRng>(seed * 1000003 + p + 1));
      bed->recorders_.push_back(
          std::make_unique<RecordingTransport>(bed->network_->transport(p)));
      ASSIGN_OR_RETURN(std::unique_ptr<MpcEngine> engine,
                       MpcEngine::Create(config, *bed->recorders_[p], *bed->rngs_[p]));
      bed->engines_.push_back(std::move(engine));
    }
    return bed;
  }

  const MpcConfig& config() const { return config_; }
  int num_parties() const { return config_.num_parties(); }
  SimulatedNetwork& network() { return *network_; }
  MpcEngine& engine(int party) { return *engines_[party]; }
  // What `party` receives (recording is off until enabled).
  RecordingTransport& recorder(int party) { return *recorders_[party]; }

  // Runs fn(engine of p) for every party p concurrently.
  absl::Status Run(const std::function<absl::Status(MpcEngine& engine)>& fn) {
    return network_->RunParties([&](int p) { return fn(*engines_[p]); });
  }

  // Test-dealer sharing of `values`: element [p] is party p's Shares.
  std::vector<Shares> Share(absl::Span<const FieldElement> values) {
    std::vector<FieldVector> by_party =
        config_.shamir().Share(values, config_.threshold(), dealer_rng_);
    std::vector<Shares> out;
    for (FieldVector& v : by_party) out.emplace_back(std::move(v));
    return out;
  }
  std::vector<Shares> ShareIntegers(absl::Span<const int64_t> values) {
    FieldVector elements;
    for (int64_t v : values) elements.push_back(FieldElement::FromInt64(v));
    return Share(elements);
  }

  // Reconstructs from every party's shares, checking consistency.
  absl::StatusOr<FieldVector> Reveal(const std::vector<Shares>& by_party) {
    std::vector<FieldVector> all;
    bool all_empty = true;
    for (const Shares& s : by_party) {
      all.push_back(s.values());
      all_empty = all_empty && s.empty();
    }
    if (all_empty) return FieldVector();
    return config_.shamir().Reconstruct(all, config_.threshold());
  }

 private:
  MpcTestbed(const MpcConfig& config, std::unique_ptr<SimulatedNetwork> network,
             uint64_t seed)
      : config_(config), network_(std::move(network)), dealer_rng_(seed ^ 0x5eedd5a1) {}

  MpcConfig config_;
  std::unique_ptr<SimulatedNetwork> network_;
  SeededRng dealer_rng_;
  std::vector<std::unique_ptr<SeededRng>> rngs_;
  std::vector<std::unique_ptr<RecordingTransport>> recorders_;
  std::vector<std::unique_ptr<MpcEngine>> engines_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_MPC_TESTING_H_

// SentPayloadCapture: INSECURE, TESTS ONLY. A RunTransport that forwards
// everything to the run's real transport and appends every plaintext
// payload this party sends (before any sealing) to a CaptureFile, tag 'S'.
// It exists so that an end-to-end test can show that the coordinator's
// relay never carries any of these bytes; the file holds this party's
// shares in the clear. Installed only when party.toml sets
// insecure_capture_sent_payloads, which builds without
// PPLDA_INSECURE_TEST_RANDOMNESS refuse.
// Thread-safety: as the wrapped transport's.
#ifndef PPLDA_PARTY_DAEMON_SENT_PAYLOAD_CAPTURE_H_
#define PPLDA_PARTY_DAEMON_SENT_PAYLOAD_CAPTURE_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "net/capture_file.h"
#include "net/run_transport.h"

namespace pplda::party {

class SentPayloadCapture final : public net::RunTransport {
 public:
  // `capture` must outlive this transport.
  SentPayloadCapture(std::unique_ptr<net::RunTransport> inner, net::CaptureFile& capture)
      : inner_(std::move(inner)), capture_(capture) {}

  int party_id() const override { return inner_->party_id(); }
  int num_parties() const override { return inner_->num_parties(); }
  absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) override {
    capture_.Append(
        'S', std::string_view(reinterpret_cast<const char*>(payload.data()), payload.size()));
    return inner_->Send(to, round, std::move(payload));
  }
  absl::StatusOr<std::vector<uint8_t>> Receive(int from, uint64_t round) override {
    return inner_->Receive(from, round);
  }
  const std::string& run_id() const override { return inner_->run_id(); }
  void set_iteration(int iteration) override { inner_->set_iteration(iteration); }
  using net::RunTransport::Close;
  absl::Status Close(std::chrono::milliseconds timeout) override { return inner_->Close(timeout); }
  void Shutdown(const absl::Status& cause) override { inner_->Shutdown(cause); }
  crypto::NetworkStats Stats() const override { return inner_->Stats(); }
  void ResetStats() override { inner_->ResetStats(); }

 private:
  std::unique_ptr<net::RunTransport> inner_;
  net::CaptureFile& capture_;
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_DAEMON_SENT_PAYLOAD_CAPTURE_H_

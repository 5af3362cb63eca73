// End-to-end, a consortium of any size with the real binaries on loopback:
// a committee of three compute parties without documents (committee-0..2,
// the dealt 1024-bit key's holders) serves ten data holders (holder-0..9,
// role data: documents and the public key only), three of them in relay
// mode (so every run's frames go sealed through the coordinator's relay).
// Each data holder holds two State of the Union addresses of data/sotu.
//  - With the same key (simulate --key-dir), initial-topics seed and
//    INSECURE deterministic sources, the daemons publish exactly the model,
//    and each data holder writes exactly the mixtures, that `pplda simulate
//    --committee 3` gives for the same ten folders.
//  - Everything a data holder receives in a run (read off the relay's
//    capture) is the plan digest, each member's attestation and its own
//    tokens' topics, the public token totals, the draw matrix and a bare
//    Publish.
//  - A data holder killed (SIGKILL) mid-run is waited for, named by `pplda
//    run status`, comes back and the run publishes that same model.
//  - DP training on a key the committee generates with no dealer: the
//    members add the noise, the daemons publish what simulate does with
//    the same flags, a holder's ledger is debited.
//  - A data holder is refused what only the coordinator or a key holder
//    may do: its certificate's PartyControl calls to a committee member
//    (asking it to decrypt) are PermissionDenied, and a data holder's
//    daemon configured with a key share refuses to start.
// Skipped in builds without PPLDA_INSECURE_TEST_RANDOMNESS.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "base/status_macros.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "net/protocol_version.h"
#include "net/tls_identity.h"
#include "nlohmann/json.hpp"
#include "party/party_randomness.h"
#include "proto/party_control_service.grpc.pb.h"
#include "proto/relay_service.pb.h"
#include "tests/e2e/e2e_test_util.h"

namespace pplda::e2e::testing {
namespace {

using ::testing::HasSubstr;

constexpr int kCommittee = 3;
constexpr int kHolders = 10;
constexpr int kRelayHolders = 3;  // the last three
constexpr int kTopics = 3;
constexpr int kIterations = 3;
constexpr uint64_t kTopicsSeed = 7;
constexpr uint64_t kRngSeed = 20261202;

constexpr char kCoordinator[] = R"([coordinator]
name = "coordinator"
consortium = "certs/consortium.toml"
vocabulary = "vocabulary.txt"
public_key = "keys/public.key"
state_dir = "state/coordinator"
listen = "$listen"
party_restart_wait_seconds = 120
relay_capture = "capture/relay.capture"
[tls]
ca = "certs/ca.crt"
cert = "certs/coordinator.crt"
key = "certs/coordinator.key"
)";

constexpr char kParty[] = R"([party]
name = "$name"
consortium = "certs/consortium.toml"
vocabulary = "vocabulary.txt"
state_dir = "state/$name"
box_key = "certs/$name.box"
initial_topics_seed = $topics_seed
insecure_deterministic_rng_seed = $rng_seed
$role
[input]
split = "sentences"
window_words = 400
max_tokens = $max_tokens
[tls]
ca = "certs/ca.crt"
cert = "certs/$name.crt"
key = "certs/$name.key"
)";

// Owner i: committee-i for i < 3, then holder-(i - 3).
std::string OwnerName(int i) {
  return i < kCommittee ? absl::StrCat("committee-", i) : absl::StrCat("holder-", i - kCommittee);
}
bool InRelayMode(int i) { return i >= kCommittee + kHolders - kRelayHolders; }

class DataHoldersTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (HasFailure()) std::cerr << Logs();
    for (std::unique_ptr<Daemon>& d : owners_) {
      if (d) d->Stop();
    }
    if (coordinator_) coordinator_->Stop();
  }

  std::filesystem::path dir() const { return temp_.path(); }
  std::filesystem::path Config(const std::string& name) const { return dir() / (name + ".toml"); }
  std::filesystem::path HolderDocuments(int h) const {
    return dir() / "docs" / absl::StrCat("holder-", h);
  }
  std::filesystem::path State(int i) const { return dir() / "state" / OwnerName(i); }

  // The vocabulary, the ten holders' folders, certificates, the dealt key
  // and every config.
  absl::Status Prepare(bool deal_key = true) {
    std::filesystem::create_directories(dir() / "logs");
    std::filesystem::create_directories(dir() / "capture");
    const std::filesystem::path sotu = kRepoRoot / "data" / "sotu";
    CommandResult r =
        RunPplda({"--quiet", "prepare", "--input", sotu.string(), "--split", "sentences",
                  "--min-df", "50", "--out", (dir() / "vocab").string()});
    if (r.exit_code != 0) return absl::InternalError("pplda prepare: " + r.Describe());
    std::filesystem::copy_file(dir() / "vocab" / "vocabulary.txt", dir() / "vocabulary.txt");
    std::vector<std::filesystem::path> speeches;
    for (const auto& era : std::filesystem::directory_iterator(sotu)) {
      if (!era.is_directory()) continue;
      for (const auto& f : std::filesystem::directory_iterator(era.path())) {
        if (f.path().extension() == ".txt") speeches.push_back(f.path());
      }
    }
    std::sort(speeches.begin(), speeches.end());
    if (speeches.size() < 2 * kHolders) return absl::InternalError("too few speeches in data/sotu");
    for (int h = 0; h < kHolders; ++h) {
      std::filesystem::create_directories(HolderDocuments(h));
      for (size_t s = h; s < 2 * kHolders; s += kHolders) {
        std::filesystem::copy_file(speeches[s], HolderDocuments(h) / speeches[s].filename());
      }
    }
    absl::StatusOr<std::vector<int>> ports = FreePorts(1 + kCommittee + kHolders);
    if (!ports.ok()) return ports.status();
    ports_ = *ports;
    std::vector<std::string> spec = {"--name", "holders", "--coordinator",
                                     "coordinator=" + Address(-1)};
    for (int i = 0; i < kCommittee + kHolders; ++i) {
      spec.push_back(i < kCommittee ? "--compute" : "--data");
      spec.push_back(absl::StrCat(OwnerName(i), "=", InRelayMode(i) ? "relay" : Address(i)));
    }
    RETURN_IF_ERROR(MakeCerts(dir() / "certs", absl::StrJoin(spec, " ")));
    // The committee's shares, from the consortium file's roles.
    if (deal_key) {
      r = RunPplda({"keys", "deal", "--consortium", (dir() / "certs" / "consortium.toml").string(),
                    "--bits", "1024", "--out", (dir() / "keys").string()});
      if (r.exit_code != 0) return absl::InternalError("pplda keys deal: " + r.Describe());
    }
    RETURN_IF_ERROR(WriteText(Config("coordinator"),
                              absl::StrReplaceAll(kCoordinator, {{"$listen", Address(-1)}})));
    for (int i = 0; i < kCommittee + kHolders; ++i) {
      std::string role = i < kCommittee
                             ? absl::StrCat("key_share = \"keys/", OwnerName(i), ".key\"")
                             : absl::StrCat("public_key = \"keys/public.key\"\ndocuments = \"",
                                            HolderDocuments(i - kCommittee).string(), "\"");
      if (!InRelayMode(i)) absl::StrAppend(&role, "\nlisten = \"", Address(i), "\"");
      RETURN_IF_ERROR(
          WriteText(Config(OwnerName(i)),
                    absl::StrReplaceAll(kParty, {{"$name", OwnerName(i)},
                                                 {"$topics_seed", absl::StrCat(kTopicsSeed)},
                                                 {"$max_tokens", absl::StrCat(max_tokens_)},
                                                 {"$rng_seed", absl::StrCat(kRngSeed)},
                                                 {"$role", role}})));
    }
    owners_.resize(kCommittee + kHolders);
    return absl::OkStatus();
  }

  // `pplda keys generate` at every committee member at once (no dealer;
  // the data holders take no part), each member's public key written
  // beside its share; keys/public.key is member 0's.
  absl::Status GenerateCommitteeKey() {
    std::vector<CommandResult> results(kCommittee);
    std::vector<std::thread> threads;
    for (int j = 0; j < kCommittee; ++j) {
      threads.emplace_back([&, j] {
        results[j] = RunPplda({"keys", "generate", "--config", Config(OwnerName(j)).string(),
                               "--bits", "1024", "--wait-seconds", "120", "--public-key",
                               (dir() / "keys" / (OwnerName(j) + "-public.key")).string()},
                              std::chrono::seconds(300));
      });
    }
    for (std::thread& t : threads) t.join();
    for (int j = 0; j < kCommittee; ++j) {
      if (results[j].exit_code != 0) {
        return absl::InternalError("pplda keys generate: " + results[j].Describe());
      }
      if (ReadText(dir() / "keys" / (OwnerName(j) + "-public.key")) !=
          ReadText(dir() / "keys" / "committee-0-public.key")) {
        return absl::InternalError("the committee generated different public keys");
      }
    }
    std::filesystem::copy_file(dir() / "keys" / "committee-0-public.key",
                               dir() / "keys" / "public.key");
    return absl::OkStatus();
  }

  absl::Status StartCoordinator() {
    return Start(coordinator_, "coordinator", kCoordinatorBinary, "listening on");
  }
  absl::Status StartOwner(int i) {
    return Start(owners_[i], OwnerName(i), kPartyBinary,
                 InRelayMode(i) ? "relay connected" : "listening on");
  }
  absl::Status StartAll() {
    RETURN_IF_ERROR(StartCoordinator());
    for (int i = 0; i < kCommittee + kHolders; ++i) RETURN_IF_ERROR(StartOwner(i));
    return absl::OkStatus();
  }

  // `pplda run start` (no --watch) with `extra` flags: the run id.
  absl::StatusOr<std::string> StartRun(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"run",          "start",
                                     "--config",     Config("coordinator").string(),
                                     "--topics",     std::to_string(kTopics),
                                     "--alpha",      "0.1",
                                     "--beta",       "0.01",
                                     "--iterations", std::to_string(kIterations)};
    args.insert(args.end(), extra.begin(), extra.end());
    CommandResult r = RunPplda(args, std::chrono::seconds(60));
    if (r.exit_code != 0) return absl::InternalError("pplda run start: " + r.Describe());
    return r.output.substr(0, r.output.find('\n'));
  }
  CommandResult Status(const std::string& run_id) {
    return RunPplda({"run", "status", "--config", Config("coordinator").string(), "--run", run_id},
                    std::chrono::seconds(60));
  }
  // Polls the run's status until its output holds `text`; the last output.
  std::string WaitForStatus(const std::string& run_id, const std::string& text,
                            std::chrono::seconds timeout) {
    const Clock::time_point deadline = Clock::now() + timeout;
    std::string out;
    while (Clock::now() < deadline) {
      out = Status(run_id).output;
      if (out.find(text) != std::string::npos || out.find(": failed") != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    return out;
  }
  // The published model (`pplda run result`).
  absl::StatusOr<nlohmann::json> Result(const std::string& run_id) {
    const std::filesystem::path out = dir() / ("model-" + run_id + ".json");
    CommandResult r = RunPplda({"run", "result", "--config", Config("coordinator").string(),
                                "--run", run_id, "--out", out.string()});
    if (r.exit_code != 0) return absl::InternalError("pplda run result: " + r.Describe());
    nlohmann::json model = nlohmann::json::parse(ReadText(out), nullptr, false);
    if (model.is_discarded()) return absl::InternalError("no JSON model in " + out.string());
    return model;
  }

  // `pplda simulate --committee 3` over the same folders, key and seeds,
  // with `extra` flags; mixtures written unless `dp`; the consortium's
  // vocabulary file given as `vocabulary_flag` (--dp-vocab-candidates for
  // a DP vocabulary).
  absl::StatusOr<nlohmann::json> Simulate(const std::vector<std::string>& extra = {},
                                          bool dp = false,
                                          const std::string& vocabulary_flag = "--vocabulary") {
    const std::filesystem::path out = dir() / "simulate";
    std::filesystem::create_directories(out);
    std::vector<std::string> args = {"--quiet", "simulate", "--committee", "3"};
    for (int h = 0; h < kHolders; ++h) {
      args.insert(args.end(),
                  {"--party", absl::StrCat("holder-", h, "=", HolderDocuments(h).string())});
    }
    args.insert(args.end(), {vocabulary_flag,
                             (dir() / "vocabulary.txt").string(),
                             "--split",
                             "sentences",
                             "--window-words",
                             "400",
                             "--max-tokens",
                             std::to_string(max_tokens_),
                             "--topics",
                             std::to_string(kTopics),
                             "--alpha",
                             "0.1",
                             "--beta",
                             "0.01",
                             "--iterations",
                             std::to_string(kIterations),
                             "--seed",
                             std::to_string(kTopicsSeed),
                             "--threads",
                             "1",
                             "--key-dir",
                             (dir() / "keys").string(),
                             "--insecure-deterministic-rng-seed",
                             std::to_string(kRngSeed),
                             "--out",
                             (out / "model.json").string()});
    if (!dp) args.insert(args.end(), {"--mixtures-dir", (out / "mixtures").string()});
    args.insert(args.end(), extra.begin(), extra.end());
    // simulate names the committee's members committee-0..2: their shares
    // are the dealt ones.
    CommandResult r = RunPplda(args, std::chrono::seconds(600));
    if (r.exit_code != 0) return absl::InternalError("pplda simulate: " + r.Describe());
    nlohmann::json model = nlohmann::json::parse(ReadText(out / "model.json"), nullptr, false);
    if (model.is_discarded()) return absl::InternalError("simulate wrote no JSON model");
    return model;
  }

  // What each data holder received in run `run_id` (no restart), read off
  // the coordinator's relay capture: every frame of the run goes through
  // the relay (three holders are in relay mode), and so does every control
  // call to those three. From each committee member a holder gets the plan
  // digest, then per iteration that member's attestation of the draw matrix
  // (32 bytes each) and its shares of the holder's own tokens' topics (K - 1
  // replicated bits per token, in 64-bit words), and nothing else; the
  // control calls carry the public parameters and token totals, the draw
  // matrix (ciphertexts, no other owner's update), a bare Publish and the
  // notice that the run is over.
  void ExpectHolderViews(const std::string& run_id, const nlohmann::json& model) {
    const std::string text = ReadText(dir() / "capture" / "relay.capture");
    std::map<std::pair<std::string, std::string>, std::vector<size_t>> boxes;
    std::map<std::string, int> calls;
    for (const CaptureRecord& r : ParseCapture(text)) {
      if (r.tag != 'D') continue;
      pplda::v1::RelayDown down;
      ASSERT_TRUE(down.ParseFromArray(r.bytes.data(), static_cast<int>(r.bytes.size())));
      if (down.has_frame() && down.frame().run_id() == run_id &&
          down.frame().receiver().rfind("holder-", 0) == 0) {
        EXPECT_EQ(down.frame().sender().rfind("committee-", 0), 0u)
            << down.frame().receiver() << " received a frame from " << down.frame().sender();
        boxes[{down.frame().sender(), down.frame().receiver()}].push_back(
            down.frame().box().size());
      }
      if (!down.has_call()) continue;
      const pplda::v1::RelayedCall& call = down.call();
      if (call.has_join() && call.join().header().run_id() == run_id) ++calls["join"];
      if (call.has_prepare() && call.prepare().header().run_id() == run_id) ++calls["prepare"];
      if (call.has_iterate() && call.iterate().header().run_id() == run_id) {
        ++calls["iterate"];
        EXPECT_EQ(call.iterate().previous_size(), 0) << "a data holder was handed updates";
      }
      if (call.has_publish() && call.publish().header().run_id() == run_id) {
        ++calls["publish"];
        EXPECT_EQ(call.publish().last_size(), 0);
        EXPECT_FALSE(call.publish().decrypt());
      }
      EXPECT_FALSE(call.has_vocabulary() && call.vocabulary().header().run_id() == run_id);
      EXPECT_FALSE(call.has_resume() && call.resume().header().run_id() == run_id);
      if (call.has_abort() && call.abort().header().run_id() == run_id) {
        ++calls["abort"];  // the run is over: its state may go
        EXPECT_TRUE(call.abort().run_published());
      }
    }
    const std::map<std::string, int> expected_calls = {{"abort", kRelayHolders},
                                                       {"iterate", kRelayHolders * kIterations},
                                                       {"join", kRelayHolders},
                                                       {"prepare", kRelayHolders},
                                                       {"publish", kRelayHolders}};
    EXPECT_EQ(calls, expected_calls);
    ASSERT_EQ(boxes.size(), static_cast<size_t>(kCommittee * kHolders));
    for (const auto& [route, sizes] : boxes) {
      const int h = std::stoi(route.second.substr(std::string("holder-").size()));
      const int64_t tokens =
          model["metadata"]["corpus"]["parties"][kCommittee + h]["tokens"].get<int64_t>();
      const size_t reveal = 8 * ((tokens * (kTopics - 1) + 63) / 64);
      std::vector<size_t> payloads = {32};
      for (int it = 0; it < kIterations; ++it) payloads.insert(payloads.end(), {32, reveal});
      ASSERT_EQ(sizes.size(), payloads.size()) << route.first << " -> " << route.second;
      // box = nonce (24) || MAC (16) || SealedContent; the content's fields
      // beside the payload are known but for the iteration and round
      // (0 to 12 bytes) and the payload's tag and length (2 to 3).
      pplda::v1::SealedContent bare;
      bare.mutable_header()->set_protocol_version(net::kProtocolVersion);
      bare.mutable_header()->set_run_id(run_id);
      bare.mutable_header()->set_sender(route.first);
      bare.set_receiver(route.second);
      const size_t base = 40 + bare.ByteSizeLong();
      for (size_t f = 0; f < sizes.size(); ++f) {
        ASSERT_GE(sizes[f], base + payloads[f] + 2) << route.first << " -> " << route.second;
        EXPECT_LE(sizes[f], base + payloads[f] + 15)
            << route.first << " -> " << route.second << ": frame " << f << " of " << sizes[f]
            << " bytes, expected a payload of " << payloads[f];
      }
    }
  }

  std::string Address(int i) const { return absl::StrCat("127.0.0.1:", ports_[i + 1]); }

  std::string Logs() const {
    std::string out;
    for (int i = -1; i < kCommittee + kHolders; ++i) {
      const std::string name = i < 0 ? "coordinator" : OwnerName(i);
      const std::filesystem::path log = dir() / "logs" / (name + ".log");
      if (!std::filesystem::exists(log)) continue;
      std::string text = ReadText(log);
      if (text.size() > 4000) text = "...\n" + text.substr(text.size() - 4000);
      absl::StrAppend(&out, "---- ", name, " log ----\n", text, "\n");
    }
    return out;
  }

  absl::Status Start(std::unique_ptr<Daemon>& slot, const std::string& name,
                     const std::string& binary, const std::string& ready) {
    if (slot) slot->Stop();
    absl::StatusOr<std::unique_ptr<Daemon>> d = Daemon::Start(
        name, {binary, "--config", Config(name).string()}, dir() / "logs" / (name + ".log"));
    if (!d.ok()) return d.status();
    slot = *std::move(d);
    return slot->WaitForLog(ready, std::chrono::seconds(60));
  }

  TempDir temp_;
  // Each document's reading cap over the consortium's vocabulary file.
  int max_tokens_ = 3;
  std::vector<int> ports_;
  std::unique_ptr<Daemon> coordinator_;
  std::vector<std::unique_ptr<Daemon>> owners_;
};

TEST_F(DataHoldersTest, TenHoldersAndACommitteeOfThreePublishSimulatesModelAndSurviveALoss) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON";
  }
  ASSERT_FALSE(temp_.path().empty());
  E2E_ASSERT_OK(Prepare());
  E2E_ASSERT_OK(StartAll());
  EXPECT_THAT(owners_[kCommittee]->LogText(), HasSubstr("(data holder 0 of 10)"));

  // One run to publication, against simulate.
  absl::StatusOr<std::string> run_id = StartRun();
  ASSERT_TRUE(run_id.ok()) << run_id.status();
  const std::string published = WaitForStatus(*run_id, ": published", std::chrono::seconds(600));
  ASSERT_THAT(published, HasSubstr(": published"));
  absl::StatusOr<nlohmann::json> model = Result(*run_id);
  ASSERT_TRUE(model.ok()) << model.status();
  absl::StatusOr<nlohmann::json> sim = Simulate();
  ASSERT_TRUE(sim.ok()) << sim.status();
  EXPECT_EQ((*model)["vocabulary"], (*sim)["vocabulary"]);
  ASSERT_EQ((*model)["topic_term_counts"].size(), static_cast<size_t>(kTopics));
  EXPECT_EQ((*model)["topic_term_counts"], (*sim)["topic_term_counts"])
      << "the daemons' published counts differ from simulate --committee 3's";
  EXPECT_EQ((*model)["metadata"]["corpus"]["parties"].size(),
            static_cast<size_t>(kCommittee + kHolders));
  for (int h = 0; h < kHolders; ++h) {
    const std::string name = absl::StrCat("holder-", h);
    const std::filesystem::path mixtures =
        State(kCommittee + h) / "runs" / *run_id / "mixtures.csv";
    ASSERT_TRUE(std::filesystem::exists(mixtures)) << mixtures;
    EXPECT_EQ(ReadText(mixtures), ReadText(dir() / "simulate" / "mixtures" / (name + ".csv")))
        << name;
  }
  ExpectHolderViews(*run_id, *model);
  for (int j = 0; j < kCommittee; ++j) {
    // A committee member holds no documents: its mixtures file has no rows.
    const std::filesystem::path mixtures = State(j) / "runs" / *run_id / "mixtures.csv";
    EXPECT_EQ(ReadText(mixtures), "document,topic_0,topic_1,topic_2\n") << OwnerName(j);
  }

  // A data holder lost mid-run: the run waits for it by name, it comes
  // back, and the same model is published.
  constexpr int kVictim = kCommittee + 2;
  absl::StatusOr<std::string> second = StartRun();
  ASSERT_TRUE(second.ok()) << second.status();
  // Killed once it has run iteration 1 (read off its log: an iteration
  // takes a fraction of a second, faster than `pplda run status` polls).
  E2E_ASSERT_OK(owners_[kVictim]->WaitForLog(absl::StrCat("run ", *second, ": iteration 1 done"),
                                             std::chrono::seconds(300)));
  owners_[kVictim]->Kill();
  const std::string waiting = WaitForStatus(*second, ": waiting", std::chrono::seconds(120));
  ASSERT_THAT(waiting, HasSubstr(": waiting"));
  EXPECT_THAT(waiting, HasSubstr(OwnerName(kVictim)));
  E2E_ASSERT_OK(StartOwner(kVictim));
  ASSERT_THAT(WaitForStatus(*second, ": published", std::chrono::seconds(600)),
              HasSubstr(": published"));
  absl::StatusOr<nlohmann::json> resumed = Result(*second);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  EXPECT_EQ((*resumed)["topic_term_counts"], (*model)["topic_term_counts"])
      << "the run resumed after a data holder's restart published another model";
  EXPECT_THAT(owners_[kVictim]->LogText(), HasSubstr("resumed after iteration"));

  // A data holder's certificate may not drive a committee member: asking
  // it to publish (decrypt) is PermissionDenied.
  {
    const std::filesystem::path certs = dir() / "certs";
    absl::StatusOr<net::TlsIdentity> identity =
        net::TlsIdentity::Load(certs / "ca.crt", certs / "holder-0.crt", certs / "holder-0.key");
    ASSERT_TRUE(identity.ok()) << identity.status();
    std::unique_ptr<pplda::v1::PartyControl::Stub> stub = pplda::v1::PartyControl::NewStub(
        net::CreatePeerChannel(*identity, Address(0), OwnerName(0), 1 << 26));
    pplda::v1::PublishRequest request;
    pplda::v1::WireHeader& header = *request.mutable_header();
    header.set_protocol_version(net::kProtocolVersion);
    header.set_run_id(*second);
    header.set_iteration(kIterations + 1);
    header.set_sender("holder-0");
    request.set_decrypt(true);
    pplda::v1::PublishReply reply;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    const grpc::Status refused = stub->Publish(&context, request, &reply);
    EXPECT_EQ(refused.error_code(), grpc::StatusCode::PERMISSION_DENIED) << refused.error_message();
    EXPECT_FALSE(reply.has_partials());
  }

  // A data holder presenting a key share does not start.
  owners_[kCommittee]->Stop();
  const std::string config = ReadText(Config("holder-0"));
  E2E_ASSERT_OK(WriteText(Config("holder-0"),
                          absl::StrReplaceAll(config, {{"public_key = \"keys/public.key\"",
                                                        "key_share = \"keys/committee-0.key\""}})));
  CommandResult refused =
      RunCommand({kPartyBinary, "--config", Config("holder-0").string()}, std::chrono::seconds(60));
  EXPECT_NE(refused.exit_code, 0) << refused.Describe();
  EXPECT_THAT(refused.output, HasSubstr("party.key_share"));
  EXPECT_THAT(refused.output, HasSubstr("holds no key share"));
}

// DP training with data holders on a key the committee generated with no
// dealer: the committee's members add the noise
// (the holders add none), the daemons publish exactly what `pplda simulate
// --committee 3` publishes with the same flags, key and seeds, the model's
// statement says who added the noise and what a coalition may hold, and a
// data holder with a privacy budget debits the run in its own ledger.
TEST_F(DataHoldersTest, ADpRunOnADealerFreeKeyPublishesSimulatesModelAndDebitsAHoldersLedger) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON";
  }
  ASSERT_FALSE(temp_.path().empty());
  E2E_ASSERT_OK(Prepare(/*deal_key=*/false));
  E2E_ASSERT_OK(GenerateCommitteeKey());
  const std::string config = ReadText(Config("holder-0"));
  E2E_ASSERT_OK(WriteText(Config("holder-0"),
                          absl::StrReplaceAll(config, {{"[party]\n",
                                                        "[party]\nprivacy_budget_epsilon = 20\n"
                                                        "privacy_budget_delta = 1e-4\n"}})));
  E2E_ASSERT_OK(StartAll());
  const std::vector<std::string> dp = {"--dp-epsilon",        "8", "--dp-max-tokens", "3",
                                       "--dp-max-term-count", "2"};
  absl::StatusOr<std::string> run_id = StartRun(dp);
  ASSERT_TRUE(run_id.ok()) << run_id.status();
  ASSERT_THAT(WaitForStatus(*run_id, ": published", std::chrono::seconds(600)),
              HasSubstr(": published"));
  absl::StatusOr<nlohmann::json> model = Result(*run_id);
  ASSERT_TRUE(model.ok()) << model.status();
  absl::StatusOr<nlohmann::json> sim = Simulate(dp, /*dp=*/true);
  ASSERT_TRUE(sim.ok()) << sim.status();
  EXPECT_EQ((*model)["topic_term_counts"], (*sim)["topic_term_counts"])
      << "the daemons' DP counts differ from simulate --committee 3's";
  const nlohmann::json& privacy = (*model)["metadata"]["privacy"];
  EXPECT_TRUE(privacy["counts_private"].get<bool>());
  EXPECT_LE(privacy["differential_privacy"]["epsilon"].get<double>(), 8.0);
  EXPECT_EQ(privacy["dp_training"]["distributed_noise"]["noise_parties"], 3);
  EXPECT_FALSE((*model)["metadata"]["corpus"]["parties"][0].is_object())
      << "a DP model file names the participants but holds no token count";
  const std::string leakage = privacy["leakage"].get<std::string>();
  EXPECT_THAT(leakage, HasSubstr("3 compute parties (the committee; the 10 data holders "
                                 "outside it add no noise)"));
  EXPECT_THAT(leakage, HasSubstr("together with any number of data holders"));
  EXPECT_EQ(privacy["secure_protocol"]["key_origin"], "distributed");

  const std::string ledger = ReadText(State(kCommittee) / "privacy_ledger.json");
  EXPECT_THAT(ledger, HasSubstr(*run_id)) << "holder-0 did not debit its ledger";
  EXPECT_FALSE(std::filesystem::exists(State(kCommittee + 1) / "privacy_ledger.json"))
      << "holder-1 has no budget, so no ledger";
}

// The secure DP vocabulary with data holders: the ten holders contribute
// their encrypted candidate histograms (no noise; each one's digest to
// every member over its links), the committee adds the noise, sums,
// decrypts and sends each holder the selection, and the run trains over it.
// A committee member killed mid-run comes back and every owner resumes
// (the selection restored from its boundary); the daemons select and
// publish exactly what `pplda simulate --committee 3 --dp-vocab-candidates`
// does with the same key and seeds.
TEST_F(DataHoldersTest, ADpVocabularyWithDataHoldersSurvivesAMemberLossAndIsSimulates) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON";
  }
  ASSERT_FALSE(temp_.path().empty());
  // No reading cap: a daemon cuts its documents over the candidates,
  // simulate over the selection; DP training's caps keep the run small.
  max_tokens_ = 100000;
  E2E_ASSERT_OK(Prepare());
  E2E_ASSERT_OK(StartAll());
  const std::vector<std::string> dp = {"--dp-epsilon",         "8",  "--dp-vocab-epsilon", "4",
                                       "--dp-vocab-max-terms", "50", "--dp-max-tokens",    "3",
                                       "--dp-max-term-count",  "2"};
  absl::StatusOr<std::string> run_id = StartRun(dp);
  ASSERT_TRUE(run_id.ok()) << run_id.status();
  // A committee member lost mid-run: every owner resumes from its saved
  // boundary (the selected vocabulary included) and the run goes on.
  constexpr int kMember = 1;
  E2E_ASSERT_OK(owners_[kMember]->WaitForLog(absl::StrCat("run ", *run_id, ": iteration 1 done"),
                                             std::chrono::seconds(300)));
  owners_[kMember]->Kill();
  const std::string waiting = WaitForStatus(*run_id, ": waiting", std::chrono::seconds(120));
  ASSERT_THAT(waiting, HasSubstr(": waiting"));
  EXPECT_THAT(waiting, HasSubstr(OwnerName(kMember)));
  E2E_ASSERT_OK(StartOwner(kMember));
  ASSERT_THAT(WaitForStatus(*run_id, ": published", std::chrono::seconds(600)),
              HasSubstr(": published"));
  for (int i = 0; i < kCommittee + kHolders; ++i) {
    EXPECT_THAT(owners_[i]->LogText(), HasSubstr("resumed after iteration")) << OwnerName(i);
  }
  absl::StatusOr<nlohmann::json> model = Result(*run_id);
  ASSERT_TRUE(model.ok()) << model.status();
  absl::StatusOr<nlohmann::json> sim = Simulate(dp, /*dp=*/true, "--dp-vocab-candidates");
  ASSERT_TRUE(sim.ok()) << sim.status();
  const std::vector<std::string> selected = (*model)["vocabulary"].get<std::vector<std::string>>();
  EXPECT_GT(selected.size(), 0u);
  EXPECT_EQ((*model)["vocabulary"], (*sim)["vocabulary"])
      << "the daemons' DP vocabulary differs from simulate --committee 3's";
  EXPECT_EQ((*model)["topic_term_counts"], (*sim)["topic_term_counts"]);
  const nlohmann::json& privacy = (*model)["metadata"]["privacy"];
  EXPECT_TRUE(privacy["vocabulary_private"].get<bool>()) << privacy;
  EXPECT_EQ(privacy["dp_vocabulary"], (*sim)["metadata"]["privacy"]["dp_vocabulary"]);
  EXPECT_EQ(privacy["dp_vocabulary"]["data_holders_outside_committee"], kHolders) << privacy;
  for (int i = 0; i < kCommittee + kHolders; ++i) {
    if (i == kMember) continue;  // its log since the restart: resumed after the selection
    EXPECT_THAT(owners_[i]->LogText(),
                HasSubstr(absl::StrCat("DP vocabulary selected: ", selected.size(), " terms")))
        << OwnerName(i);
  }
}

}  // namespace
}  // namespace pplda::e2e::testing

// End-to-end, relay mode with the real binaries: no party listens; each
// dials the coordinator, which forwards their sealed MPC frames. The
// coordinator captures every message its relay reads and writes
// (coordinator.toml relay_capture), and each party, INSECURE and in test
// builds only, every plaintext payload it hands its transport
// (insecure_capture_sent_payloads). After a 1-iteration run:
//  - no 16-byte piece of any plaintext payload (a field element, or half of
//    a 32-byte key) appears anywhere in the coordinator's capture, at any
//    byte offset; left out of the search are pieces of low entropy (small
//    numbers, padding: fewer than 8 distinct bytes) and pieces overlapping
//    the two public strings that MPC payloads and the coordinator's own
//    messages both carry: the public key's fingerprint (in every ciphertext
//    batch) and the digest of the agreed fold (the parties confirm it among
//    themselves; the coordinator asks them to decrypt it, and the model's
//    metadata and every party's log name it); there are thousands of the
//    others;
//  - the search finds such a piece planted in a copy of the capture at an
//    unaligned offset (so "none found" is not vacuous);
//  - the capture covers the MPC traffic: its messages down to the parties
//    hold at least as many bytes as all the plaintext payloads together
//    (every payload is relayed once, sealed, with a MAC and a nonce);
//  - both captures are 0600.
// Skipped in builds without PPLDA_INSECURE_TEST_RANDOMNESS (they refuse
// the parties' capture).
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "crypto/paillier/paillier_key_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "party/party_randomness.h"
#include "tests/e2e/e2e_test_util.h"

namespace pplda::e2e::testing {
namespace {

using ::testing::HasSubstr;

constexpr size_t kPiece = 16;

bool HighEntropy(std::string_view piece) {
  bool seen[256] = {};
  int distinct = 0;
  for (char ch : piece) {
    const uint8_t b = static_cast<uint8_t>(ch);
    if (!seen[b]) ++distinct;
    seen[b] = true;
  }
  return distinct >= 8;
}

// Every aligned 16-byte piece of high entropy of the payloads, except
// pieces that overlap a public string (`public_strings`), with the 2 bytes
// before it (a protobuf tag and length).
absl::flat_hash_set<std::string_view> SecretPieces(const std::vector<CaptureRecord>& payloads,
                                                   const std::vector<std::string>& public_strings,
                                                   size_t& public_pieces) {
  absl::flat_hash_set<std::string_view> pieces;
  public_pieces = 0;
  for (const CaptureRecord& r : payloads) {
    std::vector<std::pair<size_t, size_t>> public_ranges;
    for (const std::string& s : public_strings) {
      for (size_t at = r.bytes.find(s); at != std::string_view::npos;
           at = r.bytes.find(s, at + 1)) {
        public_ranges.emplace_back(at >= 2 ? at - 2 : 0, at + s.size());
      }
    }
    for (size_t i = 0; i + kPiece <= r.bytes.size(); i += kPiece) {
      bool is_public = false;
      for (const auto& [begin, end] : public_ranges) is_public |= i < end && begin < i + kPiece;
      public_pieces += is_public;
      const std::string_view piece = r.bytes.substr(i, kPiece);
      if (!is_public && HighEntropy(piece)) pieces.insert(piece);
    }
  }
  return pieces;
}

uint64_t First8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// Byte offsets in `haystack` (any alignment) where a piece starts.
std::vector<size_t> FindPieces(std::string_view haystack,
                               const absl::flat_hash_set<std::string_view>& pieces) {
  absl::flat_hash_set<uint64_t> prefixes;  // a quick first filter
  for (std::string_view p : pieces) prefixes.insert(First8(p.data()));
  std::vector<size_t> found;
  for (size_t i = 0; i + kPiece <= haystack.size(); ++i) {
    if (prefixes.contains(First8(haystack.data() + i)) &&
        pieces.contains(haystack.substr(i, kPiece))) {
      found.push_back(i);
    }
  }
  return found;
}

// Where found pieces are: the relayed record (tag, index, size) and the
// payload they come from (index, size, offset), for the first few.
std::string Locate(const std::string& relay_text, const std::vector<CaptureRecord>& relayed,
                   const std::vector<CaptureRecord>& payloads, const std::vector<size_t>& found) {
  std::string out;
  for (size_t f = 0; f < found.size() && f < 5; ++f) {
    const char* at = relay_text.data() + found[f];
    for (size_t r = 0; r < relayed.size(); ++r) {
      if (at >= relayed[r].bytes.data() && at < relayed[r].bytes.data() + relayed[r].bytes.size()) {
        absl::StrAppend(&out, "\n  relayed record ", r, " (", std::string(1, relayed[r].tag), ", ",
                        relayed[r].bytes.size(), " bytes) at +", at - relayed[r].bytes.data());
      }
    }
    const std::string_view piece(at, kPiece);
    for (size_t p = 0; p < payloads.size(); ++p) {
      const size_t i = payloads[p].bytes.find(piece);
      if (i != std::string_view::npos) {
        absl::StrAppend(&out, "; payload ", p, " (", payloads[p].bytes.size(), " bytes) at +", i);
        break;
      }
    }
  }
  return out;
}

class RelayCaptureTest : public ConsortiumTest {};

TEST_F(RelayCaptureTest, CoordinatorsRelayedTrafficHoldsNoPlaintextPayloadPiece) {
  if (!party::InsecureTestRandomnessAllowed()) {
    GTEST_SKIP() << "needs a build with PPLDA_INSECURE_TEST_RANDOMNESS=ON (this one refuses "
                    "insecure_capture_sent_payloads)";
  }
  ConsortiumOptions options;
  options.relay = true;
  options.capture_traffic = true;
  options.max_tokens = 1;  // a small run: the captures hold every byte of it
  E2E_ASSERT_OK(SetUpConsortium(options));
  E2E_ASSERT_OK(consortium_.StartAll());
  EXPECT_THAT(consortium_.coordinator().LogText(), HasSubstr("relay: capturing every relayed"));
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    EXPECT_THAT(consortium_.party(i).LogText(), HasSubstr("in relay mode: never listens"))
        << LocalConsortium::kPartyNames[i];
  }
  CommandResult start =
      RunPplda({"run", "start", "--config", consortium_.coordinator_config().string(), "--topics",
                "2", "--iterations", "1", "--draw", "binary", "--watch"},
               std::chrono::seconds(300));
  ASSERT_EQ(start.exit_code, 0) << start.Describe();
  ASSERT_THAT(start.output, HasSubstr(": published"));
  // The agreed fold's digest: the coordinator knows it (it asks the parties
  // to decrypt it), so it is public here too; every party logged the same.
  const std::filesystem::path model_path = dir() / "model.json";
  CommandResult result =
      RunPplda({"run", "result", "--config", consortium_.coordinator_config().string(), "--out",
                model_path.string()});
  ASSERT_EQ(result.exit_code, 0) << result.Describe();
  const nlohmann::json model = nlohmann::json::parse(ReadText(model_path), nullptr, false);
  ASSERT_TRUE(model.contains("metadata")) << "run result wrote no JSON model";
  const std::string digest_hex =
      model["metadata"]["training"].value("decrypted_counts_digest", std::string());
  ASSERT_EQ(digest_hex.size(), 64u) << model["metadata"]["training"].dump();
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    EXPECT_THAT(consortium_.party(i).LogText(), HasSubstr("agreed fold " + digest_hex))
        << LocalConsortium::kPartyNames[i];
  }
  std::string digest;
  for (size_t i = 0; i < digest_hex.size(); i += 2) {
    digest += static_cast<char>(std::stoi(digest_hex.substr(i, 2), nullptr, 16));
  }
  consortium_.StopAll();  // flushes and closes the captures

  const std::string relay_text = ReadText(consortium_.capture(-1));
  std::cout << "relay capture: " << relay_text.size() << " bytes\n";
  const std::vector<CaptureRecord> relayed = ParseCapture(relay_text);
  std::vector<std::string> party_texts;
  std::vector<CaptureRecord> payloads;
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    EXPECT_EQ(FileMode(consortium_.capture(i)), 0600u) << LocalConsortium::kPartyNames[i];
    party_texts.push_back(ReadText(consortium_.capture(i)));
  }
  EXPECT_EQ(FileMode(consortium_.capture(-1)), 0600u);
  size_t payload_bytes = 0;
  for (int i = 0; i < LocalConsortium::kParties; ++i) {
    const std::vector<CaptureRecord> sent = ParseCapture(party_texts[i]);
    EXPECT_GT(sent.size(), 20u) << LocalConsortium::kPartyNames[i] << " sent too few payloads";
    for (const CaptureRecord& r : sent) {
      EXPECT_EQ(r.tag, 'S');
      payload_bytes += r.bytes.size();
      payloads.push_back(r);
    }
  }
  size_t down_bytes = 0, up = 0, down = 0;
  for (const CaptureRecord& r : relayed) {
    ASSERT_TRUE(r.tag == 'U' || r.tag == 'D') << "tag " << static_cast<int>(r.tag);
    (r.tag == 'U' ? up : down) += 1;
    if (r.tag == 'D') down_bytes += r.bytes.size();
  }
  EXPECT_GT(up, 0u);
  EXPECT_GT(down, 0u);
  EXPECT_GE(down_bytes, payload_bytes) << "the capture misses relayed MPC traffic";

  absl::StatusOr<crypto::ThresholdPublicKeyPtr> key =
      crypto::ReadPublicKeyFile(consortium_.keys() / "public.key");
  ASSERT_TRUE(key.ok()) << key.status();
  const std::string fingerprint(reinterpret_cast<const char*>((*key)->fingerprint().data()),
                                (*key)->fingerprint().size());
  size_t public_pieces = 0;
  const absl::flat_hash_set<std::string_view> pieces =
      SecretPieces(payloads, {fingerprint, digest}, public_pieces);
  std::cout << pieces.size() << " secret pieces searched for (" << public_pieces
            << " pieces overlapping the key fingerprint or the agreed fold's digest left out)\n";
  ASSERT_GT(pieces.size(), 1000u) << "too few high-entropy pieces to search for";
  const std::vector<size_t> found = FindPieces(relay_text, pieces);
  EXPECT_TRUE(found.empty()) << found.size() << " plaintext payload pieces in the relayed "
                             << "traffic, the first at byte " << found.front() << ": "
                             << Locate(relay_text, relayed, payloads, found);

  // The search is not vacuous: a piece planted at an odd offset is found.
  const std::string_view secret = *pieces.begin();
  std::string planted = relay_text.substr(relay_text.size() / 2, 1 << 20);
  const size_t before = FindPieces(planted, pieces).size();
  planted.insert(12345, secret.data(), secret.size());
  EXPECT_EQ(FindPieces(planted, pieces).size(), before + 1);
}

}  // namespace
}  // namespace pplda::e2e::testing

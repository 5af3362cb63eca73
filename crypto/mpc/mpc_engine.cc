#include "crypto/mpc/mpc_engine.h"

#include <sodium.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace pplda::crypto {
namespace {

absl::Status CheckSameSize(const Shares& a, const Shares& b, std::string_view op) {
  if (a.size() != b.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(op), ": operands have ", a.size(), " and ", b.size(),
        " elements; they must have the same size"));
  }
  return absl::OkStatus();
}

absl::Status CheckParty(int party, int num_parties, std::string_view what, size_t index) {
  if (party < 0 || party >= num_parties) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(what), "[", index, "] = ", party, " is not a party id (0..",
        num_parties - 1, ")"));
  }
  return absl::OkStatus();
}

const FieldElement kInverseTwo = FieldElement::FromUint64(2).Inverse();

// The key-agreement round of pseudo-random sharing: fills keys[s] for every
// key set s that `party` belongs to, and the pairwise keys outgoing[j] (this
// party's, sent to j) and incoming[j] (j's, received); the caller wipes
// them. Message from d to j: d's set keys for j, then d's pairwise key.
absl::Status AgreePseudoRandomKeys(PartyTransport& transport, SecureRng& rng, int party, int n,
                                   int threshold, uint64_t round, absl::Span<PrssKey> keys,
                                   absl::Span<PrssKey> outgoing, absl::Span<PrssKey> incoming) {
  // The first member of each key set draws its key and sends it to the
  // other members; everyone learns exactly the keys of its own sets.
  const std::vector<std::vector<int>> sets = PseudoRandomSharing::KeySets(n, threshold);
  std::vector<std::vector<uint8_t>> payloads(n);
  std::vector<std::vector<size_t>> from_leader(n);  // key indices each leader sends me
  for (size_t s = 0; s < sets.size(); ++s) {
    const std::vector<int>& set = sets[s];
    const bool member = std::find(set.begin(), set.end(), party) != set.end();
    if (set[0] == party) {
      rng.Fill(absl::MakeSpan(keys[s]));
      for (size_t m = 1; m < set.size(); ++m) {
        payloads[set[m]].insert(payloads[set[m]].end(), keys[s].begin(), keys[s].end());
      }
    } else if (member) {
      from_leader[set[0]].push_back(s);
    }
  }
  for (int j = 0; j < n; ++j) {
    if (j == party) continue;
    rng.Fill(absl::MakeSpan(outgoing[j]));
    payloads[j].insert(payloads[j].end(), outgoing[j].begin(), outgoing[j].end());
    RETURN_IF_ERROR(transport.Send(j, round, std::move(payloads[j])));
  }
  for (int j = 0; j < n; ++j) {
    if (j == party) continue;
    ASSIGN_OR_RETURN(std::vector<uint8_t> payload, transport.Receive(j, round));
    const size_t sets_from_j = from_leader[j].size();
    const size_t want = (sets_from_j + 1) * sizeof(PrssKey);
    if (payload.size() == want) {
      for (size_t k = 0; k < sets_from_j; ++k) {
        std::copy_n(payload.begin() + k * sizeof(PrssKey), sizeof(PrssKey),
                    keys[from_leader[j][k]].begin());
      }
      std::copy_n(payload.begin() + sets_from_j * sizeof(PrssKey), sizeof(PrssKey),
                  incoming[j].begin());
    }
    sodium_memzero(payload.data(), payload.size());
    if (payload.size() != want) {
      return absl::InvalidArgumentError(absl::StrCat(
          "pseudo-random sharing keys (round ", round, ") from party ", j, ": ",
          payload.size(), " bytes, expected ", want));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<MpcEngine>> MpcEngine::Create(const MpcConfig& config,
                                                             PartyTransport& transport,
                                                             SecureRng& rng,
                                                             Randomness randomness) {
  if (transport.num_parties() != config.num_parties()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "transport connects ", transport.num_parties(), " parties but the MPC config has ",
        config.num_parties()));
  }
  if (transport.party_id() < 0 || transport.party_id() >= config.num_parties()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "transport party id ", transport.party_id(), " is outside 0..",
        config.num_parties() - 1));
  }
  return std::unique_ptr<MpcEngine>(new MpcEngine(config, transport, rng, randomness));
}

absl::Status MpcEngine::SendElements(int to, uint64_t round,
                                     absl::Span<const FieldElement> values) {
  std::vector<uint8_t> payload;
  payload.reserve(values.size() * FieldElement::kBytes);
  AppendEncoded(values, payload);
  return transport_.Send(to, round, std::move(payload));
}

absl::StatusOr<FieldVector> MpcEngine::ReceiveElements(int from, uint64_t round,
                                                       size_t count, std::string_view what) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> payload, transport_.Receive(from, round));
  return DecodeFieldVector(payload, count,
                           absl::StrCat(std::string(what), " message of round ", round,
                                        " from party ", from));
}

absl::StatusOr<FieldVector> MpcEngine::SendDealtShares(uint64_t round,
                                                       absl::Span<const DealBlock> my_blocks,
                                                       size_t my_count, std::string_view what) {
  // Shares are made in chunks and encoded straight into the peers'
  // payloads, so no per-peer vector of field elements is ever held whole.
  constexpr size_t kChunk = 4096;
  const int n = num_parties();
  size_t total = 0;
  for (const DealBlock& block : my_blocks) total += block.secrets.size();
  if (total != my_count) {
    return absl::InternalError(absl::StrCat(
        std::string(what), ": party ", party_, " has ", total, " values to deal but the "
        "protocol expects ", my_count));
  }
  if (pseudo_random_) return SendDerivedShares(round, my_blocks, my_count, what);
  std::vector<std::vector<uint8_t>> payloads(n);
  for (int j = 0; j < n; ++j) {
    if (j != party_) payloads[j].reserve(my_count * FieldElement::kBytes);
  }
  FieldVector mine(my_count);
  std::vector<FieldVector> chunk(n, FieldVector(kChunk));
  std::vector<FieldElement*> outputs(n);
  size_t offset = 0;
  for (const DealBlock& block : my_blocks) {
    for (size_t begin = 0; begin < block.secrets.size(); begin += kChunk) {
      const size_t len = std::min(kChunk, block.secrets.size() - begin);
      for (int j = 0; j < n; ++j) {
        outputs[j] = j == party_ ? mine.data() + offset : chunk[j].data();
      }
      config_.shamir().ShareInto(block.secrets.subspan(begin, len), block.degree, rng_, outputs);
      for (int j = 0; j < n; ++j) {
        if (j != party_) AppendEncoded(absl::MakeConstSpan(chunk[j]).subspan(0, len), payloads[j]);
      }
      offset += len;
    }
  }
  for (int j = 0; j < n; ++j) {
    if (j != party_) RETURN_IF_ERROR(transport_.Send(j, round, std::move(payloads[j])));
  }
  return mine;
}

bool MpcEngine::IsPartner(int dealer, int party) const {
  const int n = num_parties();
  return party != dealer && ((party - dealer - 1 + n) % n) < threshold();
}

absl::StatusOr<FieldVector> MpcEngine::SendDerivedShares(uint64_t round,
                                                         absl::Span<const DealBlock> my_blocks,
                                                         size_t my_count,
                                                         std::string_view what) {
  const int n = num_parties(), t = threshold();
  // The polynomial through (0, secret) and (x_p, v_p) for the t partners p,
  // v_p from the pairwise stream: every other share is a fixed linear
  // combination of those t + 1 values.
  FieldVector points = {FieldElement::Zero()};
  std::vector<FieldVector> derived;
  for (int p = 0; p < n; ++p) {
    if (!IsPartner(party_, p)) continue;
    points.push_back(ShamirScheme::PointOf(p));
    derived.push_back(RandomFieldVector(pseudo_random_->Outgoing(p), my_count));
  }
  FieldVector secrets;
  secrets.reserve(my_count);
  for (const DealBlock& block : my_blocks) {
    if (block.degree != t) {
      return absl::InternalError(absl::StrCat(std::string(what), ": derived shares need degree ",
                                              t, ", got ", block.degree));
    }
    secrets.insert(secrets.end(), block.secrets.begin(), block.secrets.end());
  }
  FieldVector mine;
  for (int j = 0; j < n; ++j) {
    if (IsPartner(party_, j)) continue;
    const FieldVector lambda = LagrangeCoefficients(points, ShamirScheme::PointOf(j));
    FieldVector shares(my_count);
    for (size_t e = 0; e < my_count; ++e) {
      FieldElement v = lambda[0] * secrets[e];
      for (int k = 0; k < t; ++k) v += lambda[k + 1] * derived[k][e];
      shares[e] = v;
    }
    if (j == party_) {
      mine = std::move(shares);
    } else {
      RETURN_IF_ERROR(SendElements(j, round, shares));
    }
  }
  return mine;
}

absl::StatusOr<FieldVector> MpcEngine::ReceiveDealtShares(int dealer, uint64_t round,
                                                          size_t count, std::string_view what) {
  if (pseudo_random_ && IsPartner(dealer, party_)) {
    return RandomFieldVector(pseudo_random_->Incoming(dealer), count);
  }
  return ReceiveElements(dealer, round, count, what);
}

absl::StatusOr<std::vector<FieldVector>> MpcEngine::Deal(
    absl::Span<const DealBlock> my_blocks, absl::Span<const size_t> count_by_dealer,
    std::string_view what) {
  if (config_.pseudo_random_sharing()) RETURN_IF_ERROR(PseudoRandom().status());
  const uint64_t round = BeginRound();
  const int n = num_parties();
  std::vector<FieldVector> received(n);
  if (count_by_dealer[party_] > 0) {
    ASSIGN_OR_RETURN(received[party_],
                     SendDealtShares(round, my_blocks, count_by_dealer[party_], what));
  }
  for (int d = 0; d < n; ++d) {
    if (d == party_ || count_by_dealer[d] == 0) continue;
    ASSIGN_OR_RETURN(received[d], ReceiveDealtShares(d, round, count_by_dealer[d], what));
  }
  return received;
}

absl::StatusOr<Shares> MpcEngine::DealAndCombine(absl::Span<const DealBlock> my_blocks,
                                                 size_t count, int dealers,
                                                 absl::Span<const FieldElement> coefficients,
                                                 std::string_view what) {
  if (config_.pseudo_random_sharing()) RETURN_IF_ERROR(PseudoRandom().status());
  const uint64_t round = BeginRound();
  Shares out(count);
  absl::Span<FieldElement> acc = absl::MakeSpan(out.mutable_values());
  if (party_ < dealers) {
    ASSIGN_OR_RETURN(FieldVector mine, SendDealtShares(round, my_blocks, count, what));
    AddScaledInPlace(acc, coefficients[party_], mine);
  }
  for (int d = 0; d < dealers; ++d) {
    if (d == party_) continue;
    if (pseudo_random_ && IsPartner(d, party_)) {
      AddScaledInPlace(acc, coefficients[d],
                       RandomFieldVector(pseudo_random_->Incoming(d), count));
      continue;
    }
    ASSIGN_OR_RETURN(std::vector<uint8_t> payload, transport_.Receive(d, round));
    RETURN_IF_ERROR(DecodeAndAccumulate(
        payload, coefficients[d], acc,
        absl::StrCat(std::string(what), " message of round ", round, " from party ", d)));
  }
  return out;
}

Shares MpcEngine::SumOverDealers(const std::vector<FieldVector>& by_dealer, int dealers,
                                 size_t offset, size_t count) {
  Shares out(count);
  for (int d = 0; d < dealers; ++d) {
    AddInPlace(absl::MakeSpan(out.mutable_values()),
               absl::MakeConstSpan(by_dealer[d]).subspan(offset, count));
  }
  return out;
}

absl::StatusOr<Shares> MpcEngine::Input(absl::Span<const int> owners,
                                        absl::Span<const FieldElement> my_values) {
  const int n = num_parties();
  std::vector<size_t> counts(n, 0);
  for (size_t i = 0; i < owners.size(); ++i) {
    RETURN_IF_ERROR(CheckParty(owners[i], n, "Input owners", i));
    counts[owners[i]] += 1;
  }
  if (my_values.size() != counts[party_]) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Input: party ", party_, " owns ", counts[party_], " elements but passed ",
        my_values.size(), " values"));
  }
  const DealBlock block{my_values, threshold()};
  ASSIGN_OR_RETURN(std::vector<FieldVector> by_dealer,
                   Deal(absl::MakeConstSpan(&block, 1), counts, "Input"));
  Shares out(owners.size());
  std::vector<size_t> cursor(n, 0);
  for (size_t i = 0; i < owners.size(); ++i) {
    out[i] = by_dealer[owners[i]][cursor[owners[i]]++];
  }
  return out;
}

absl::StatusOr<Shares> MpcEngine::ReduceDegree(const FieldVector& local_products,
                                               std::string_view what) {
  const int resharers = 2 * threshold() + 1;
  const DealBlock block{local_products, threshold()};
  return DealAndCombine(absl::MakeConstSpan(&block, party_ < resharers ? 1 : 0),
                        local_products.size(), resharers, product_recombination_, what);
}

absl::StatusOr<Shares> MpcEngine::MulSpans(absl::Span<const FieldElement> a,
                                           absl::Span<const FieldElement> b,
                                           std::string_view what) {
  FieldVector local(a.size());
  for (size_t i = 0; i < a.size(); ++i) local[i] = a[i] * b[i];
  return ReduceDegree(local, what);
}

absl::StatusOr<Shares> MpcEngine::Mul(const Shares& a, const Shares& b) {
  RETURN_IF_ERROR(CheckSameSize(a, b, "Mul"));
  return MulSpans(a.span(), b.span(), "Mul");
}

absl::StatusOr<Shares> MpcEngine::InnerProducts(const Shares& a, const Shares& b,
                                                size_t group_size) {
  RETURN_IF_ERROR(CheckSameSize(a, b, "InnerProducts"));
  if (group_size == 0 || a.size() % group_size != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "InnerProducts: ", a.size(), " elements do not split into groups of ",
        group_size));
  }
  FieldVector local(a.size() / group_size, FieldElement::Zero());
  for (size_t i = 0; i < a.size(); ++i) local[i / group_size] += a[i] * b[i];
  return ReduceDegree(local, "InnerProducts");
}

absl::StatusOr<FieldVector> MpcEngine::OpenAtDegree(const FieldVector& shares, int degree,
                                                    std::string_view what) {
  const uint64_t round = BeginRound();
  const int n = num_parties();
  for (int j = 0; j < n; ++j) {
    if (j != party_) RETURN_IF_ERROR(SendElements(j, round, shares));
  }
  std::vector<FieldVector> all(n);
  all[party_] = shares;
  for (int j = 0; j < n; ++j) {
    if (j == party_) continue;
    ASSIGN_OR_RETURN(all[j], ReceiveElements(j, round, shares.size(), what));
  }
  absl::StatusOr<FieldVector> values = config_.shamir().Reconstruct(all, degree);
  if (!values.ok()) {
    return absl::Status(values.status().code(),
                        absl::StrCat(std::string(what), " (round ", round, "): ",
                                     values.status().message()));
  }
  return values;
}

absl::StatusOr<FieldVector> MpcEngine::Open(const Shares& a) {
  return OpenAtDegree(a.values(), threshold(), "Open");
}

absl::StatusOr<std::vector<std::optional<FieldElement>>> MpcEngine::OpenTo(
    const Shares& a, absl::Span<const int> receivers) {
  const int n = num_parties();
  if (receivers.size() != a.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "OpenTo: ", a.size(), " elements but ", receivers.size(), " receivers"));
  }
  std::vector<std::vector<size_t>> indices(n);
  for (size_t i = 0; i < receivers.size(); ++i) {
    RETURN_IF_ERROR(CheckParty(receivers[i], n, "OpenTo receivers", i));
    indices[receivers[i]].push_back(i);
  }
  const uint64_t round = BeginRound();
  for (int r = 0; r < n; ++r) {
    if (r == party_ || indices[r].empty()) continue;
    RETURN_IF_ERROR(SendElements(r, round, Gather(a, indices[r]).values()));
  }
  std::vector<std::optional<FieldElement>> out(a.size());
  const std::vector<size_t>& mine = indices[party_];
  if (mine.empty()) return out;
  std::vector<FieldVector> all(n);
  all[party_] = Gather(a, mine).values();
  for (int j = 0; j < n; ++j) {
    if (j == party_) continue;
    ASSIGN_OR_RETURN(all[j], ReceiveElements(j, round, mine.size(), "OpenTo"));
  }
  absl::StatusOr<FieldVector> values = config_.shamir().Reconstruct(all, threshold());
  if (!values.ok()) {
    return absl::Status(values.status().code(),
                        absl::StrCat("OpenTo (round ", round, "): ",
                                     values.status().message()));
  }
  for (size_t k = 0; k < mine.size(); ++k) out[mine[k]] = (*values)[k];
  return out;
}

absl::StatusOr<std::vector<std::vector<uint8_t>>> MpcEngine::ExchangeWithAll(
    std::vector<std::vector<uint8_t>> payloads) {
  const int n = num_parties();
  if (static_cast<int>(payloads.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ExchangeWithAll: ", payloads.size(), " payloads for ", n, " parties"));
  }
  const uint64_t round = BeginRound();
  for (int j = 0; j < n; ++j) {
    if (j != party_) RETURN_IF_ERROR(transport_.Send(j, round, std::move(payloads[j])));
  }
  std::vector<std::vector<uint8_t>> received(n);
  for (int j = 0; j < n; ++j) {
    if (j == party_) continue;
    ASSIGN_OR_RETURN(received[j], transport_.Receive(j, round));
  }
  return received;
}

absl::StatusOr<std::vector<std::vector<uint8_t>>> MpcEngine::Exchange(
    absl::Span<const int> send_to, std::vector<std::vector<uint8_t>> payloads,
    absl::Span<const int> receive_from) {
  const int n = num_parties();
  if (static_cast<int>(payloads.size()) != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("Exchange: ", payloads.size(), " payloads for ", n, " parties"));
  }
  for (absl::Span<const int> peers : {send_to, receive_from}) {
    for (int j : peers) {
      if (j < 0 || j >= n || j == party_) {
        return absl::InvalidArgumentError(
            absl::StrCat("Exchange: party ", party_, " cannot exchange with party ", j));
      }
    }
  }
  const uint64_t round = BeginRound();
  for (int j : send_to) RETURN_IF_ERROR(transport_.Send(j, round, std::move(payloads[j])));
  std::vector<std::vector<uint8_t>> received(n);
  for (int j : receive_from) {
    ASSIGN_OR_RETURN(received[j], transport_.Receive(j, round));
  }
  return received;
}

absl::StatusOr<PseudoRandomSharing*> MpcEngine::SharedRandomness() {
  if (!config_.pseudo_random_sharing()) {
    return absl::FailedPreconditionError(
        "the MPC config deals its randomness: no pseudo-random sharing keys");
  }
  return PseudoRandom();
}

MpcEngine::SharedKeys::~SharedKeys() {
  for (std::vector<PrssKey>* wipe : {&sets, &outgoing, &incoming}) {
    sodium_memzero(wipe->data(), wipe->size() * sizeof(PrssKey));
  }
}

absl::StatusOr<MpcEngine::SharedKeys> MpcEngine::AgreeSharedKeys() {
  if (!config_.pseudo_random_sharing()) {
    return absl::FailedPreconditionError(
        "the MPC config deals its randomness: no pseudo-random sharing keys");
  }
  if (pseudo_random_) {
    return absl::FailedPreconditionError("this engine's pseudo-random sharing keys are in use");
  }
  SharedKeys keys;
  keys.sets.resize(PseudoRandomSharing::KeySets(num_parties(), threshold()).size());
  keys.outgoing.resize(num_parties());
  keys.incoming.resize(num_parties());
  RETURN_IF_ERROR(AgreePseudoRandomKeys(
      transport_, rng_, party_, num_parties(), threshold(), BeginRound(), absl::MakeSpan(keys.sets),
      absl::MakeSpan(keys.outgoing), absl::MakeSpan(keys.incoming)));
  RETURN_IF_ERROR(UseSharedKeys(keys));
  return keys;
}

absl::Status MpcEngine::UseSharedKeys(const SharedKeys& keys) {
  if (!config_.pseudo_random_sharing()) {
    return absl::FailedPreconditionError(
        "the MPC config deals its randomness: no pseudo-random sharing keys");
  }
  if (pseudo_random_) {
    return absl::FailedPreconditionError("this engine's pseudo-random sharing keys are in use");
  }
  if (keys.outgoing.size() != static_cast<size_t>(num_parties()) ||
      keys.incoming.size() != static_cast<size_t>(num_parties())) {
    return absl::InvalidArgumentError(absl::StrCat("pairwise keys for ", keys.outgoing.size(),
                                                   " and ", keys.incoming.size(),
                                                   " parties, expected ", num_parties()));
  }
  ASSIGN_OR_RETURN(pseudo_random_, PseudoRandomSharing::Create(config_.shamir(), party_, keys.sets,
                                                               keys.outgoing, keys.incoming));
  return absl::OkStatus();
}

absl::StatusOr<PseudoRandomSharing*> MpcEngine::PseudoRandom() {
  if (pseudo_random_) return pseudo_random_.get();
  std::vector<PrssKey> keys(PseudoRandomSharing::KeySets(num_parties(), threshold()).size());
  std::vector<PrssKey> outgoing(num_parties()), incoming(num_parties());
  absl::Status agreed = AgreePseudoRandomKeys(transport_, rng_, party_, num_parties(),
                                              threshold(), BeginRound(), absl::MakeSpan(keys),
                                              absl::MakeSpan(outgoing), absl::MakeSpan(incoming));
  absl::StatusOr<std::unique_ptr<PseudoRandomSharing>> made =
      agreed.ok()
          ? PseudoRandomSharing::Create(config_.shamir(), party_, keys, outgoing, incoming)
          : absl::StatusOr<std::unique_ptr<PseudoRandomSharing>>(agreed);
  for (std::vector<PrssKey>* wipe : {&keys, &outgoing, &incoming}) {  // on every path
    sodium_memzero(wipe->data(), wipe->size() * sizeof(PrssKey));
  }
  if (!made.ok()) return made.status();
  pseudo_random_ = *std::move(made);
  return pseudo_random_.get();
}

absl::StatusOr<Shares> MpcEngine::Random(size_t count) {
  if (config_.pseudo_random_sharing()) {
    ASSIGN_OR_RETURN(PseudoRandomSharing * prss, PseudoRandom());
    return Shares(prss->Random(count));
  }
  const int dealers = threshold() + 1;
  FieldVector mine;
  std::vector<DealBlock> blocks;
  if (party_ < dealers) {
    mine = RandomFieldVector(rng_, count);
    blocks.push_back(DealBlock{mine, threshold()});
  }
  const FieldVector ones(dealers, FieldElement::One());
  return DealAndCombine(blocks, count, dealers, ones, "Random");
}

absl::StatusOr<std::pair<Shares, Shares>> MpcEngine::RedrawSquares(size_t count) {
  if (config_.pseudo_random_sharing()) {
    ASSIGN_OR_RETURN(PseudoRandomSharing * prss, PseudoRandom());
    Shares r(prss->Random(count));
    return std::make_pair(std::move(r), Shares(prss->Zero(count)));
  }
  const int dealers = threshold() + 1;
  std::vector<size_t> counts(num_parties(), 0);
  for (int d = 0; d < dealers; ++d) counts[d] = 2 * count;
  FieldVector fresh;
  const FieldVector zeros(count, FieldElement::Zero());
  std::vector<DealBlock> blocks;
  if (party_ < dealers) {
    fresh = RandomFieldVector(rng_, count);
    blocks = {DealBlock{fresh, threshold()}, DealBlock{zeros, 2 * threshold()}};
  }
  ASSIGN_OR_RETURN(std::vector<FieldVector> by_dealer, Deal(blocks, counts, "random-bit redraw"));
  return std::make_pair(SumOverDealers(by_dealer, dealers, 0, count),
                        SumOverDealers(by_dealer, dealers, count, count));
}

absl::StatusOr<Shares> MpcEngine::BitsFromSquares(Shares r, Shares zero) {
  Shares bits(r.size());
  std::vector<size_t> pending(r.size());
  for (size_t k = 0; k < pending.size(); ++k) pending[k] = k;
  for (int attempt = 0; attempt < kMaxBitAttempts; ++attempt) {
    FieldVector local(pending.size());
    for (size_t k = 0; k < pending.size(); ++k) local[k] = r[k] * r[k] + zero[k];
    ASSIGN_OR_RETURN(FieldVector squares,
                     OpenAtDegree(local, 2 * threshold(), "random-bit squares"));
    std::vector<size_t> redo;
    for (size_t k = 0; k < pending.size(); ++k) {
      if (squares[k].IsZero()) {
        redo.push_back(pending[k]);
        continue;
      }
      bits[pending[k]] = (r[k] * squares[k].InverseSquareRoot() + FieldElement::One()) *
                         kInverseTwo;
    }
    if (redo.empty()) return bits;
    if (attempt + 1 == kMaxBitAttempts) break;
    // r = 0 was drawn at these positions: draw fresh r and zero sharings.
    ASSIGN_OR_RETURN(std::tie(r, zero), RedrawSquares(redo.size()));
    pending = std::move(redo);
  }
  return absl::InternalError(absl::StrCat(
      "random bits: a random sharing was zero in ", kMaxBitAttempts,
      " consecutive attempts; the SecureRng of some party is not random"));
}

absl::StatusOr<Shares> MpcEngine::RandomBits(size_t count) {
  const MaskSpec spec{count, 1, 0, true};
  ASSIGN_OR_RETURN(std::vector<MaskBatch> batches, GenerateMasks(absl::MakeConstSpan(&spec, 1)));
  return std::move(batches[0].bits);
}

absl::StatusOr<Shares> MpcEngine::XorOfDealerBits(absl::Span<const FieldElement> first,
                                                  absl::Span<const FieldElement> second) {
  // b = b0 xor b1 = b0 + b1 - 2 b0 b1.
  ASSIGN_OR_RETURN(Shares bits, MulSpans(first, second, "random-bit XOR"));
  const FieldElement minus_two = FieldElement::FromInt64(-2);
  for (size_t i = 0; i < bits.size(); ++i) bits[i] = first[i] + second[i] + minus_two * bits[i];
  return bits;
}

absl::StatusOr<std::vector<MaskBatch>> MpcEngine::GenerateMasks(
    absl::Span<const MaskSpec> specs) {
  size_t total_bits = 0;
  size_t total_high = 0;
  for (size_t s = 0; s < specs.size(); ++s) {
    const MaskSpec& spec = specs[s];
    if (spec.low_bits < 0 || spec.low_bits > FieldElement::kBits || spec.high_bits < 0 ||
        spec.high_bits > 126) {
      return absl::InvalidArgumentError(absl::StrCat(
          "GenerateMasks: spec ", s, " asks for ", spec.low_bits, " low bits and ",
          spec.high_bits, " high bits; need low bits in [0, 127], high bits in [0, 126]"));
    }
    total_bits += spec.count * spec.low_bits;
    if (spec.high_bits > 0) total_high += spec.count;
  }
  ASSIGN_OR_RETURN(MaskMaterial material, DealMaskMaterial(specs, total_bits, total_high));
  return AssembleMasks(specs, material.bits, material.high);
}

absl::StatusOr<MpcEngine::MaskMaterial> MpcEngine::DealMaskMaterial(
    absl::Span<const MaskSpec> specs, size_t total_bits, size_t total_high) {
  MaskMaterial out;
  if (total_bits + total_high == 0) return out;
  if (config_.pseudo_random_sharing()) return PseudoRandomMaskMaterial(specs, total_bits);
  const int dealers = threshold() + 1;
  const bool xor_bits = UsesXorBits();
  // Per dealer: bits (XOR method) or r and a degree-2t zero (squaring), then
  // the high masks.
  const size_t bit_values = xor_bits ? total_bits : 2 * total_bits;
  std::vector<size_t> counts(num_parties(), 0);
  for (int d = 0; d < dealers; ++d) counts[d] = bit_values + total_high;
  FieldVector my_r, my_high;
  const FieldVector zeros(xor_bits ? 0 : total_bits, FieldElement::Zero());
  std::vector<DealBlock> blocks;
  if (party_ < dealers) {
    my_r = xor_bits ? RandomBoundedVector(rng_, total_bits, 1)
                    : RandomFieldVector(rng_, total_bits);
    my_high.reserve(total_high);
    for (const MaskSpec& spec : specs) {
      if (spec.high_bits == 0) continue;
      FieldVector part = RandomBoundedVector(rng_, spec.count, spec.high_bits);
      my_high.insert(my_high.end(), part.begin(), part.end());
    }
    blocks.push_back(DealBlock{my_r, threshold()});
    if (!xor_bits) blocks.push_back(DealBlock{zeros, 2 * threshold()});
    blocks.push_back(DealBlock{my_high, threshold()});
  }
  ASSIGN_OR_RETURN(std::vector<FieldVector> by_dealer, Deal(blocks, counts, "mask dealing"));
  out.high = SumOverDealers(by_dealer, dealers, bit_values, total_high);
  if (total_bits == 0) return out;
  if (xor_bits) {
    const auto first = absl::MakeConstSpan(by_dealer[0]).subspan(0, total_bits);
    const auto second = absl::MakeConstSpan(by_dealer[1]).subspan(0, total_bits);
    ASSIGN_OR_RETURN(out.bits, XorOfDealerBits(first, second));
  } else {
    Shares r = SumOverDealers(by_dealer, dealers, 0, total_bits);
    Shares zero = SumOverDealers(by_dealer, dealers, total_bits, total_bits);
    ASSIGN_OR_RETURN(out.bits, BitsFromSquares(std::move(r), std::move(zero)));
  }
  return out;
}

absl::StatusOr<MpcEngine::MaskMaterial> MpcEngine::PseudoRandomMaskMaterial(
    absl::Span<const MaskSpec> specs, size_t total_bits) {
  MaskMaterial out;
  for (const MaskSpec& spec : specs) {
    if (spec.high_bits == 0) continue;
    ASSIGN_OR_RETURN(PseudoRandomSharing * prss, PseudoRandom());
    out.high.Append(Shares(prss->Bounded(spec.count, spec.high_bits)));
  }
  if (total_bits == 0) return out;
  if (config_.random_bits_by_xor()) {
    // Parties 0 and 1 deal random bits (one round), XORed by one Mul.
    std::vector<size_t> counts(num_parties(), 0);
    counts[0] = counts[1] = total_bits;
    FieldVector my_bits;
    std::vector<DealBlock> blocks;
    if (party_ < 2) {
      my_bits = RandomBoundedVector(rng_, total_bits, 1);
      blocks.push_back(DealBlock{my_bits, threshold()});
    }
    ASSIGN_OR_RETURN(std::vector<FieldVector> by_dealer, Deal(blocks, counts, "bit dealing"));
    ASSIGN_OR_RETURN(out.bits, XorOfDealerBits(by_dealer[0], by_dealer[1]));
    return out;
  }
  ASSIGN_OR_RETURN(PseudoRandomSharing * prss, PseudoRandom());
  Shares r(prss->Random(total_bits));
  Shares zero(prss->Zero(total_bits));
  ASSIGN_OR_RETURN(out.bits, BitsFromSquares(std::move(r), std::move(zero)));
  return out;
}

std::vector<MaskBatch> MpcEngine::AssembleMasks(absl::Span<const MaskSpec> specs,
                                                const Shares& bits, const Shares& high) {
  std::vector<MaskBatch> out;
  out.reserve(specs.size());
  size_t bit_offset = 0;
  size_t high_offset = 0;
  for (const MaskSpec& spec : specs) {
    MaskBatch batch;
    batch.spec = spec;
    batch.low = Shares(spec.count);
    for (size_t e = 0; e < spec.count; ++e) {
      FieldElement sum = FieldElement::Zero();
      for (int i = spec.low_bits - 1; i >= 0; --i) {
        sum = sum + sum + bits[bit_offset + e * spec.low_bits + i];
      }
      batch.low[e] = sum;
    }
    if (spec.keep_bits) batch.bits = bits.Slice(bit_offset, spec.count * spec.low_bits);
    bit_offset += spec.count * spec.low_bits;
    if (spec.high_bits > 0) {
      batch.high = high.Slice(high_offset, spec.count);
      high_offset += spec.count;
    }
    out.push_back(std::move(batch));
  }
  return out;
}

}  // namespace pplda::crypto

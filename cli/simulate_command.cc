// `pplda simulate`: the whole secure protocol in one process (every party a
// thread, the coordinator on the main thread, a simulated network between
// them; simulation/local_consortium.h) on real corpora, one folder or file
// per party. Writes the published model in the same JSON as `pplda train`,
// with the leakage statement and the dealer-mode label in its metadata.
//
// Vocabulary: --vocabulary FILE (one term per line, the consortium's public
// list), or, as a SIMULATION CONVENIENCE, the vocabulary built from the
// union of all parties' documents (a real consortium must agree on a public
// vocabulary or select one with DP; building it from the union would reveal
// every party's terms).
//
// Key: dealt here (DEALER MODE), or --key-dir DIR: the key `pplda keys deal`
// wrote for the same compute parties (DIR/public.key and DIR/<name>.key per
// compute party, "helper" for the helper), so that a simulation and a
// consortium of daemons can use the same key; or --dealer-free-key: generated
// here with no dealer by the simulated parties (simulation/dealer_free_key.h:
// the protocol of `pplda keys generate`, --key-bits long).
// Randomness: the OS generator, or, INSECURE and for tests only,
// --insecure-deterministic-rng-seed S: party p's sources are the seeded
// streams a party daemon with insecure_deterministic_rng_seed = S uses
// (party/party_randomness.h), so both publish the same model; the model's
// metadata says so. Only in builds with PPLDA_INSECURE_TEST_RANDOMNESS (OFF
// by default in Release builds); others refuse the flag at start.
//
// DP training (--dp-epsilon E [--dp-delta D] [--dp-max-tokens L]
// [--dp-max-term-count c] [--dp-noisy-iterations R], the flags and ranges of
// `pplda train`, cli/dp_flags.h): every party's documents are capped, the
// compute parties add distributed discrete Gaussian noise under encryption
// at every noisy iteration (docs/protocol.md "DP training"), calibrated for
// n compute parties and a coalition of t = the MPC threshold; the model file
// then records the budget in metadata.privacy (the format of plaintext DP
// models), the secure protocol's leakage statement, and no exact statistic
// of the documents (no per-party document or token count, timing or trace);
// --mixtures-dir is refused (exact mixtures).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/path_component.h"
#include "base/status_macros.h"
#include "cli/command.h"
#include "cli/dp_flags.h"
#include "cli/input_flags.h"
#include "cli/model_metadata.h"
#include "cli/number_flags.h"
#include "cli/output_paths.h"
#include "cli/party_flags.h"
#include "coordinator/published_model_metadata.h"
#include "crypto/paillier/paillier_dealer.h"
#include "crypto/paillier/paillier_key_file.h"
#include "crypto/random/secure_rng.h"
#include "lda/model_file.h"
#include "lda/preprocessor.h"
#include "lda/sampler_options.h"
#include "lda/vocabulary_file.h"
#include "party/party_randomness.h"
#include "protocol/consortium_policy.h"
#include "protocol/run_dp_budget.h"
#include "protocol/two_holder_disclosure.h"
#include "simulation/dealer_free_key.h"
#include "simulation/local_consortium.h"
#include "simulation/secure_vocabulary.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {
namespace {

struct SimulateFlags {
  InputFlags input;
  std::vector<std::string> parties;  // NAME=PATH
  std::string vocabulary_path;
  protocol::SecureLdaOptions lda;
  int iterations = 50;
  int key_bits = 2048;
  bool dealer_free_key = false;  // generate the key among the simulated parties
  std::string key_dir;  // empty: deal a key here
  uint64_t seed = 1;
  int threads = 0;
  int committee = 0;  // 0: every party computes; N: a committee of N serves them
  std::string draw = "cdf";
  bool verify_conversion = false;
  bool accept_two_holder_disclosure = false;
  std::string out = "model.json";
  std::string mixtures_dir;
  bool insecure_deterministic_rng = false;  // tests only
  uint64_t insecure_deterministic_rng_seed = 0;
  DpFlags dp;                       // the DP training and vocabulary flags (no final-count noise)
  std::string dp_vocab_candidates;  // the public candidates of the secure DP vocabulary
  int64_t dp_vocab_threshold = 0;
};

struct PartyCorpora {
  lda::Vocabulary vocabulary;
  std::vector<lda::Corpus> corpora;
  nlohmann::json info = nlohmann::json::object();
};

// Chooses the vocabulary from the parties' raw documents (the secure DP
// vocabulary), filling `info`.
using VocabularyChooser = std::function<absl::StatusOr<lda::Vocabulary>(
    const std::vector<lda::RawCorpus>& raws, nlohmann::json* info)>;

// True when both inputs hold the same documents (text and words), in order.
bool SameDocuments(const lda::RawCorpus& a, const lda::RawCorpus& b) {
  if (a.documents.size() != b.documents.size()) return false;
  for (size_t m = 0; m < a.documents.size(); ++m) {
    if (a.documents[m].text != b.documents[m].text ||
        a.documents[m].words != b.documents[m].words) {
      return false;
    }
  }
  return true;
}

absl::StatusOr<PartyCorpora> LoadParties(const SimulateFlags& f,
                                         const std::vector<NamedPath>& parties,
                                         const VocabularyChooser& dp_vocabulary, bool quiet) {
  ASSIGN_OR_RETURN(std::vector<lda::RawCorpus> raws,
                   ReadPartyDocuments(f.input, parties, "simulate", quiet));
  const lda::PreprocessOptions pre = PreprocessOptionsFrom(f.input);
  PartyCorpora out;
  if (dp_vocabulary) {
    ASSIGN_OR_RETURN(out.vocabulary, dp_vocabulary(raws, &out.info));
  } else if (!f.vocabulary_path.empty()) {
    ASSIGN_OR_RETURN(out.vocabulary, lda::ReadVocabularyFile(f.vocabulary_path));
    out.info["vocabulary"] = {{"source", "file"}, {"path", f.vocabulary_path}};
  } else {
    lda::RawCorpus all;
    for (const lda::RawCorpus& r : raws) {
      all.documents.insert(all.documents.end(), r.documents.begin(), r.documents.end());
    }
    lda::PreprocessReport report;
    ASSIGN_OR_RETURN(lda::Corpus union_corpus, lda::BuildCorpus(all, pre, &report));
    out.vocabulary = std::move(union_corpus.vocabulary);
    out.info["vocabulary"] = {
        {"source", "union of all parties' documents (simulation convenience: a real "
                   "consortium uses a public or DP-selected vocabulary)"},
        {"preprocessing", PreprocessingInfo(f.input, report)}};
  }
  nlohmann::json per_party = nlohmann::json::array();
  for (size_t i = 0; i < raws.size(); ++i) {
    lda::PreprocessReport report;
    ASSIGN_OR_RETURN(lda::Corpus c, lda::MapToVocabulary(raws[i], out.vocabulary, pre, &report));
    per_party.push_back({{"name", parties[i].name},
                         {"input", parties[i].path},
                         {"documents", c.num_documents()},
                         {"tokens", c.num_tokens()}});
    if (c.num_tokens() == 0) {
      return absl::InvalidArgumentError("party " + parties[i].name + " (" + parties[i].path +
                                        ") has no tokens over the shared vocabulary");
    }
    for (size_t j = 0; j < i; ++j) {
      // The same documents under two names (copied folders): refused, as
      // a consortium file's participants must bring their own.
      if (SameDocuments(raws[j], raws[i])) {
        return absl::InvalidArgumentError(absl::StrCat(
            "parties ", parties[j].name, " (", parties[j].path, ") and ", parties[i].name, " (",
            parties[i].path, ") hold the same documents: each participant brings its own"));
      }
    }
    out.corpora.push_back(std::move(c));
  }
  out.info["parties"] = per_party;
  out.info["vocabulary_size"] = out.vocabulary.size();
  return out;
}

std::string PhaseLine(const protocol::PartyPhaseTimes& t) {
  return absl::StrFormat("select %.2fs exch %.2fs conv %.2fs weights %.2fs draw %.2fs update %.2fs",
                         t.selection, t.exchange, t.conversion, t.weights, t.draw, t.update);
}

// The secure DP vocabulary needs public candidates and DP training (the
// vocabulary alone is `pplda vocab --dp`); the candidates need it.
absl::Status CheckSecureDpVocabularyFlags(const SimulateFlags& f,
                                          const privacy::DpTrainingOptions& dp) {
  if (!dp.vocabulary) {
    if (f.dp_vocab_threshold != 0) {
      return absl::InvalidArgumentError(
          "--dp-vocab-threshold is the DP vocabulary's: add --dp-vocab-epsilon and "
          "--dp-vocab-candidates");
    }
    if (!f.dp_vocab_candidates.empty()) {
      return absl::InvalidArgumentError(
          "--dp-vocab-candidates is the candidate list of the DP vocabulary: add "
          "--dp-vocab-epsilon (and --dp-epsilon)");
    }
    return absl::OkStatus();
  }
  if (f.dp_vocab_candidates.empty()) {
    return absl::InvalidArgumentError(
        "--dp-vocab-epsilon: simulate's DP vocabulary selects from a public list of candidate "
        "terms: give --dp-vocab-candidates FILE (for example `pplda vocab --input PUBLIC_DOCS "
        "--out FILE`)");
  }
  if (!dp.counts) {
    return absl::InvalidArgumentError(
        "--dp-vocab-epsilon without --dp-epsilon would publish exact counts: add --dp-epsilon "
        "(the run's budget), or use `pplda vocab --dp` for the vocabulary alone");
  }
  if (!f.vocabulary_path.empty()) {
    return absl::InvalidArgumentError(
        "--vocabulary and --dp-vocab-epsilon both choose the vocabulary: give one");
  }
  return absl::OkStatus();
}

// The secure DP vocabulary of the parties' raw documents over the public
// candidates (simulation/secure_vocabulary.h; a data-less helper has no
// documents).
absl::StatusOr<simulation::SecureVocabularyResult> SecureDpVocabulary(
    const SimulateFlags& f, const privacy::DpVocabularyOptions& options,
    const std::vector<lda::RawCorpus>& raws, const crypto::DealtKey& key,
    const party::ConsortiumRngFactory& rng_factory, bool quiet) {
  ASSIGN_OR_RETURN(lda::Vocabulary candidates, lda::ReadVocabularyFile(f.dp_vocab_candidates));
  simulation::SecureVocabularyOptions o;
  o.epsilon = options.epsilon;
  o.delta = options.delta;
  o.max_terms_per_document = options.max_terms_per_document;
  o.threshold = f.dp_vocab_threshold;
  o.threads = f.threads;
  o.committee = f.committee;
  o.run_id = "local-simulation/dp-vocabulary";
  ASSIGN_OR_RETURN(simulation::SecureVocabularyResult r,
                   simulation::RunSecureDpVocabularyOnDocuments(
                       raws, PreprocessOptionsFrom(f.input), candidates, key, rng_factory, o));
  if (!quiet) {
    spdlog::info(
        "DP vocabulary: {} of {} candidates selected in {:.1f} s ({:.2f} MB per party, "
        "{} rounds)",
        r.vocabulary.size(), candidates.size(), r.seconds, r.bytes_sent_per_party / 1e6, r.rounds);
  }
  return r;
}

// The run's accountant, budget (E, D): the vocabulary's (epsilon, delta)
// first (basic composition), then every release of DP training, which was
// calibrated on what the vocabulary left (protocol/run_dp_budget.h).
absl::StatusOr<privacy::PrivacyAccountant> RunAccountant(
    const privacy::DpTrainingOptions& requested,
    const std::optional<simulation::SecureVocabularyResult>& vocabulary,
    const privacy::PrivacyAccountant& training) {
  if (!vocabulary) return training;
  return protocol::ComposeRunAccountant(requested.counts->epsilon, requested.counts->delta,
                                        &vocabulary->plan, &vocabulary->accountant, training);
}

// The parties' random sources: libsodium's, or (tests only, refused unless
// built with PPLDA_INSECURE_TEST_RANDOMNESS: party/party_randomness.h)
// seeded deterministic streams, checked before anything is read or dealt.
absl::StatusOr<party::ConsortiumRngFactory> RngFactoryFor(const SimulateFlags& f) {
  if (!f.insecure_deterministic_rng) return party::ConsortiumRngFactory(party::OsRng);
  absl::StatusOr<party::ConsortiumRngFactory> insecure =
      party::InsecureDeterministicRngFactory(f.insecure_deterministic_rng_seed);
  if (!insecure.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--insecure-deterministic-rng-seed: ",
                                                   std::string(insecure.status().message())));
  }
  spdlog::warn("{} (--insecure-deterministic-rng-seed {})", party::kInsecureDeterministicRngWarning,
               f.insecure_deterministic_rng_seed);
  return insecure;
}

// Where the outputs go, checked before the secure run.
absl::Status PlanOutputs(const SimulateFlags& f, const std::vector<NamedPath>& named,
                         OutputPaths* outputs) {
  AddPartyInputPaths(f.input, named, outputs);
  outputs->AddInput("--vocabulary", f.vocabulary_path);
  outputs->AddInput("--dp-vocab-candidates", f.dp_vocab_candidates);
  outputs->AddInput("--key-dir", f.key_dir);
  RETURN_IF_ERROR(outputs->AddFile("--out", f.out));
  if (f.mixtures_dir.empty()) return absl::OkStatus();
  RETURN_IF_ERROR(
      outputs->AddFolder("--mixtures-dir", f.mixtures_dir, OutputPaths::FolderUse::kCreateOrReuse));
  for (const NamedPath& p : named) {
    RETURN_IF_ERROR(outputs->AddFile(
        "--mixtures-dir", (std::filesystem::path(f.mixtures_dir) / (p.name + ".csv")).string()));
  }
  return absl::OkStatus();
}

struct SimulationKey {
  crypto::DealtKey key;
  double seconds = 0;  // to generate, deal or read it
};

absl::StatusOr<SimulationKey> ObtainKey(const SimulateFlags& f, const GlobalFlags& g,
                                        const std::vector<NamedPath>& named, int n,
                                        const party::ConsortiumRngFactory& rng_factory) {
  const auto start = std::chrono::steady_clock::now();
  SimulationKey out;
  if (f.dealer_free_key) {
    if (!g.quiet) {
      spdlog::info(
          "generating a {}-bit threshold Paillier key with no dealer among the {} "
          "simulated compute parties",
          f.key_bits, n);
    }
    ASSIGN_OR_RETURN(out.key,
                     simulation::GenerateDealerFreeKeyInProcess(f.key_bits, n, rng_factory));
  } else if (f.committee > 0 && !f.key_dir.empty()) {
    // The committee's members are committee-0 .. committee-(n-1)
    // (simulation/local_consortium.h), their shares NAME.key there.
    std::vector<std::string> members;
    for (int j = 0; j < n; ++j) members.push_back(absl::StrCat("committee-", j));
    ASSIGN_OR_RETURN(out.key, ReadDealtKey(f.key_dir, members));
  } else {
    ASSIGN_OR_RETURN(out.key, LoadOrDealKey(f.key_dir, f.key_bits, named, n, g.quiet));
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

// The parties' documents, within the DP caps when DP training is on (the
// count of shortened documents is for the operator only: the model file
// does not hold it).
std::vector<simulation::ConsortiumParty> CappedParties(const PartyCorpora& data,
                                                       const std::vector<NamedPath>& named,
                                                       const privacy::DpTrainingOptions& dp,
                                                       bool quiet) {
  std::vector<simulation::ConsortiumParty> parties;
  int64_t capped = 0;
  for (size_t i = 0; i < named.size(); ++i) {
    simulation::ConsortiumParty p;
    p.name = named[i].name;
    for (const lda::Document& d : data.corpora[i].documents) {
      if (!dp.counts) {
        p.documents.push_back(d.tokens);
        continue;
      }
      lda::Document kept = privacy::CapDocument(d, dp.counts->caps);
      capped += kept.tokens.size() != d.tokens.size();
      p.documents.push_back(std::move(kept.tokens));
    }
    parties.push_back(std::move(p));
  }
  if (dp.counts && !quiet) {
    spdlog::info("DP training: {} documents shortened to the caps (L = {}, c = {})", capped,
                 dp.counts->caps.max_tokens, dp.counts->caps.max_per_term);
  }
  return parties;
}

// Runs every party in this process, with progress on the terminal.
absl::StatusOr<simulation::LocalConsortiumResult> RunConsortium(
    const SimulateFlags& f, const GlobalFlags& g, const std::vector<NamedPath>& named,
    const PartyCorpora& data, const privacy::DpTrainingOptions& dp, const crypto::DealtKey& key,
    const party::ConsortiumRngFactory& rng_factory) {
  std::vector<simulation::ConsortiumParty> parties = CappedParties(data, named, dp, g.quiet);
  simulation::LocalConsortiumOptions options;
  options.lda = f.lda;
  ASSIGN_OR_RETURN(options.lda.draw_method, protocol::DrawMethodFromName(f.draw));
  options.lda.verify_conversion = f.verify_conversion;
  options.iterations = f.iterations;
  options.seed = f.seed;
  options.threads = f.threads;
  options.committee = f.committee;
  options.dp = dp.counts;
  ProgressReporter progress("simulate", f.iterations, "iterations", g.progress_mode());
  options.on_step = [&](const coordinator::IterationReport& r) {
    if (r.iteration == 0 && !g.quiet) {
      spdlog::info("initial counts encrypted and folded in {:.2f} s", r.seconds);
    }
    if (r.iteration > 0) {
      progress.Update(r.iteration, absl::StrFormat("%.2f s/it (%s, fold %.2fs)", r.seconds,
                                                   PhaseLine(r.phases), r.aggregation));
    }
  };
  if (!g.quiet) {
    int64_t tokens = 0;
    for (const lda::Corpus& c : data.corpora) tokens += c.num_tokens();
    const std::string roles = f.committee > 0
                                  ? absl::StrCat(" served by a committee of ", f.committee)
                              : named.size() == 2 ? std::string(" + a data-less helper")
                                                  : std::string();
    spdlog::info("simulating {} parties{}: {} tokens, V = {}, K = {}, {} iterations", named.size(),
                 roles, tokens, data.vocabulary.size(), f.lda.num_topics, f.iterations);
  }
  ASSIGN_OR_RETURN(simulation::LocalConsortiumResult result,
                   simulation::RunLocalConsortium(std::move(parties), data.vocabulary, key,
                                                  rng_factory, options));
  progress.Finish(PhaseLine(result.stats.phases));
  return result;
}

// The published model's "training" record: the shared secure-run keys
// (coordinator/published_model_metadata.h) and this simulation's own.
nlohmann::json SimulationTrainingRecord(const SimulateFlags& f,
                                        const simulation::LocalConsortiumResult& result,
                                        double key_seconds) {
  const simulation::ConsortiumStats& s = result.stats;
  nlohmann::json training = coordinator::SecureTrainingRecord(
      "secure (simulated consortium)", f.iterations, f.draw, f.verify_conversion, result.model, s);
  training["seed"] = f.seed;
  training["randomness"] = f.insecure_deterministic_rng
                               ? absl::StrCat("INSECURE deterministic (seed ",
                                              f.insecure_deterministic_rng_seed, "; testing only)")
                               : std::string("operating system CSPRNG (libsodium)");
  training["key"] =
      f.key_dir.empty() ? std::string("dealt by this process") : "read from " + f.key_dir;
  training["threads"] = f.threads;
  if (f.dealer_free_key || f.key_dir.empty()) {
    training[f.dealer_free_key ? "key_generation_seconds" : "key_dealing_seconds"] = key_seconds;
  }
  training["partial_decryptions"] = s.partial_decryptions;
  training["mpc_rounds"] = s.rounds;
  training["mpc_bytes_sent_per_party"] = s.bytes_sent;
  return training;
}

// The published model's metadata. A DP model records parameters only: no
// timing, byte or round count (they depend on the data through the caps and
// clamping), no per-party document or token count, no seed.
absl::StatusOr<nlohmann::json> SimulationMetadata(
    const SimulateFlags& f, const std::vector<NamedPath>& named, const PartyCorpora& data,
    const simulation::LocalConsortiumResult& result, const SimulationKey& key,
    const privacy::DpTrainingOptions& dp_requested,
    const std::optional<simulation::SecureVocabularyResult>& vocabulary_release,
    const absl::StatusOr<privacy::PrivacyUnit>& parties_unit) {
  nlohmann::json training = SimulationTrainingRecord(f, result, key.seconds);
  protocol::LeakageContext leakage;
  leakage.setting = "secure multi-party simulation (all parties in one process)";
  leakage.key_origin = protocol::KeyOriginLabel(key.key.public_key->origin());
  leakage.data_holders = static_cast<int>(named.size());
  leakage.compute_parties = result.num_parties;
  leakage.holders_outside_committee = result.num_holders;
  leakage.modulus_bits =
      static_cast<int>(mpz_sizeinbase(key.key.public_key->paillier().n().get_mpz_t(), 2));
  if (f.insecure_deterministic_rng) {
    leakage.insecure_deterministic_rng_seed = f.insecure_deterministic_rng_seed;
  }
  nlohmann::json metadata = nlohmann::json::object();
  if (!dp_requested.counts) {
    AddStandardMetadata(&metadata, training, data.info);
    metadata["privacy"] = coordinator::PublishedPrivacyStatement(leakage, nullptr);
    return metadata;
  }
  coordinator::EraseExactStatistics(&training);
  training["seed"] = "secret (DP training: the initial topics' seed is not recorded)";
  nlohmann::json corpus = InputOptionsInfo(f.input);
  nlohmann::json party_names = nlohmann::json::array();
  for (const NamedPath& p : named) party_names.push_back({{"name", p.name}, {"input", p.path}});
  corpus["parties"] = party_names;
  corpus["vocabulary"] = data.info["vocabulary"].value("source", "");
  AddStandardMetadata(&metadata, training, corpus);
  ASSIGN_OR_RETURN(const privacy::PrivacyAccountant accountant,
                   RunAccountant(dp_requested, vocabulary_release, *result.accountant));
  coordinator::DpPublication dp{&dp_requested, &accountant, *parties_unit, result.dp_training,
                                vocabulary_release ? &vocabulary_release->plan : nullptr};
  metadata["privacy"] = coordinator::PublishedPrivacyStatement(leakage, &dp);
  ReportPrivacy(dp_requested, &accountant, *parties_unit, /*publishing=*/true);
  return metadata;
}

absl::Status WriteMixtures(const SimulateFlags& f, const std::vector<NamedPath>& named,
                           const PartyCorpora& data,
                           const simulation::LocalConsortiumResult& result) {
  if (f.mixtures_dir.empty()) return absl::OkStatus();
  std::error_code ec;
  std::filesystem::create_directories(f.mixtures_dir, ec);
  if (ec) {
    return absl::PermissionDeniedError("cannot create the mixtures folder " + f.mixtures_dir +
                                       ": " + ec.message());
  }
  // With a committee the data holders follow its members in the results.
  const size_t first = result.num_holders > 0 ? static_cast<size_t>(result.num_parties) : 0;
  for (size_t i = 0; i < named.size(); ++i) {
    RETURN_IF_ERROR(WriteTopicMixturesCsv(
        result.mixtures[first + i], data.corpora[i],
        (std::filesystem::path(f.mixtures_dir) / (named[i].name + ".csv")).string()));
  }
  return absl::OkStatus();
}

// Flags of this command that conflict with each other or with DP.
absl::Status CheckSimulateFlags(const SimulateFlags& f, const privacy::DpTrainingOptions& dp) {
  RETURN_IF_ERROR(CheckSecureDpVocabularyFlags(f, dp));
  if (!dp.counts) return absl::OkStatus();
  RETURN_IF_ERROR(privacy::ValidateDpCountOptions(*dp.counts, f.iterations));
  if (!f.mixtures_dir.empty()) {
    return absl::InvalidArgumentError(
        "--mixtures-dir cannot be used with --dp-epsilon: it would write each training "
        "document's exact topic mixture, which DP training does not release");
  }
  return absl::OkStatus();
}

// The steps: flags and outputs checked, the key, the parties' documents
// (and the secure DP vocabulary, when asked), the secure run, the model.
absl::Status RunSimulate(const SimulateFlags& f, const GlobalFlags& g) {
  if (!f.input.input.empty()) {
    return absl::InvalidArgumentError(
        "simulate reads one input per party: use --party NAME=PATH, "
        "not --input");
  }
  ASSIGN_OR_RETURN(const party::ConsortiumRngFactory rng_factory, RngFactoryFor(f));
  ASSIGN_OR_RETURN(privacy::DpTrainingOptions dp, DpOptionsFrom(f.dp, f.input, f.iterations));
  RETURN_IF_ERROR(CheckSimulateFlags(f, dp));
  const privacy::DpTrainingOptions dp_requested = dp;  // the run's whole budget
  ASSIGN_OR_RETURN(std::vector<NamedPath> named, ParseParties(f.parties));
  // The unit a DP budget is stated in, before the secure run.
  const absl::StatusOr<privacy::PrivacyUnit> parties_unit = PartiesPrivacyUnit(f.input, named);
  if (dp.enabled() && !parties_unit.ok()) return parties_unit.status();
  OutputPaths outputs;
  RETURN_IF_ERROR(PlanOutputs(f, named, &outputs));
  RETURN_IF_ERROR(protocol::CheckTwoHolderDisclosure(
      static_cast<int>(named.size()), dp.counts.has_value(), f.accept_two_holder_disclosure,
      "--accept-two-holder-disclosure"));
  ASSIGN_OR_RETURN(const int n, f.committee > 0
                                    ? absl::StatusOr<int>(f.committee)
                                    : protocol::ComputeParties(static_cast<int>(named.size())));
  ASSIGN_OR_RETURN(const SimulationKey key, ObtainKey(f, g, named, n, rng_factory));
  std::optional<simulation::SecureVocabularyResult> vocabulary_release;
  VocabularyChooser chooser;
  if (dp.vocabulary) {
    chooser = [&](const std::vector<lda::RawCorpus>& raws,
                  nlohmann::json* info) -> absl::StatusOr<lda::Vocabulary> {
      ASSIGN_OR_RETURN(vocabulary_release,
                       SecureDpVocabulary(f, *dp.vocabulary, raws, key.key, rng_factory, g.quiet));
      (*info)["vocabulary"] = {
          {"source", "secure DP set union over public candidates (pplda vocab --dp)"},
          {"candidates", f.dp_vocab_candidates}};
      return vocabulary_release->vocabulary;
    };
  }
  ASSIGN_OR_RETURN(PartyCorpora data, LoadParties(f, named, chooser, g.quiet));
  if (vocabulary_release) {
    // The counts get what the vocabulary left of the run's budget.
    dp.counts->epsilon -= vocabulary_release->accountant.epsilon();
    dp.counts->delta -= vocabulary_release->accountant.delta();
  }
  ASSIGN_OR_RETURN(simulation::LocalConsortiumResult result,
                   RunConsortium(f, g, named, data, dp, key.key, rng_factory));
  ASSIGN_OR_RETURN(result.model.metadata,
                   SimulationMetadata(f, named, data, result, key, dp_requested, vocabulary_release,
                                      parties_unit));
  RETURN_IF_ERROR(lda::WriteModelFile(result.model, f.out));
  RETURN_IF_ERROR(WriteMixtures(f, named, data, result));
  const simulation::ConsortiumStats& s = result.stats;
  std::printf("secure run: %d iterations in %.1f s (%.2f s/iteration), %llu partial decryptions, "
              "%llu MPC rounds; model written to %s%s\n",
              f.iterations, s.iteration_seconds,
              f.iterations > 0 ? s.iteration_seconds / f.iterations : 0.0,
              static_cast<unsigned long long>(s.partial_decryptions),
              static_cast<unsigned long long>(s.rounds), f.out.c_str(),
              outputs.ReplacedNote(f.out).c_str());
  return absl::OkStatus();
}

}  // namespace

void AddSimulateCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run) {
  auto flags = std::make_shared<SimulateFlags>();
  CLI::App* app = root.add_subcommand(
      "simulate", "Run the secure multi-party protocol in one process (dealer-mode key)");
  AddInputFlags(app, &flags->input, /*with_input=*/false);
  app->add_option("--party", flags->parties,
                  "NAME=PATH: one party's documents (repeat; 2 parties get a data-less helper)")
      ->required();
  app->add_option("--vocabulary", flags->vocabulary_path,
                  "Public vocabulary file (one term per line); default: the union of all "
                  "parties' documents (simulation convenience)");
  app->add_option("--topics,-k", flags->lda.num_topics, "Number of topics K")
      ->capture_default_str()
      ->check(NumberIn<int>(1, lda::kMaxTopics));
  app->add_option("--iterations,-n", flags->iterations, "Gibbs iterations")
      ->capture_default_str()
      ->check(NumberIn<int>(0, 1000000));
  app->add_option("--alpha", flags->lda.alpha, "Document-topic prior (a multiple of 1e-6)")
      ->capture_default_str()
      ->check(NumberIn<double>(kMinPrior, kMaxPrior));
  app->add_option("--beta", flags->lda.beta, "Topic-term prior (a multiple of 1e-6)")
      ->capture_default_str()
      ->check(NumberIn<double>(kMinPrior, kMaxPrior));
  CLI::Option* key_bits =
      app->add_option("--key-bits", flags->key_bits,
                      "Paillier modulus bits of the key made here, dealt or with "
                      "--dealer-free-key generated (2048 default; 1024 only to compare with the "
                      "literature)")
          ->capture_default_str()
          ->check(CLI::IsMember({1024, 2048, 3072, 4096}));
  CLI::Option* dealer_free =
      app->add_flag("--dealer-free-key", flags->dealer_free_key,
                    "Generate the key with NO DEALER among the simulated compute parties (the "
                    "protocol of `pplda keys generate`; this process still holds every share)");
  app->add_option("--key-dir", flags->key_dir,
                  "Use the key `pplda keys deal --out DIR` dealt to these compute parties "
                  "(DIR/public.key, DIR/NAME.key; \"helper\" for a helper; with --committee N, "
                  "committee-0 .. committee-(N-1)) instead of dealing one")
      ->check(CLI::ExistingDirectory)
      ->excludes(key_bits)
      ->excludes(dealer_free);
  app->add_option("--committee", flags->committee,
                  "A committee of N compute parties (odd, 3 or more; no documents) runs the MPC "
                  "and holds the key; every --party is then a data holder outside it, which "
                  "only encrypts its own inputs and receives its own draws (0: every party "
                  "computes)")
      ->capture_default_str()
      ->check(NumberIn<int>(0, 63));
  app->add_option("--draw", flags->draw,
                  "Secure draw: binary (binary search), tree (parallel tree) or cdf "
                  "(inverse CDF: fewest rounds)")
      ->capture_default_str()
      ->check(CLI::IsMember({"binary", "tree", "cdf"}));
  app->add_flag("--verify-conversion", flags->verify_conversion,
               "Proofs of correct decryption in every iteration, verified by every party");
  app->add_flag("--accept-two-holder-disclosure", flags->accept_two_holder_disclosure,
                "With two --party and no DP, each learns the other's topic-term counts (the "
                "published counts minus its own); refused without this flag");
  app->add_option("--seed", flags->seed, "Seed of the initial topics (the protocol's own "
                                         "randomness comes from the OS generator)")
      ->capture_default_str()
      ->check(NumberIn<uint64_t>(0, UINT64_MAX));
  app->add_option("--threads", flags->threads, "Worker threads shared by all roles (0 = all cores)")
      ->capture_default_str()
      ->check(NumberIn<int>(0, kMaxThreadsFlag));
  app->add_option("--out,-o", flags->out, "Model file to write (JSON)")->capture_default_str();
  app->add_option("--mixtures-dir", flags->mixtures_dir,
                  "Write each party's document topic mixtures to DIR/NAME.csv");
  CLI::Option* rng_seed = app->add_option(
      "--insecure-deterministic-rng-seed", flags->insecure_deterministic_rng_seed,
      "INSECURE, TESTS ONLY: every party's randomness from seeded streams, the ones party "
      "daemons with insecure_deterministic_rng_seed = SEED use (the model says so); refused "
      "unless built with PPLDA_INSECURE_TEST_RANDOMNESS")
      ->check(NumberIn<uint64_t>(0, INT64_MAX));  // what a TOML integer holds
  AddDpTrainingFlags(app, &flags->dp);
  AddDpVocabularyFlags(app, &flags->dp);
  app->add_option("--dp-vocab-candidates", flags->dp_vocab_candidates,
                  "The public candidate terms (one per line) the secure DP vocabulary selects "
                  "from (with --dp-vocab-epsilon)");
  app->add_option("--dp-vocab-threshold", flags->dp_vocab_threshold,
                  "Noisy document count a candidate needs (0 = about one absent candidate "
                  "selected in expectation)")
      ->capture_default_str()
      ->check(NumberIn<int64_t>(0, int64_t{1} << 40));
  app->callback([flags, &globals, run, rng_seed] {
    flags->insecure_deterministic_rng = rng_seed->count() > 0;
    *run = [flags, &globals] { return RunSimulate(*flags, globals); };
  });
}

}  // namespace pplda::cli

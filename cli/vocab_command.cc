// `pplda vocab`: a vocabulary file.
//   pplda vocab --input DOCS --out FILE
//     the terms of documents that may be published as they are (a public
//     corpus), preprocessed as `pplda train` does: the candidate list of
//     the DP form;
//   pplda vocab --dp --candidates FILE --party NAME=PATH ... --out FILE
//     the secure DP vocabulary of a consortium, every party in this process
//     (simulation/secure_vocabulary.h; docs/privacy.md, "Secure DP
//     vocabulary"): which public candidates enough of the parties' documents
//     hold, decided on encrypted, noised counts; (epsilon, delta)-DP for the
//     list. Writes FILE and FILE.privacy.json (the budget and mechanism).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "base/atomic_file.h"
#include "base/status_macros.h"
#include "cli/command.h"
#include "cli/dp_flags.h"
#include "cli/input_flags.h"
#include "cli/number_flags.h"
#include "cli/output_paths.h"
#include "cli/party_flags.h"
#include "lda/preprocessor.h"
#include "lda/vocabulary_file.h"
#include "party/party_randomness.h"
#include "privacy/privacy_unit.h"
#include "protocol/consortium_policy.h"
#include "simulation/secure_vocabulary.h"
#include "spdlog/spdlog.h"

namespace pplda::cli {
namespace {

struct VocabFlags {
  InputFlags input;
  bool dp = false;
  std::vector<std::string> parties;  // NAME=PATH
  std::string candidates;
  simulation::SecureVocabularyOptions secure;
  int key_bits = 2048;
  std::string key_dir;
  std::string out;
};

absl::Status WriteVocabularyOf(const VocabFlags& f, const GlobalFlags& g) {
  if (!f.parties.empty() || !f.candidates.empty()) {
    return absl::InvalidArgumentError(
        "--party and --candidates are for the DP vocabulary: add --dp");
  }
  OutputPaths outputs;
  AddInputPaths(f.input, &outputs);
  RETURN_IF_ERROR(outputs.AddFile("--out", f.out));
  ASSIGN_OR_RETURN(LoadedCorpus data, LoadCorpus(f.input, g.quiet));
  RETURN_IF_ERROR(lda::WriteVocabularyFile(data.train.vocabulary, f.out));
  std::printf(
      "wrote %d terms of %s to %s (not differentially private: use it for documents "
      "that may be published, such as a public corpus for `pplda vocab --dp --candidates`)\n",
      data.train.vocabulary.size(), f.input.input.c_str(), f.out.c_str());
  return absl::OkStatus();
}

nlohmann::json PrivacyRecord(const VocabFlags& f, const simulation::SecureVocabularyResult& r,
                             const privacy::PrivacyUnit& unit,
                             const std::vector<NamedPath>& named) {
  nlohmann::json parties = nlohmann::json::array();
  for (const NamedPath& p : named) parties.push_back(p.name);
  return {{"format", "pplda-dp-vocabulary"},
          {"version", 1},
          {"epsilon", r.accountant.epsilon()},
          {"delta", r.accountant.delta()},
          {"covers",
           "the list of terms (which public candidates were selected), against any coalition of "
           "up to t compute parties pooling their views and noise shares; not each party's "
           "exact document count, which the party reads itself"},
          {"privacy_unit",
           privacy::PrivacyUnitJson(unit, r.accountant.epsilon(), r.accountant.delta())},
          {"accountant", r.accountant.ToJson()},
          {"mechanism", r.plan.Describe()},
          {"candidates_file", f.candidates},
          {"parties", parties},
          {"key",
           "dealt by a trusted dealer (simulation: whoever dealt it can decrypt the "
           "parties' contributions)"}};
}

absl::Status WriteDpVocabulary(const VocabFlags& f, const GlobalFlags& g) {
  if (f.candidates.empty()) {
    return absl::InvalidArgumentError(
        "--dp needs --candidates FILE: the public list of terms to select from (for example "
        "`pplda vocab --input PUBLIC_DOCS --out FILE`)");
  }
  if (!f.input.input.empty()) {
    return absl::InvalidArgumentError("--dp reads one input per party: use --party NAME=PATH");
  }
  ASSIGN_OR_RETURN(std::vector<NamedPath> named, ParseParties(f.parties));
  ASSIGN_OR_RETURN(const privacy::PrivacyUnit unit, PartiesPrivacyUnit(f.input, named));
  OutputPaths outputs;
  AddPartyInputPaths(f.input, named, &outputs);
  outputs.AddInput("--candidates", f.candidates);
  outputs.AddInput("--key-dir", f.key_dir);
  RETURN_IF_ERROR(outputs.AddFile("--out", f.out));
  RETURN_IF_ERROR(outputs.AddFile("--out (its privacy record)", f.out + ".privacy.json"));
  ASSIGN_OR_RETURN(lda::Vocabulary candidates, lda::ReadVocabularyFile(f.candidates));
  ASSIGN_OR_RETURN(const int n, protocol::ComputeParties(static_cast<int>(named.size())));
  ASSIGN_OR_RETURN(std::vector<lda::RawCorpus> raws,
                   ReadPartyDocuments(f.input, named, "the DP vocabulary", g.quiet));
  ASSIGN_OR_RETURN(crypto::DealtKey key, LoadOrDealKey(f.key_dir, f.key_bits, named, n, g.quiet));
  ASSIGN_OR_RETURN(
      simulation::SecureVocabularyResult r,
      simulation::RunSecureDpVocabularyOnDocuments(raws, PreprocessOptionsFrom(f.input), candidates,
                                                   key, party::OsRng, f.secure));
  RETURN_IF_ERROR(lda::WriteVocabularyFile(r.vocabulary, f.out));
  RETURN_IF_ERROR(WriteFileAtomically(f.out + ".privacy.json",
                                      PrivacyRecord(f, r, unit, named).dump(2) + "\n"));
  std::printf(
      "DP vocabulary: %d of %d candidate terms selected (threshold %lld documents, noise "
      "share variance %.4g per party, %d compute parties) in %.1f s; %.2f MB sent per "
      "party in %d rounds\n",
      r.vocabulary.size(), candidates.size(), static_cast<long long>(r.plan.threshold),
      r.plan.noise.share_variance.get_d(), n, r.seconds, r.bytes_sent_per_party / 1e6, r.rounds);
  std::printf(
      "differential privacy: (%.6g, %.3g)-DP for the vocabulary (secure DP set union over "
      "the public candidates); the privacy record is %s.privacy.json\n",
      r.accountant.epsilon(), r.accountant.delta(), f.out.c_str());
  std::printf("%s\n",
              privacy::PrivacyUnitLine(unit, r.accountant.epsilon(), r.accountant.delta()).c_str());
  std::printf("wrote %s\n", f.out.c_str());
  return absl::OkStatus();
}

}  // namespace

void AddVocabCommand(CLI::App& root, const GlobalFlags& globals, CommandFn* run) {
  auto flags = std::make_shared<VocabFlags>();
  CLI::App* app = root.add_subcommand(
      "vocab",
      "Write a vocabulary file: the terms of public documents, or (--dp) a consortium's "
      "differentially private selection from public candidates");
  AddInputFlags(app, &flags->input);
  app->get_option("--input")->required(false)->description(
      "Documents whose terms may be published as they are (not with --dp)");
  app->add_flag("--dp", flags->dp,
                "Select from --candidates the terms enough of the parties' documents hold, on "
                "encrypted, noised counts (secure DP set union)");
  app->add_option("--party", flags->parties, "NAME=PATH: a party's raw documents (with --dp)");
  app->add_option("--candidates", flags->candidates,
                  "The public candidate terms, one per line (with --dp)");
  simulation::SecureVocabularyOptions& s = flags->secure;
  s.max_terms_per_document = kDefaultDpVocabMaxTerms;  // as pplda train / simulate / run start
  app->add_option("--dp-vocab-epsilon", s.epsilon, "Epsilon of the vocabulary release")
      ->capture_default_str()
      ->check(NumberIn<double>(1e-6, 1e6));
  app->add_option("--dp-vocab-delta", s.delta, "Delta of the vocabulary release")
      ->capture_default_str()
      ->check(NumberIn<double>(1e-300, 0.5));
  app->add_option("--dp-vocab-max-terms", s.max_terms_per_document,
                  "Candidate terms each document contributes (its most frequent)")
      ->capture_default_str()
      ->check(NumberIn<int>(1, 1'000'000));
  app->add_option("--dp-vocab-threshold", s.threshold,
                  "Noisy document count a candidate needs (0 = about one absent candidate "
                  "selected in expectation)")
      ->capture_default_str()
      ->check(NumberIn<int64_t>(0, int64_t{1} << 40));
  app->add_option("--key-bits", flags->key_bits, "Bits of the dealt Paillier key")
      ->capture_default_str()
      ->check(CLI::IsMember({1024, 2048, 3072}));
  app->add_option("--key-dir", flags->key_dir,
                  "Read the key `pplda keys deal --out DIR` wrote instead of dealing one");
  app->add_option("--threads", s.threads, "Worker threads (0 = all cores)")
      ->capture_default_str()
      ->check(NumberIn<int>(0, kMaxThreadsFlag));
  app->add_option("--out,-o", flags->out, "Vocabulary file to write")->required();
  app->callback([flags, &globals, run] {
    *run = [flags, &globals]() -> absl::Status {
      return flags->dp ? WriteDpVocabulary(*flags, globals) : WriteVocabularyOf(*flags, globals);
    };
  });
}

}  // namespace pplda::cli

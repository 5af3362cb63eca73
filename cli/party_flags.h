// The consortium flags shared by the commands that run every party in one
// process (`pplda simulate`, `pplda vocab --dp`): --party NAME=PATH and the
// key a `pplda keys deal --out DIR` wrote.
#ifndef PPLDA_CLI_PARTY_FLAGS_H_
#define PPLDA_CLI_PARTY_FLAGS_H_

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cli/input_flags.h"
#include "cli/output_paths.h"
#include "crypto/paillier/paillier_dealer.h"
#include "lda/document_reader.h"
#include "privacy/privacy_unit.h"

namespace pplda::cli {

struct NamedPath {
  std::string name;
  std::string path;
};

// NAME=PATH specs: names unique and usable as file names, at least 2
// parties (InvalidArgument naming the spec otherwise).
absl::StatusOr<std::vector<NamedPath>> ParseParties(const std::vector<std::string>& specs);

// Registers every party's input paths (AddInputPaths with "--party NAME").
void AddPartyInputPaths(const InputFlags& input, const std::vector<NamedPath>& parties,
                        OutputPaths* paths);

// Each party's raw documents, read with `input`'s options (its path
// replaced by the party's). A folder written by `pplda prepare` is refused:
// `reader` ("simulate", "the DP vocabulary") names who reads raw documents.
absl::StatusOr<std::vector<lda::RawCorpus>> ReadPartyDocuments(
    const InputFlags& input, const std::vector<NamedPath>& parties, const std::string& reader,
    bool quiet);

// The privacy unit of the parties' documents (PrivacyUnitFor each party's
// path: a folder reads one document per file, a file one per line).
// InvalidArgument naming two parties whose documents are units of
// different kinds (one budget cannot state both).
absl::StatusOr<privacy::PrivacyUnit> PartiesPrivacyUnit(const InputFlags& input,
                                                        const std::vector<NamedPath>& parties);

// The key `pplda keys deal --out DIR` dealt to `compute_parties` (in
// consortium order): DIR/public.key and one DIR/<name>.key per party, each
// share of the same key and at its party's position.
absl::StatusOr<crypto::DealtKey> ReadDealtKey(const std::filesystem::path& dir,
                                              const std::vector<std::string>& compute_parties);

// The key for n compute parties: read from `key_dir` (ReadDealtKey, the
// helper named "helper") or, when it is empty, dealt here with `key_bits`
// (DEALER MODE, simulation only; logged unless quiet).
absl::StatusOr<crypto::DealtKey> LoadOrDealKey(const std::string& key_dir, int key_bits,
                                               const std::vector<NamedPath>& parties, int n,
                                               bool quiet);

}  // namespace pplda::cli

#endif  // PPLDA_CLI_PARTY_FLAGS_H_

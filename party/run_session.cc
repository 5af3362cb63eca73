#include "party/run_session.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/atomic_file.h"
#include "base/path_component.h"
#include "base/status_macros.h"
#include "lda/gibbs_state.h"
#include "privacy/dp_vocabulary.h"
#include "protocol/run_parameters.h"
#include "protocol/run_state_file.h"
#include "protocol/vocabulary_digest.h"

namespace pplda::party {

absl::Status CheckJoin(const std::string& run_id, const pplda::v1::RunParameters& parameters,
                       const std::string& vocabulary_sha256) {
  // The run id names this party's folder state_dir/runs/<run id>/.
  RETURN_IF_ERROR(CheckPathComponent(run_id, "header.run_id"));
  RETURN_IF_ERROR(protocol::CheckRunParameters(parameters));
  if (parameters.vocabulary_sha256() != vocabulary_sha256) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id, ": the coordinator's vocabulary has SHA-256 ",
                     parameters.vocabulary_sha256(), ", this party's ", vocabulary_sha256,
                     ": every participant must hold the same vocabulary file"));
  }
  return absl::OkStatus();
}

pplda::v1::PartyRunState RunStateBoundary(const std::string& run_id, const std::string& participant,
                                          int iteration, const std::array<uint8_t, 32>& plan_digest,
                                          int owner_index,
                                          const pplda::v1::RunParameters& parameters,
                                          const std::vector<int64_t>& tokens,
                                          const std::vector<std::vector<int>>& assignments) {
  pplda::v1::PartyRunState state;
  pplda::v1::RunStateHeader& header = *state.mutable_header();
  header.set_run_id(run_id);
  header.set_participant(participant);
  header.set_iteration(iteration);
  header.set_plan_digest(std::string(plan_digest.begin(), plan_digest.end()));
  state.set_party_index(static_cast<uint32_t>(owner_index));
  *state.mutable_parameters() = parameters;
  for (int64_t t : tokens) state.add_tokens_per_party(static_cast<uint64_t>(t));
  for (const std::vector<int>& document : assignments) {
    for (int k : document) state.add_topics(static_cast<uint32_t>(k));
  }
  return state;
}

std::filesystem::path PublishedMarkerPath(const std::filesystem::path& state_dir,
                                          const std::string& run_id) {
  return state_dir / "runs" / run_id / "published";
}

absl::Status WriteRunStateBoundary(const std::filesystem::path& state_dir,
                                   const std::string& run_id, const pplda::v1::PartyRunState& state,
                                   int* file_iteration) {
  const int iteration = state.header().iteration();
  const std::filesystem::path path = protocol::RunStatePath(state_dir, run_id);
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create ", path.parent_path().string(), ": ", ec.message()));
  }
  // A rename: a crash right after it leaves the previous boundary, which
  // a resumption reads.
  if (*file_iteration >= 0 && *file_iteration < iteration && std::filesystem::exists(path, ec)) {
    const std::filesystem::path previous = protocol::PreviousRunStatePath(state_dir, run_id);
    std::filesystem::rename(path, previous, ec);
    if (ec) {
      return absl::PermissionDeniedError(absl::StrCat("cannot rename ", path.string(), " to ",
                                                      previous.string(), ": ", ec.message()));
    }
  }
  RETURN_IF_ERROR(protocol::WriteRunState(path, state));
  *file_iteration = iteration;
  return absl::OkStatus();
}

absl::StatusOr<pplda::v1::PartyRunState> ReadRunStateAt(const std::filesystem::path& state_dir,
                                                        const std::string& run_id,
                                                        const std::string& participant,
                                                        int iteration, int* file_iteration) {
  std::string found;
  absl::StatusCode code = absl::StatusCode::kNotFound;
  const std::filesystem::path latest = protocol::RunStatePath(state_dir, run_id);
  for (const std::filesystem::path& path :
       {latest, protocol::PreviousRunStatePath(state_dir, run_id)}) {
    absl::StatusOr<pplda::v1::PartyRunState> state =
        protocol::ReadPartyRunState(path, run_id, participant);
    if (state.ok() && path == latest) *file_iteration = state->header().iteration();
    if (state.ok() && state->header().iteration() == iteration) return state;
    if (!state.ok() && state.status().code() != absl::StatusCode::kNotFound &&
        code == absl::StatusCode::kNotFound) {
      code = state.status().code();
    }
    absl::StrAppend(&found, found.empty() ? "" : "; ",
                    state.ok()
                        ? absl::StrCat(path.string(), ": iteration ", state->header().iteration())
                        : std::string(state.status().message()));
  }
  return absl::Status(code, absl::StrCat("run ", run_id, ": this party has no saved state after ",
                                         iteration, " iterations (", found, ")"));
}

absl::StatusOr<std::vector<std::vector<int>>> SplitSavedTopics(
    const std::string& run_id, const lda::Corpus& corpus,
    const google::protobuf::RepeatedField<uint32_t>& topics) {
  if (topics.size() != corpus.num_tokens()) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id, ": the saved state has ", topics.size(),
                     " topics, this party's documents ", corpus.num_tokens(), " tokens"));
  }
  std::vector<std::vector<int>> out;
  int64_t next = 0;
  for (const lda::Document& d : corpus.documents) {
    const auto length = static_cast<int64_t>(d.tokens.size());
    out.emplace_back(topics.begin() + next, topics.begin() + next + length);
    next += length;
  }
  return out;
}

absl::StatusOr<std::string> WriteMixturesFile(const std::filesystem::path& state_dir,
                                              const std::string& run_id, const lda::Corpus& corpus,
                                              const std::vector<std::vector<double>>& theta,
                                              int num_topics) {
  const std::filesystem::path dir = state_dir / "runs" / run_id;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::PermissionDeniedError("cannot create " + dir.string() + ": " + ec.message());
  const std::filesystem::path path = dir / "mixtures.csv";
  std::string text = "document";
  for (int k = 0; k < num_topics; ++k) absl::StrAppend(&text, ",topic_", k);
  text += "\n";
  for (size_t m = 0; m < theta.size(); ++m) {
    std::string name = corpus.documents[m].name;
    if (name.find_first_of(",\"\n") != std::string::npos) {
      std::string quoted = "\"";
      for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      name = quoted + "\"";
    }
    text += name;
    for (double v : theta[m]) absl::StrAppendFormat(&text, ",%.6g", v);
    text += "\n";
  }
  RETURN_IF_ERROR(WriteFileAtomically(path, text, FileMode::kPrivate));
  return path.string();
}

std::vector<std::vector<int>> InitialTopics(const lda::Corpus& corpus, int num_topics,
                                            const std::optional<uint64_t>& seed, int index,
                                            crypto::SecureRng& rng) {
  if (seed.has_value()) {
    // The same derivation as simulation/local_consortium.cc, so that a run
    // with the same seed starts from the same topics.
    return lda::GibbsState::RandomTopics(corpus, num_topics,
                                         *seed * 1000003ULL + static_cast<uint64_t>(index));
  }
  std::vector<std::vector<int>> topics;
  for (const lda::Document& d : corpus.documents) {
    std::vector<int> z(d.tokens.size());
    for (int& k : z) k = static_cast<int>(rng.UniformUint64(static_cast<uint64_t>(num_topics)));
    topics.push_back(std::move(z));
  }
  return topics;
}

absl::Status CheckVocabularyStep(const std::string& run_id, bool has_dp_vocabulary, bool prepared) {
  if (!has_dp_vocabulary) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id,
                     " has no DP vocabulary (dp_vocab_epsilon 0): its vocabulary is the "
                     "consortium's file"));
  }
  if (prepared) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id, " is already prepared"));
  }
  return absl::OkStatus();
}

std::string UseSelectedVocabulary(const std::vector<lda::TermId>& selected,
                                  const privacy::DocumentCaps& caps,
                                  std::unique_ptr<lda::Corpus>* owned, const lda::Corpus** corpus,
                                  pplda::v1::RunParameters* parameters) {
  const lda::Corpus restricted = privacy::RestrictToTerms(**corpus, selected, nullptr);
  *owned = std::make_unique<lda::Corpus>(privacy::CapDocuments(restricted, caps, nullptr));
  *corpus = owned->get();
  const std::string sha = protocol::VocabularySha256((*corpus)->vocabulary);
  parameters->set_vocabulary_sha256(sha);
  return sha;
}

pplda::v1::VocabularyReply SelectionReply(const std::string& vocabulary_sha256,
                                          const lda::Corpus& corpus) {
  pplda::v1::VocabularyReply reply;
  reply.set_vocabulary_sha256(vocabulary_sha256);
  reply.set_vocabulary_size(static_cast<uint32_t>(corpus.vocabulary.size()));
  reply.set_tokens(static_cast<uint64_t>(corpus.num_tokens()));
  reply.set_documents(static_cast<uint64_t>(corpus.num_documents()));
  return reply;
}

absl::StatusOr<std::vector<lda::TermId>> SavedSelectedTerms(const std::string& run_id,
                                                            const pplda::v1::PartyRunState& state,
                                                            int32_t candidates) {
  std::vector<lda::TermId> selected(state.selected_terms().begin(), state.selected_terms().end());
  for (size_t i = 0; i < selected.size(); ++i) {
    if (selected[i] < 0 || selected[i] >= candidates || (i > 0 && selected[i] <= selected[i - 1])) {
      return absl::FailedPreconditionError(absl::StrCat(
          "run ", run_id, ": the saved state's selected terms are not increasing ids below ",
          candidates));
    }
  }
  if (selected.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id, ": the saved state has no selected vocabulary"));
  }
  return selected;
}

absl::Status DebitRunBudget(const std::filesystem::path& state_dir, const std::string& run_id,
                            const std::optional<privacy::DpCountOptions>& dp,
                            const std::optional<PrivacyBudget>& budget) {
  if (!budget.has_value()) return absl::OkStatus();
  if (!dp.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id,
        " has no differential privacy and would publish exact counts of this "
        "party's documents, which have a privacy budget (privacy_budget_epsilon in party.toml): "
        "start the run with --dp-epsilon"));
  }
  ASSIGN_OR_RETURN(PrivacyLedger ledger, PrivacyLedger::Load(state_dir));
  return ledger.Debit(run_id, dp->epsilon, dp->delta, *budget);
}

}  // namespace pplda::party

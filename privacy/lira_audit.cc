#include "privacy/lira_audit.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <utility>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "base/thread_pool.h"
#include "lda/random.h"
#include "lda/sampler_options.h"

namespace pplda::privacy {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What one worker records for model j.
struct ModelOutcome {
  absl::Status status;
  double train_seconds = 0;
  double score_seconds = 0;
  int64_t not_converged = 0;
  int64_t evaluations = 0;
  double max_gap = 0;
};

lda::Corpus MemberCorpus(const lda::Corpus& corpus, const std::vector<int32_t>& members) {
  lda::Corpus part;
  part.vocabulary = corpus.vocabulary;
  part.documents.reserve(members.size());
  for (int32_t d : members) part.documents.push_back(corpus.documents[d]);
  return part;
}

// Trains model j and writes its row of the zeta matrix.
ModelOutcome TrainAndScore(int j, const lda::Corpus& corpus, const std::vector<BagOfWords>& bags,
                           const ShadowTrainer& trainer, const MembershipPlan& plan,
                           const AuditOptions& options, double* zeta_row) {
  ModelOutcome outcome;
  const Clock::time_point start = Clock::now();
  const uint64_t seed =
      lda::Rng::ForStream(options.seed, kShadowSeedStreams | static_cast<uint64_t>(j)).Next();
  absl::StatusOr<lda::LdaModel> model = trainer.Train(MemberCorpus(corpus, plan.Members(j)), seed);
  outcome.train_seconds = SecondsSince(start);
  if (!model.ok()) {
    outcome.status = model.status();
    return outcome;
  }
  const Clock::time_point scoring = Clock::now();
  absl::StatusOr<ZetaScorer> scorer = ZetaScorer::Create(*model, corpus.vocabulary, options.zeta);
  if (!scorer.ok()) {
    outcome.status = scorer.status();
    return outcome;
  }
  for (size_t d = 0; d < bags.size(); ++d) {
    const ZetaResult r = scorer->Score(bags[d]);
    zeta_row[d] = r.value;
    outcome.not_converged += r.converged ? 0 : 1;
    outcome.evaluations += r.iterations;
    outcome.max_gap = std::max(outcome.max_gap, r.gap);
  }
  outcome.score_seconds = SecondsSince(scoring);
  return outcome;
}

// Folds the workers' records into the result; the first failing model's
// status (lowest index) if any.
absl::Status Collect(const std::vector<ModelOutcome>& outcomes, AuditResult* result) {
  for (size_t j = 0; j < outcomes.size(); ++j) {
    const ModelOutcome& o = outcomes[j];
    if (!o.status.ok()) {
      return absl::Status(o.status.code(), absl::StrFormat("audit model %d of %d: %s", j,
                                                           outcomes.size(), o.status.message()));
    }
    result->timing.train_seconds += o.train_seconds;
    result->timing.score_seconds += o.score_seconds;
    result->convergence.not_converged += o.not_converged;
    result->convergence.max_gap = std::max(result->convergence.max_gap, o.max_gap);
    result->convergence.mean_iterations += static_cast<double>(o.evaluations);
  }
  result->convergence.documents_scored =
      static_cast<int64_t>(outcomes.size()) * result->num_documents;
  result->convergence.mean_iterations /= std::max<int64_t>(1, result->convergence.documents_scored);
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateAuditOptions(const AuditOptions& options) {
  if (options.num_shadows < kMinShadows || options.num_shadows > kMaxShadows) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the number of shadow models must be in [%d, %d], got %d", kMinShadows, kMaxShadows,
        options.num_shadows));
  }
  if (options.threads < 0 || options.threads > lda::kMaxThreads) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "audit threads must be in [0, %d], got %d", lda::kMaxThreads, options.threads));
  }
  return ValidateZetaOptions(options.zeta);
}

absl::Status ValidateAuditRequest(int32_t num_documents, const AuditOptions& options) {
  RETURN_IF_ERROR(ValidateAuditOptions(options));
  if (num_documents < kMinAuditDocuments) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "refusing to audit a corpus of %d documents: the audit needs at least %d (each model "
        "trains on half of them); add documents or check the preprocessing options",
        num_documents, kMinAuditDocuments));
  }
  const int64_t models = options.num_shadows + 1;
  const int64_t negatives = models * (num_documents / 2);
  if (negatives < kMinNonMemberScores) {
    const int64_t needed = (kMinNonMemberScores + num_documents / 2 - 1) / (num_documents / 2) - 1;
    return absl::FailedPreconditionError(absl::StrFormat(
        "corpus too small for %d shadow models: %d models x %d non-members = %d non-member "
        "scores, but a 0.1%% false-positive rate needs at least %d; use at least %d shadows or "
        "more documents",
        options.num_shadows, models, num_documents / 2, negatives, kMinNonMemberScores, needed));
  }
  const int64_t bytes = models * num_documents * static_cast<int64_t>(sizeof(double));
  if (bytes > kMaxZetaMatrixBytes) {
    const int64_t most = kMaxZetaMatrixBytes / (int64_t{num_documents} * 8) - 1;
    return absl::ResourceExhaustedError(absl::StrFormat(
        "too many shadow models for %d documents: %d models need a %d MiB zeta matrix, over the "
        "%d MiB limit; use at most %d shadows",
        num_documents, models, bytes >> 20, kMaxZetaMatrixBytes >> 20, most));
  }
  return absl::OkStatus();
}

absl::StatusOr<AuditResult> RunLiraAudit(const lda::Corpus& corpus, const ShadowTrainer& trainer,
                                         const AuditOptions& options) {
  RETURN_IF_ERROR(corpus.Validate());
  RETURN_IF_ERROR(ValidateAuditRequest(corpus.num_documents(), options));
  const Clock::time_point start = Clock::now();
  AuditResult result;
  result.num_documents = corpus.num_documents();
  result.num_tokens = corpus.num_tokens();
  result.vocabulary_size = corpus.vocabulary.size();
  result.trainer = trainer.Describe();
  result.parameters = {options.num_shadows, options.seed, options.zeta, options.lira.variance};
  const int models = options.num_shadows + 1;
  ASSIGN_OR_RETURN(result.plan, MembershipPlan::Create(models, result.num_documents, options.seed));
  std::vector<BagOfWords> bags;
  bags.reserve(corpus.documents.size());
  for (const lda::Document& doc : corpus.documents) bags.push_back(MakeBagOfWords(doc.tokens));
  result.zeta.num_models = models;
  result.zeta.num_documents = result.num_documents;
  result.zeta.values.assign(static_cast<size_t>(models) * result.num_documents, 0.0);

  std::vector<ModelOutcome> outcomes(models);
  std::atomic<bool> failed{false};
  std::mutex progress_mu;
  int done = 0;
  const int threads = std::min(lda::ResolveThreadCount(options.threads), models);
  result.timing.threads = threads;
  ThreadPool pool(threads);
  pool.ParallelForChunks(models, models, [&](size_t begin, size_t end, int) {
    for (size_t j = begin; j < end; ++j) {
      if (failed.load()) return;
      double* row = &result.zeta.values[j * result.num_documents];
      outcomes[j] = TrainAndScore(static_cast<int>(j), corpus, bags, trainer, result.plan,
                                  options, row);
      if (!outcomes[j].status.ok()) failed.store(true);
      std::lock_guard<std::mutex> lock(progress_mu);
      ++done;
      if (options.on_model_done) options.on_model_done(done, models);
    }
  });
  RETURN_IF_ERROR(Collect(outcomes, &result));
  const Clock::time_point evaluating = Clock::now();
  ASSIGN_OR_RETURN(result.evaluation, EvaluateLira(result.zeta, result.plan, options.lira));
  result.exposures = DocumentExposures(result.zeta, result.plan);
  result.timing.evaluate_seconds = SecondsSince(evaluating);
  result.timing.wall_seconds = SecondsSince(start);
  return result;
}

}  // namespace pplda::privacy

#include "lda/lda_sampler.h"

#include <string>

#include "base/status_macros.h"

namespace pplda::lda {

LdaSampler::LdaSampler(const Corpus& corpus, const SamplerOptions& options,
                       GibbsState state)
    : options_(options),
      num_threads_(ResolveThreadCount(options.threads)),
      vocabulary_(corpus.vocabulary),
      state_(std::move(state)) {
  if (num_threads_ > 1) pool_ = std::make_unique<ThreadPool>(num_threads_);
}

absl::StatusOr<GibbsState> LdaSampler::InitialState(
    const Corpus& corpus, const SamplerOptions& options,
    const std::vector<std::vector<int>>* initial_topics) {
  RETURN_IF_ERROR(ValidateSamplerOptions(options));
  if (initial_topics != nullptr) {
    return GibbsState::Create(corpus, options.num_topics, *initial_topics);
  }
  return GibbsState::Create(
      corpus, options.num_topics,
      GibbsState::RandomTopics(corpus, options.num_topics, options.seed));
}

double LdaSampler::LogLikelihood() const {
  SyncState();
  return state_.LogLikelihood(options_.alpha, options_.beta);
}

std::vector<int64_t> LdaSampler::TopicTermCountsByTopic() const {
  SyncState();
  return state_.TopicTermCountsByTopic();
}

LdaModel LdaSampler::Model() const {
  LdaModel model;
  model.vocabulary = vocabulary_;
  model.num_topics = options_.num_topics;
  model.alpha = options_.alpha;
  model.beta = options_.beta;
  model.topic_term_counts = TopicTermCountsByTopic();
  model.metadata = {
      {"sampler", std::string(kind())},
      {"iterations", iterations_done_},
      {"seed", options_.seed},
      {"threads", num_threads_},
      {"parallel_scheme", std::string(parallel_scheme())},
      {"num_documents", state_.num_documents()},
      {"num_tokens", state_.num_tokens},
  };
  if (kind() == "mh" || kind() == "warp") model.metadata["mh_steps"] = options_.mh_steps;
  return model;
}

std::vector<std::vector<double>> LdaSampler::DocumentTopicMixtures() const {
  SyncState();
  return state_.DocumentTopicMixtures(options_.alpha);
}

}  // namespace pplda::lda

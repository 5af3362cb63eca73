#include "lda/gibbs_state.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "lda/random.h"

namespace pplda::lda {
namespace {

absl::Status CheckCorpus(const Corpus& corpus) {
  RETURN_IF_ERROR(corpus.Validate());
  if (corpus.vocabulary.empty()) {
    return absl::InvalidArgumentError("corpus: the vocabulary is empty");
  }
  const int64_t tokens = corpus.num_tokens();
  if (tokens == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "corpus: no tokens to sample (", corpus.num_documents(), " documents, all empty)"));
  }
  if (tokens >= std::numeric_limits<int32_t>::max()) {
    return absl::InvalidArgumentError(
        absl::StrCat("corpus: ", tokens, " tokens; at most 2^31 - 2 are supported"));
  }
  return absl::OkStatus();
}

absl::Status CheckTopics(const Corpus& corpus, int num_topics,
                         const std::vector<std::vector<int>>& topics) {
  if (topics.size() != corpus.documents.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("initial topics: ", topics.size(), " documents given; the corpus has ",
                     corpus.documents.size()));
  }
  for (size_t m = 0; m < topics.size(); ++m) {
    const size_t length = corpus.documents[m].tokens.size();
    if (topics[m].size() != length) {
      return absl::InvalidArgumentError(absl::StrCat(
          "initial topics: document ", m, " (", corpus.documents[m].name, ") has ",
          topics[m].size(), " topics for its ", length, " tokens"));
    }
    for (size_t i = 0; i < length; ++i) {
      if (topics[m][i] < 0 || topics[m][i] >= num_topics) {
        return absl::InvalidArgumentError(absl::StrCat(
            "initial topics: document ", m, " (", corpus.documents[m].name, ") position ", i,
            " has topic ", topics[m][i], " outside [0, ", num_topics, ")"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<GibbsState> GibbsState::Create(const Corpus& corpus, int num_topics,
                                              std::vector<std::vector<int>> topics) {
  ASSIGN_OR_RETURN(GibbsState state, CreateWithoutTables(corpus, num_topics, std::move(topics)));
  state.BuildTables();
  return state;
}

absl::StatusOr<GibbsState> GibbsState::CreateWithoutTables(const Corpus& corpus, int num_topics,
                                                           std::vector<std::vector<int>> topics) {
  RETURN_IF_ERROR(CheckCorpus(corpus));
  RETURN_IF_ERROR(CheckTopics(corpus, num_topics, topics));
  GibbsState state;
  state.num_topics = num_topics;
  state.num_terms = corpus.vocabulary.size();
  state.num_tokens = corpus.num_tokens();
  state.tokens.reserve(corpus.documents.size());
  for (const Document& d : corpus.documents) state.tokens.push_back(d.tokens);
  state.z = std::move(topics);
  state.topic_totals.assign(num_topics, 0);
  for (const std::vector<int>& doc_z : state.z) {
    for (const int k : doc_z) ++state.topic_totals[k];
  }
  return state;
}

void GibbsState::BuildTables() {
  doc_topic.assign(tokens.size() * static_cast<size_t>(num_topics), 0);
  term_topic = TermTopicCounts(num_topics, TermFrequencies());
  for (int32_t m = 0; m < num_documents(); ++m) {
    int32_t* row = doc_row(m);
    for (size_t i = 0; i < tokens[m].size(); ++i) {
      ++row[z[m][i]];
      term_topic.Increment(tokens[m][i], z[m][i]);
    }
  }
}

std::vector<std::vector<int>> GibbsState::RandomTopics(const Corpus& corpus, int num_topics,
                                                       uint64_t seed) {
  std::vector<std::vector<int>> topics(corpus.documents.size());
  for (size_t m = 0; m < topics.size(); ++m) {
    Rng rng = Rng::ForStream(seed, kInitStreams, m);
    topics[m].resize(corpus.documents[m].tokens.size());
    for (int& k : topics[m]) k = static_cast<int>(rng.Below(static_cast<uint32_t>(num_topics)));
  }
  return topics;
}

std::vector<std::vector<int>> GibbsState::OneTopicPerDocument(const Corpus& corpus,
                                                              int num_topics, uint64_t seed) {
  std::vector<std::vector<int>> topics(corpus.documents.size());
  for (size_t m = 0; m < topics.size(); ++m) {
    Rng rng = Rng::ForStream(seed, kInitStreams, m);
    const int k = static_cast<int>(rng.Below(static_cast<uint32_t>(num_topics)));
    topics[m].assign(corpus.documents[m].tokens.size(), k);
  }
  return topics;
}

std::vector<std::vector<int>> GibbsState::TopicsSpreadByTerm(const Corpus& corpus, int num_topics,
                                                              int spread, uint64_t seed) {
  const size_t v = corpus.vocabulary.size();
  std::vector<int> term_topics(v * spread);
  for (size_t t = 0; t < v; ++t) {
    Rng rng = Rng::ForStream(seed, kTermInitStreams, t);
    for (int j = 0; j < spread; ++j) {
      term_topics[t * spread + j] = static_cast<int>(rng.Below(static_cast<uint32_t>(num_topics)));
    }
  }
  std::vector<std::vector<int>> topics(corpus.documents.size());
  for (size_t m = 0; m < topics.size(); ++m) {
    Rng rng = Rng::ForStream(seed, kInitStreams, m);
    const auto& doc = corpus.documents[m].tokens;
    topics[m].resize(doc.size());
    for (size_t i = 0; i < doc.size(); ++i) {
      topics[m][i] = term_topics[static_cast<size_t>(doc[i]) * spread +
                                 rng.Below(static_cast<uint32_t>(spread))];
    }
  }
  return topics;
}

std::vector<int32_t> GibbsState::TermFrequencies() const {
  std::vector<int32_t> frequencies(num_terms, 0);
  for (const auto& doc : tokens) {
    for (TermId t : doc) ++frequencies[t];
  }
  return frequencies;
}

std::vector<int64_t> GibbsState::TermOffsets() const {
  const std::vector<int32_t> frequencies = TermFrequencies();
  std::vector<int64_t> offsets(frequencies.size() + 1, 0);
  for (size_t t = 0; t < frequencies.size(); ++t) offsets[t + 1] = offsets[t] + frequencies[t];
  return offsets;
}

std::vector<int64_t> GibbsState::DocumentOffsets() const {
  std::vector<int64_t> offsets(tokens.size() + 1, 0);
  for (size_t m = 0; m < tokens.size(); ++m) {
    offsets[m + 1] = offsets[m] + static_cast<int64_t>(tokens[m].size());
  }
  return offsets;
}

double GibbsState::LogLikelihood(double alpha, double beta) const {
  const double v_beta = num_terms * beta;
  const double lg_beta = std::lgamma(beta);
  double ll = 0;
  for (int k = 0; k < num_topics; ++k) {
    ll += std::lgamma(v_beta) - std::lgamma(static_cast<double>(topic_totals[k]) + v_beta);
  }
  for (TermId t = 0; t < num_terms; ++t) {
    if (term_topic.has_nonzero_lists()) {
      for (int k : term_topic.nonzero_topics(t)) {
        ll += std::lgamma(term_topic.count(t, k) + beta) - lg_beta;
      }
    } else {
      const int32_t* row = term_topic.row(t);
      for (int k = 0; k < num_topics; ++k) {
        if (row[k] > 0) ll += std::lgamma(row[k] + beta) - lg_beta;
      }
    }
  }
  const double k_alpha = num_topics * alpha;
  const double lg_alpha = std::lgamma(alpha);
  for (int32_t m = 0; m < num_documents(); ++m) {
    const int32_t* row = doc_row(m);
    ll += std::lgamma(k_alpha) -
          std::lgamma(static_cast<double>(tokens[m].size()) + k_alpha);
    for (int k = 0; k < num_topics; ++k) {
      if (row[k] > 0) ll += std::lgamma(row[k] + alpha) - lg_alpha;
    }
  }
  return ll;
}

std::vector<std::vector<double>> GibbsState::DocumentTopicMixtures(double alpha) const {
  std::vector<std::vector<double>> theta(num_documents(), std::vector<double>(num_topics));
  for (int32_t m = 0; m < num_documents(); ++m) {
    const int32_t* row = doc_row(m);
    const double norm =
        1.0 / (static_cast<double>(tokens[m].size()) + num_topics * alpha);
    for (int k = 0; k < num_topics; ++k) theta[m][k] = (row[k] + alpha) * norm;
  }
  return theta;
}

std::vector<int64_t> GibbsState::TopicTermCountsByTopic() const {
  std::vector<int64_t> counts(static_cast<size_t>(num_topics) * num_terms);
  // Transposed in tiles of kTile terms: their rows stay in cache while each
  // topic's kTile counts are written contiguously.
  constexpr TermId kTile = 64;
  for (TermId first = 0; first < num_terms; first += kTile) {
    const TermId last = std::min(num_terms, first + kTile);
    for (int k = 0; k < num_topics; ++k) {
      int64_t* out = &counts[static_cast<size_t>(k) * num_terms];
      for (TermId t = first; t < last; ++t) out[t] = term_topic.count(t, k);
    }
  }
  return counts;
}

absl::Status GibbsState::CheckConsistency() const {
  absl::StatusOr<GibbsState> recount = [&]() -> absl::StatusOr<GibbsState> {
    Corpus corpus;
    corpus.vocabulary = Vocabulary();
    for (int32_t t = 0; t < num_terms; ++t) corpus.vocabulary.Add(absl::StrCat("t", t));
    for (const auto& doc : tokens) corpus.documents.push_back(Document{"", doc});
    return Create(corpus, num_topics, z);
  }();
  if (!recount.ok()) {
    return absl::InternalError(absl::StrCat("state: assignments are invalid: ",
                                            recount.status().message()));
  }
  if (recount->doc_topic != doc_topic) {
    return absl::InternalError("state: doc_topic differs from the counts of z");
  }
  if (recount->topic_totals != topic_totals) {
    return absl::InternalError("state: topic_totals differ from the counts of z");
  }
  for (TermId t = 0; t < num_terms; ++t) {
    for (int k = 0; k < num_topics; ++k) {
      if (recount->term_topic.count(t, k) != term_topic.count(t, k)) {
        return absl::InternalError(absl::StrCat("state: term_topic[", t, "][", k, "] is ",
                                                term_topic.count(t, k), "; z gives ",
                                                recount->term_topic.count(t, k)));
      }
    }
    if (!term_topic.has_nonzero_lists()) continue;
    std::vector<bool> listed(num_topics, false);
    for (int k : term_topic.nonzero_topics(t)) {
      if (listed[k] || term_topic.count(t, k) == 0) {
        return absl::InternalError(
            absl::StrCat("state: non-zero list of term ", t, " is wrong at topic ", k));
      }
      listed[k] = true;
    }
    for (int k = 0; k < num_topics; ++k) {
      if (!listed[k] && term_topic.count(t, k) > 0) {
        return absl::InternalError(
            absl::StrCat("state: non-zero list of term ", t, " misses topic ", k));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace pplda::lda

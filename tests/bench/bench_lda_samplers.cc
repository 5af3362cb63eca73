// Throughput of the plaintext Gibbs samplers on the bundled SOTU slice
// (data/sotu: sentence windows of <= 100 words, default preprocessing,
// training split): tokens resampled per second against K, for the standard
// (SparseLDA; AD-LDA on 2 threads), the sparse (packed lists) and the
// batched sampler, on 1 and 2
// threads. Corpus loading and sampler creation (random initialisation) are
// outside the timed region; each timed iteration is one RunIteration(),
// preceded by 5 untimed burn-in iterations so the counts have the sparsity
// of a run in progress. Run from the repository root:
//   build/tests/bench/bench_lda_samplers
// Counters: items_processed = tokens (items_per_second = tokens/s).
#include <cstdio>
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "lda/document_reader.h"
#include "lda/lda_sampler.h"
#include "lda/prepared_corpus.h"

namespace pplda::lda {
namespace {

const Corpus& Sotu() {
  static const Corpus* corpus = [] {
    ReadOptions read;
    read.format = InputFormat::kFolder;
    read.split = SplitMode::kSentences;
    read.window_words = 100;
    absl::StatusOr<RawCorpus> raw = ReadDocuments("data/sotu", read);
    if (!raw.ok()) {
      std::fprintf(stderr, "bench_lda_samplers: %s (run from the repository root)\n",
                   std::string(raw.status().message()).c_str());
      return new Corpus();
    }
    absl::StatusOr<PreparedCorpus> prepared =
        PrepareCorpus(*raw, PreprocessOptions(), SplitOptions{10}, nullptr);
    if (!prepared.ok()) return new Corpus();
    return new Corpus(std::move(prepared->train));
  }();
  return *corpus;
}

void BM_Sampler(benchmark::State& state, const std::string& kind) {
  const Corpus& corpus = Sotu();
  SamplerOptions options;
  options.num_topics = static_cast<int>(state.range(0));
  options.threads = static_cast<int>(state.range(1));
  options.seed = 1;
  absl::StatusOr<std::unique_ptr<LdaSampler>> sampler = CreateSampler(kind, corpus, options);
  if (!sampler.ok()) {
    state.SkipWithError(std::string(sampler.status().message()).c_str());
    return;
  }
  for (int i = 0; i < 5; ++i) (*sampler)->RunIteration();
  for (auto _ : state) (*sampler)->RunIteration();
  state.SetItemsProcessed(state.iterations() * corpus.num_tokens());
  state.counters["tokens"] = static_cast<double>(corpus.num_tokens());
  state.counters["documents"] = corpus.num_documents();
  state.counters["terms"] = corpus.vocabulary.size();
}

void Args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"K", "threads"});
  for (int k : {10, 20, 50, 200}) {
    for (int threads : {1, 2}) b->Args({k, threads});
  }
  b->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
}

BENCHMARK_CAPTURE(BM_Sampler, standard, std::string("standard"))->Apply(Args);
BENCHMARK_CAPTURE(BM_Sampler, sparse, std::string("sparse"))->Apply(Args);
BENCHMARK_CAPTURE(BM_Sampler, batched, std::string("batched"))->Apply(Args);

}  // namespace
}  // namespace pplda::lda

BENCHMARK_MAIN();

// Test and benchmark support for the secure LDA protocol: the deterministic
// SOTU slices (one party per era folder of data/sotu) and seeded random
// sources. TESTS AND BENCHMARKS ONLY (seeded randomness, dealer keys).
//
// SotuSlice(docs_per_party, tokens_per_doc, held_out_per_party): each era
// folder (data/sotu/1790-1860, 1861-1945, 1946-2021) is read with
// --split sentences (windows of about 100 words, reader order: files by
// name, windows in text order); its first docs_per_party windows train, the
// next held_out_per_party are held out. The training windows of all eras are
// preprocessed together with the defaults except min_df = 1 (so the
// vocabulary is every term of the slice) and max_tokens_per_doc =
// tokens_per_doc; held-out windows are mapped to that vocabulary with the
// same cap. Party p gets the training documents of era p, in order.
#ifndef PPLDA_TESTS_PROTOCOL_PROTOCOL_TEST_UTIL_H_
#define PPLDA_TESTS_PROTOCOL_PROTOCOL_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/status_macros.h"
#include "crypto/random/secure_rng_testing.h"
#include "lda/corpus.h"
#include "lda/document_reader.h"
#include "lda/preprocessor.h"
#include "party/party_randomness.h"
#include "simulation/local_consortium.h"

namespace pplda::protocol_testing {

inline const std::vector<std::string>& SotuEras() {
  static const std::vector<std::string> eras = {"data/sotu/1790-1860", "data/sotu/1861-1945",
                                                "data/sotu/1946-2021"};
  return eras;
}

struct Slice {
  lda::Corpus train;                   // all parties' documents, party-major
  lda::Corpus held_out;                // same vocabulary
  std::vector<int> docs_per_party;     // training documents of each party, in order
};

inline absl::StatusOr<Slice> SotuSlice(int docs_per_party, int tokens_per_doc,
                                       int held_out_per_party) {
  lda::ReadOptions read;
  read.split = lda::SplitMode::kSentences;
  lda::RawCorpus train_raw, test_raw;
  Slice slice;
  for (const std::string& era : SotuEras()) {
    ASSIGN_OR_RETURN(lda::RawCorpus raw, lda::ReadDocuments(era, read));
    const int have = static_cast<int>(raw.documents.size());
    if (have < docs_per_party + held_out_per_party) {
      return absl::InvalidArgumentError(era + " has too few windows");
    }
    for (int i = 0; i < docs_per_party; ++i) train_raw.documents.push_back(raw.documents[i]);
    for (int i = 0; i < held_out_per_party; ++i) {
      test_raw.documents.push_back(raw.documents[docs_per_party + i]);
    }
  }
  lda::PreprocessOptions pre;
  pre.min_df = 1;
  pre.max_tokens_per_doc = tokens_per_doc;
  lda::PreprocessReport report;
  ASSIGN_OR_RETURN(slice.train, lda::BuildCorpus(train_raw, pre, &report));
  if (slice.train.num_documents() != 3 * docs_per_party) {
    return absl::InternalError("a training window lost all its tokens");
  }
  slice.docs_per_party.assign(3, docs_per_party);
  if (held_out_per_party > 0) {
    ASSIGN_OR_RETURN(slice.held_out,
                     lda::MapToVocabulary(test_raw, slice.train.vocabulary, pre, &report));
  }
  return slice;
}

// The slice's training documents split into the parties.
inline std::vector<simulation::ConsortiumParty> SplitParties(const lda::Corpus& corpus,
                                                              const std::vector<int>& docs) {
  std::vector<simulation::ConsortiumParty> parties;
  size_t next = 0;
  for (size_t p = 0; p < docs.size(); ++p) {
    simulation::ConsortiumParty party;
    party.name = "party" + std::to_string(p);
    for (int i = 0; i < docs[p]; ++i) party.documents.push_back(corpus.documents[next++].tokens);
    parties.push_back(std::move(party));
  }
  return parties;
}

// Party p's source s (party/party_randomness.h) is stream 3p + s of `seed`
// (the streams the existing seeds were chosen with), and its DP-noise source
// stream 1000 + p (3p + 4 would be party p + 1's encryptor), and its DP
// vocabulary sources streams 2000 + 10p + s.
inline party::ConsortiumRngFactory SeededRngs(uint64_t seed) {
  return [seed](int party, party::PartyRandomSource source) -> std::unique_ptr<crypto::SecureRng> {
    const auto s = static_cast<uint64_t>(source);
    const uint64_t stream =
        source == party::PartyRandomSource::kDpNoise ? 1000 + static_cast<uint64_t>(party)
        : s >= static_cast<uint64_t>(party::PartyRandomSource::kVocabularyEncryptor)
            ? 2000 + 10 * static_cast<uint64_t>(party) + s
            : 3 * static_cast<uint64_t>(party) + s;
    return std::make_unique<crypto::SeededRng>(seed * 7919 + stream + 1);
  };
}

}  // namespace pplda::protocol_testing

#endif  // PPLDA_TESTS_PROTOCOL_PROTOCOL_TEST_UTIL_H_

#include "lda/preprocessor.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "lda/warning_list.h"

namespace pplda::lda {
namespace {

// Terms seen so far, by first occurrence (provisional ids).
struct TermTable {
  std::vector<std::string> terms;
  absl::flat_hash_map<std::string, int32_t> ids;

  int32_t Intern(std::string term) {
    auto [it, inserted] = ids.emplace(term, static_cast<int32_t>(terms.size()));
    if (inserted) terms.push_back(std::move(term));
    return it->second;
  }
};

struct PendingDocument {
  const std::string* name;
  std::vector<int32_t> tokens;  // provisional ids
};

void DropEmpty(const std::string& name, std::string_view stage, PreprocessReport* report) {
  ++report->dropped_empty;
  AddCappedWarning(&report->warnings, &report->warnings_dropped,
                   absl::StrCat(name, ": no token left after ", std::string(stage),
                                "; document dropped"));
}

// Step 1 of BuildCorpus: every document to provisional term ids.
absl::StatusOr<std::vector<PendingDocument>> TokenizeAll(const RawCorpus& raw,
                                                        Tokenizer& tokenizer, TermTable* table,
                                                        PreprocessReport* report) {
  std::vector<PendingDocument> docs;
  docs.reserve(raw.documents.size());
  for (const RawDocument& doc : raw.documents) {
    ++report->documents_in;
    report->tokens_in += CountRawTokens(doc);
    ASSIGN_OR_RETURN(std::vector<std::string> tokens, tokenizer.Tokenize(doc));
    if (tokens.empty()) {
      DropEmpty(doc.name, "preprocessing", report);
      continue;
    }
    PendingDocument pending{&doc.name, {}};
    pending.tokens.reserve(tokens.size());
    for (std::string& t : tokens) pending.tokens.push_back(table->Intern(std::move(t)));
    docs.push_back(std::move(pending));
  }
  return docs;
}

// Step 3 of BuildCorpus, before filtering: every term of `docs` in byte-wise
// sorted order, and the documents over those ids (no cap).
Corpus SortedCorpus(const std::vector<PendingDocument>& docs, const TermTable& table) {
  std::vector<int32_t> order(table.terms.size());
  for (size_t t = 0; t < order.size(); ++t) order[t] = static_cast<int32_t>(t);
  std::sort(order.begin(), order.end(),
            [&](int32_t a, int32_t b) { return table.terms[a] < table.terms[b]; });
  Corpus corpus;
  std::vector<TermId> remap(order.size());
  for (int32_t t : order) remap[t] = corpus.vocabulary.Add(table.terms[t]);
  corpus.documents.reserve(docs.size());
  for (const PendingDocument& p : docs) {
    Document doc{*p.name, {}};
    doc.tokens.reserve(p.tokens.size());
    for (int32_t t : p.tokens) doc.tokens.push_back(remap[t]);
    corpus.documents.push_back(std::move(doc));
  }
  return corpus;
}

std::vector<int64_t> DocumentFrequencies(const Corpus& corpus) {
  std::vector<int64_t> df(corpus.vocabulary.size(), 0);
  std::vector<int64_t> last_doc(df.size(), -1);
  for (size_t m = 0; m < corpus.documents.size(); ++m) {
    for (TermId t : corpus.documents[m].tokens) {
      if (last_doc[t] != static_cast<int64_t>(m)) {
        last_doc[t] = static_cast<int64_t>(m);
        ++df[t];
      }
    }
  }
  return df;
}

// Step 2: which terms stay (ascending ids, so still sorted by string).
absl::StatusOr<std::vector<TermId>> SelectTerms(const Corpus& corpus,
                                                const PreprocessOptions& options) {
  const auto n = static_cast<size_t>(corpus.vocabulary.size());
  std::vector<TermId> kept;
  const std::vector<int64_t> df = DocumentFrequencies(corpus);
  if (!options.enabled) {
    // Every term the documents hold (none is missing in BuildCorpus; on a
    // subset of documents, the others' terms go).
    for (size_t t = 0; t < n; ++t) {
      if (df[t] > 0) kept.push_back(static_cast<TermId>(t));
    }
    return kept;
  }
  const auto max_count = static_cast<int64_t>(
      std::floor(options.max_df * static_cast<double>(corpus.documents.size()) + 1e-9));
  for (size_t t = 0; t < n; ++t) {
    if (df[t] >= options.min_df && df[t] <= max_count) kept.push_back(static_cast<TermId>(t));
  }
  if (kept.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no term is left after document-frequency filtering: ", n, " terms in ",
        corpus.documents.size(), " documents, none in at least min_df = ", options.min_df,
        " documents and at most max_df = ", options.max_df,
        " of them; lower --min-df or raise --max-df"));
  }
  return kept;
}

// Step 4: the cap of L tokens.
void ApplyCap(const PreprocessOptions& options, Document* doc, PreprocessReport* report) {
  const auto cap = static_cast<size_t>(options.max_tokens_per_doc);
  if (cap > 0 && doc->tokens.size() > cap) {
    doc->tokens.resize(cap);
    ++report->capped_documents;
  }
}

// A document's mapped tokens: dropped when empty (`emptied_by` names the
// stage that emptied it), otherwise capped and added to `corpus`.
void AddMappedDocument(Document doc, std::string_view emptied_by, const PreprocessOptions& options,
                       Corpus& corpus, PreprocessReport* report) {
  if (doc.tokens.empty()) {
    DropEmpty(doc.name, emptied_by, report);
    return;
  }
  ApplyCap(options, &doc, report);
  report->tokens_out += static_cast<int64_t>(doc.tokens.size());
  corpus.documents.push_back(std::move(doc));
}

}  // namespace

nlohmann::json PreprocessReportToJson(const PreprocessReport& r) {
  return nlohmann::json{{"documents_in", r.documents_in},
                        {"documents_out", r.documents_out},
                        {"dropped_empty", r.dropped_empty},
                        {"tokens_in", r.tokens_in},
                        {"tokens_out", r.tokens_out},
                        {"terms_before_df", r.terms_before_df},
                        {"terms_after_df", r.terms_after_df},
                        {"unknown_tokens", r.unknown_tokens},
                        {"capped_documents", r.capped_documents}};
}

absl::StatusOr<Corpus> BuildCorpus(const RawCorpus& raw, const PreprocessOptions& options,
                                   PreprocessReport* report) {
  PreprocessReport local;
  if (report == nullptr) report = &local;
  ASSIGN_OR_RETURN(Tokenizer tokenizer, Tokenizer::Create(options));
  TermTable table;
  ASSIGN_OR_RETURN(std::vector<PendingDocument> pending,
                   TokenizeAll(raw, tokenizer, &table, report));
  if (pending.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "every one of the ", raw.documents.size(),
        " documents is empty after preprocessing (check the input and the stop-word, length "
        "and --no-preprocess options)"));
  }
  return FilterByDocumentFrequency(SortedCorpus(pending, table), options, report);
}

absl::StatusOr<Corpus> FilterByDocumentFrequency(const Corpus& tokenized,
                                                 const PreprocessOptions& options,
                                                 PreprocessReport* report) {
  PreprocessReport local;
  if (report == nullptr) report = &local;
  report->terms_before_df = tokenized.vocabulary.size();
  ASSIGN_OR_RETURN(std::vector<TermId> kept, SelectTerms(tokenized, options));
  Corpus corpus;
  std::vector<TermId> remap(tokenized.vocabulary.size(), -1);
  for (TermId t : kept) remap[t] = corpus.vocabulary.Add(tokenized.vocabulary.term(t));
  report->terms_after_df = corpus.vocabulary.size();
  for (const Document& in : tokenized.documents) {
    Document doc{in.name, {}};
    for (TermId t : in.tokens) {
      if (remap[t] >= 0) doc.tokens.push_back(remap[t]);
    }
    AddMappedDocument(std::move(doc), "document-frequency filtering", options, corpus, report);
  }
  report->documents_out = corpus.num_documents();
  return corpus;
}

absl::StatusOr<Corpus> MapToVocabulary(const RawCorpus& raw, const Vocabulary& vocabulary,
                                       const PreprocessOptions& options,
                                       PreprocessReport* report) {
  PreprocessReport local;
  if (report == nullptr) report = &local;
  ASSIGN_OR_RETURN(Tokenizer tokenizer, Tokenizer::Create(options));
  Corpus corpus;
  corpus.vocabulary = vocabulary;
  report->terms_before_df = report->terms_after_df = vocabulary.size();
  for (const RawDocument& raw_doc : raw.documents) {
    ++report->documents_in;
    report->tokens_in += CountRawTokens(raw_doc);
    ASSIGN_OR_RETURN(std::vector<std::string> tokens, tokenizer.Tokenize(raw_doc));
    Document doc{raw_doc.name, {}};
    for (const std::string& t : tokens) {
      if (std::optional<TermId> id = vocabulary.Find(t)) {
        doc.tokens.push_back(*id);
      } else {
        ++report->unknown_tokens;
      }
    }
    AddMappedDocument(std::move(doc),
                      tokens.empty() ? "preprocessing" : "mapping to the vocabulary", options,
                      corpus, report);
  }
  report->documents_out = corpus.num_documents();
  return corpus;
}

}  // namespace pplda::lda

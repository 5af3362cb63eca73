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

std::vector<int64_t> DocumentFrequencies(const std::vector<PendingDocument>& docs,
                                         size_t num_terms) {
  std::vector<int64_t> df(num_terms, 0);
  std::vector<int64_t> last_doc(num_terms, -1);
  for (size_t m = 0; m < docs.size(); ++m) {
    for (int32_t t : docs[m].tokens) {
      if (last_doc[t] != static_cast<int64_t>(m)) {
        last_doc[t] = static_cast<int64_t>(m);
        ++df[t];
      }
    }
  }
  return df;
}

// Steps 2-3: which terms stay, in sorted order; returns provisional id ->
// final id (-1 when removed) and fills *vocabulary.
absl::StatusOr<std::vector<TermId>> SelectTerms(const std::vector<PendingDocument>& docs,
                                                const TermTable& table,
                                                const PreprocessOptions& options,
                                                Vocabulary* vocabulary) {
  const size_t n = table.terms.size();
  std::vector<bool> keep(n, true);
  if (options.enabled) {
    const std::vector<int64_t> df = DocumentFrequencies(docs, n);
    const auto max_count = static_cast<int64_t>(
        std::floor(options.max_df * static_cast<double>(docs.size()) + 1e-9));
    for (size_t t = 0; t < n; ++t) keep[t] = df[t] >= options.min_df && df[t] <= max_count;
  }
  std::vector<int32_t> kept;
  for (size_t t = 0; t < n; ++t) {
    if (keep[t]) kept.push_back(static_cast<int32_t>(t));
  }
  if (kept.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no term is left after document-frequency filtering: ", n, " terms in ", docs.size(),
        " documents, none in at least min_df = ", options.min_df,
        " documents and at most max_df = ", options.max_df,
        " of them; lower --min-df or raise --max-df"));
  }
  std::sort(kept.begin(), kept.end(), [&](int32_t a, int32_t b) {
    return table.terms[a] < table.terms[b];
  });
  std::vector<TermId> remap(n, -1);
  for (int32_t t : kept) remap[t] = vocabulary->Add(table.terms[t]);
  return remap;
}

// Step 4: the cap of L tokens.
void ApplyCap(const PreprocessOptions& options, Document* doc, PreprocessReport* report) {
  const auto cap = static_cast<size_t>(options.max_tokens_per_doc);
  if (cap > 0 && doc->tokens.size() > cap) {
    doc->tokens.resize(cap);
    ++report->capped_documents;
  }
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
  report->terms_before_df = static_cast<int64_t>(table.terms.size());
  Corpus corpus;
  ASSIGN_OR_RETURN(std::vector<TermId> remap,
                   SelectTerms(pending, table, options, &corpus.vocabulary));
  report->terms_after_df = corpus.vocabulary.size();
  for (const PendingDocument& p : pending) {
    Document doc{*p.name, {}};
    for (int32_t t : p.tokens) {
      if (remap[t] >= 0) doc.tokens.push_back(remap[t]);
    }
    if (doc.tokens.empty()) {
      DropEmpty(doc.name, "document-frequency filtering", report);
      continue;
    }
    ApplyCap(options, &doc, report);
    report->tokens_out += static_cast<int64_t>(doc.tokens.size());
    corpus.documents.push_back(std::move(doc));
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
    if (doc.tokens.empty()) {
      DropEmpty(doc.name, tokens.empty() ? "preprocessing" : "mapping to the vocabulary",
                report);
      continue;
    }
    ApplyCap(options, &doc, report);
    report->tokens_out += static_cast<int64_t>(doc.tokens.size());
    corpus.documents.push_back(std::move(doc));
  }
  report->documents_out = corpus.num_documents();
  return corpus;
}

}  // namespace pplda::lda

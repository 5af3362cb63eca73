// A model as pyLDAvis's prepared data: the JSON that
// pyLDAvis.PreparedData.to_json() writes and LDAvis's JavaScript (ldavis.js)
// reads, so that `pyLDAvis.display`, `save_html` or LDAvis itself can show a
// pplda model. Method: Sievert and Shirley, "LDAvis: A method for
// visualizing and interpreting topics" (ILLVI 2014); fields and order as in
// pyLDAvis/_prepare.py (prepare with sort_topics=True, start_index=1,
// mds=js_PCoA):
//
//   {"mdsDat": {"x": [K], "y": [K], "topics": [1..K], "cluster": [1 x K],
//               "Freq": [K]},                   // topic share in percent
//    "tinfo": {"Term", "Freq", "Total", "Category", "logprob", "loglift"},
//             // columns of equal length: R "Default" rows, then per topic
//             // "Topic<i>" the terms in its top R for some lambda
//    "token.table": {"Topic", "Freq", "Term"},  // columns of equal length
//    "R": R, "lambda.step": s, "plot.opts": {"xlab": "PC1", "ylab": "PC2"},
//    "topic.order": [K original topic numbers, 1-based]}
//
// From the model: phi(k, t) (lda/lda_model.h) is topic_term_dists; a
// topic's token count n_k stands for pyLDAvis's sum over documents of
// theta(d, k) * length(d) (for a Gibbs-sampled model the two agree up to
// the prior); a model without tokens gives every topic 1/K. Topics are
// renumbered 1..K by decreasing share; "topic.order" maps back (pplda topic
// k is original number k + 1). With term_topic_freq(k, t) = phi(k, t) n_k
// and term_frequency(t) = sum_k term_topic_freq(k, t), term_proportion =
// term_frequency / its sum:
//   saliency(t) = term_proportion(t) sum_k p(k|t) log(p(k|t) / share(k)),
//     p(k|t) = phi(k, t) / sum_k phi(k, t), topics with share 0 left out
//     of the sum (pyLDAvis would divide by 0)  ("Default" rows: top R by
//     saliency; Freq = Total = floor(term_frequency); logprob = loglift =
//     R, R-1, ..., 1);
//   relevance(k, t; lambda) = lambda log phi(k, t) + (1 - lambda) log lift,
//     lift = phi(k, t) / term_proportion(t), for lambda = 0, s, 2s, ..., 1;
//     topic rows: Freq = term_topic_freq, Total = term_frequency, logprob
//     and loglift rounded to 4 decimals; ties in either ranking go to the
//     lower term id;
//   token.table: for every term of tinfo and every topic with
//     term_topic_freq >= 0.5, Freq = round(term_topic_freq) /
//     term_frequency; sorted by term, then topic.
// mdsDat.x, y: report/topic_map.h of the renumbered topics.
//
// Thread-safety: pure function.
#ifndef PPLDA_REPORT_PYLDAVIS_EXPORT_H_
#define PPLDA_REPORT_PYLDAVIS_EXPORT_H_

#include "absl/status/statusor.h"
#include "lda/lda_model.h"
#include "nlohmann/json.hpp"

namespace pplda::report {

struct PyLdavisOptions {
  int relevant_terms = 30;    // R, in [1, 1000]; min(R, V) is used
  double lambda_step = 0.01;  // in [0.001, 1]
};

// InvalidArgument for an invalid model (LdaModel::Validate), options out of
// range, or more than kMaxMapTopics topics (report/topic_map.h).
absl::StatusOr<nlohmann::json> PyLdavisPreparedData(const lda::LdaModel& model,
                                                    const PyLdavisOptions& options = {});

}  // namespace pplda::report

#endif  // PPLDA_REPORT_PYLDAVIS_EXPORT_H_

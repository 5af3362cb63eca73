#!/usr/bin/python3
"""Trains scikit-learn's and gensim's LDA on a folder prepared by `pplda
prepare`, and writes each as a pplda model file so that pplda's own evaluator
scores all three models the same way.

Both libraries estimate variational Dirichlet parameters lambda (pseudo-counts
that already include the topic-word prior); their point estimate of the topic
word distribution is phi(k, t) = lambda(k, t) / sum_t lambda(k, t). The model
file stores counts as integers, so this script writes round(lambda * SCALE)
with beta = 1e-9: pplda then computes phi = (n + beta) / (n_k + V beta), equal
to the libraries' own phi to within 1e-6 relative error on the smallest entry.

usage: compare_baselines.py PREPARED_DIR OUT_DIR TOPICS ALPHA BETA THREADS
prints one JSON line per library: {"name", "seconds", "model"}.
"""
import json
import os
import sys
import time

import numpy as np
import scipy.sparse as sp

SCALE = 1e6


def read_prepared(folder):
    with open(os.path.join(folder, "vocabulary.txt"), encoding="utf-8") as f:
        vocab = [line.rstrip("\n") for line in f]
    rows, cols, vals = [], [], []
    docs = []
    with open(os.path.join(folder, "train.txt"), encoding="utf-8") as f:
        for m, line in enumerate(f):
            _, _, ids = line.rstrip("\n").partition("\t")
            counts = {}
            for t in ids.split():
                counts[int(t)] = counts.get(int(t), 0) + 1
            docs.append(sorted(counts.items()))
            for t, c in counts.items():
                rows.append(m)
                cols.append(t)
                vals.append(c)
    x = sp.csr_matrix((vals, (rows, cols)), shape=(len(docs), len(vocab)), dtype=np.float64)
    return vocab, docs, x


def write_model(path, vocab, lam, alpha, name, seconds, details):
    counts = np.rint(lam * SCALE).astype(np.int64)
    model = {
        "format": "pplda-model",
        "version": 1,
        "vocabulary": vocab,
        "alpha": alpha,
        "beta": 1e-9,
        "num_topics": int(lam.shape[0]),
        "topic_term_counts": counts.tolist(),
        "metadata": {"training": {"mode": "external", "library": name, "seconds": seconds,
                                  **details},
                     "note": "counts are round(lambda * 1e6): phi = lambda / sum lambda"},
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(model, f)


def run_sklearn(vocab, x, k, alpha, beta, threads, out):
    from sklearn.decomposition import LatentDirichletAllocation
    lda = LatentDirichletAllocation(n_components=k, doc_topic_prior=alpha, topic_word_prior=beta,
                                    learning_method="batch", max_iter=100, n_jobs=threads,
                                    random_state=1)
    start = time.time()
    lda.fit(x)
    seconds = time.time() - start
    write_model(out, vocab, lda.components_, alpha, "scikit-learn", seconds,
                {"learning_method": "batch", "max_iter": 100, "n_jobs": threads})
    return seconds


def run_gensim(vocab, docs, k, alpha, beta, threads, out):
    from gensim.models import LdaModel
    passes, iterations = 20, 100
    start = time.time()
    lda = LdaModel(corpus=docs, num_topics=k, id2word=dict(enumerate(vocab)), alpha=[alpha] * k,
                   eta=beta, passes=passes, iterations=iterations, chunksize=len(docs),
                   update_every=1, random_state=1)
    seconds = time.time() - start
    write_model(out, vocab, lda.state.get_lambda(), alpha, "gensim", seconds,
                {"passes": passes, "iterations": iterations, "chunksize": len(docs),
                 "threads": 1})
    return seconds


def main():
    folder, out_dir, k, alpha, beta, threads = sys.argv[1:7]
    k, alpha, beta, threads = int(k), float(alpha), float(beta), int(threads)
    vocab, docs, x = read_prepared(folder)
    os.makedirs(out_dir, exist_ok=True)
    sk = os.path.join(out_dir, "sklearn.json")
    print(json.dumps({"name": "scikit-learn (batch, 100 iterations, n_jobs=%d)" % threads,
                      "seconds": run_sklearn(vocab, x, k, alpha, beta, threads, sk),
                      "model": sk}), flush=True)
    gs = os.path.join(out_dir, "gensim.json")
    print(json.dumps({"name": "gensim (LdaModel, 20 passes, 1 thread)",
                      "seconds": run_gensim(vocab, docs, k, alpha, beta, threads, gs),
                      "model": gs}), flush=True)


if __name__ == "__main__":
    main()

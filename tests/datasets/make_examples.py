"""Regenerate the example files shipped in ``scorestd/datasets/examples/``.

A small synthetic ad hoc collection: 20 topics (401–420) with graded qrels, four runs of
50 documents per topic, and each run's ``trec_eval -q`` output. The evaluation is computed
by trec_eval's own C code (``pytrec_eval``, installed with ``ir_measures``) and written in
trec_eval's layout (``measure<TAB>topic<TAB>value`` with 4 decimals, then the ``all``
summaries), so the folder reads like the output of ``trec_eval -q -m ... qrels run``.

    python tests/datasets/make_examples.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

OUT = Path(__file__).parents[2] / "src" / "scorestd" / "datasets" / "examples"
TOPICS = [str(t) for t in range(401, 421)]
RUNS = {"bm25": 1.2, "qld": 1.0, "rm3": 1.5, "tfidf": 0.6}  # run → skill (signal strength)
DOCS_PER_TOPIC = 120
DEPTH = 50
# trec_eval measure names → pytrec_eval names
MEASURES = {"num_ret": "num_ret", "num_rel": "num_rel", "map": "map",
            "recip_rank": "recip_rank", "P_10": "P_10", "ndcg_cut_20": "ndcg_cut_20"}


def main() -> None:
    import pytrec_eval

    rng = np.random.default_rng(20261122)
    qrels: dict[str, dict[str, int]] = {}
    for t in TOPICS:
        rel = rng.choice([0, 0, 0, 0, 0, 0, 1, 1, 2], size=DOCS_PER_TOPIC)
        qrels[t] = {f"d{t}-{i:03d}": int(r) for i, r in enumerate(rel)}
    (OUT / "runs").mkdir(parents=True, exist_ok=True)
    (OUT / "trec_eval").mkdir(parents=True, exist_ok=True)
    with (OUT / "qrels.txt").open("w") as fh:
        for t in TOPICS:
            for doc, rel in qrels[t].items():
                fh.write(f"{t} 0 {doc} {rel}\n")
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES.values()))
    for run, skill in RUNS.items():
        run_scores: dict[str, dict[str, float]] = {}
        lines = []
        for t in TOPICS:
            difficulty = rng.normal(0.0, 0.8)
            docs = list(qrels[t])
            gain = np.array([qrels[t][d] for d in docs], dtype=float)
            score = (skill + difficulty) * gain + rng.normal(0.0, 1.0, size=gain.size)
            order = np.argsort(-score, kind="stable")[:DEPTH]
            run_scores[t] = {}
            for rank, k in enumerate(order, start=1):
                s = round(float(score[k]), 4)
                run_scores[t][docs[k]] = s
                lines.append(f"{t} Q0 {docs[k]} {rank} {s:.4f} {run}\n")
        (OUT / "runs" / f"{run}.txt").write_text("".join(lines))
        results = evaluator.evaluate(run_scores)
        out = []
        for t in TOPICS:
            for name, key in MEASURES.items():
                value = results[t][key]
                text = str(int(value)) if name.startswith("num_") else f"{value:.4f}"
                out.append(f"{name:<22}\t{t}\t{text}\n")
        out.append(f"{'runid':<22}\tall\t{run}\n")
        out.append(f"{'num_q':<22}\tall\t{len(TOPICS)}\n")
        for name, key in MEASURES.items():
            mean = np.mean([results[t][key] for t in TOPICS])
            text = str(round(mean * len(TOPICS))) if name.startswith("num_") else f"{mean:.4f}"
            out.append(f"{name:<22}\tall\t{text}\n")
        (OUT / "trec_eval" / f"{run}.txt").write_text("".join(out))
    # runs grouped by retrieval model (leave-one-group-out): rm3 expands bm25's queries
    (OUT / "groups.csv").write_text("run,group\nbm25,bm25\nrm3,bm25\nqld,lm\ntfidf,vector\n")


if __name__ == "__main__":
    main()

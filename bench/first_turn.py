"""What puts an evidence turn first on LongMemEval: the memory's settings chosen by cross-validation.

    python bench/first_turn.py [--data FILE] [--limit N] [--fresh] [--folds 5] [--seed 0] [--variants a,b,...]

Per development question (all turns, the answerable ones) a fresh ``Memory(options=...)`` per variant
searches its haystack as of the question's date, and BM25 (bm25s, as ``graphmem longmemeval`` runs it)
ranks the same turns; each ranking's first ten ids are cached under ``~/.cache/graphmem/first_turn/``
(one file per variant: a new variant costs one pass, about a minute of CPU). Then the variant to ship
is chosen out of fold: in each of ``--folds`` folds of questions the variant with the best turn
recall_any@1 on the other folds whose recall_all@10 there is at least the shipped memory's is scored on
the held-out fold. Printed: each variant's in-sample figures (all 235 questions, for reading only), the
out-of-fold figures of the choice against BM25's, and which variant each fold chose.

Variants are :class:`graphmem.index.options.MemoryOptions` with fields changed (``VARIANTS``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
from sklearn.model_selection import KFold

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from graphmem.index.options import MemoryOptions  # noqa: E402
from graphmem.bench.longmemeval import load as loader  # noqa: E402
from graphmem.bench.longmemeval.baseline import BM25  # noqa: E402
from graphmem.bench.longmemeval.run import evidence_turns  # noqa: E402
from graphmem.memory.api import Memory  # noqa: E402

CACHE = Path(os.environ.get("GRAPHMEM_CACHE") or Path.home() / ".cache/graphmem") / "first_turn"
SHIPPED = MemoryOptions()
VARIANTS: dict[str, MemoryOptions] = {
    "shipped": SHIPPED,
    "no-updates": replace(SHIPPED, updates=False),
    "updates-window-3": replace(SHIPPED, updates_window=3),
    "updates-window-2": replace(SHIPPED, updates_window=2),
    "updates-cover-0.8": replace(SHIPPED, updates_cover=0.8),
    "updates-cover-1.0": replace(SHIPPED, updates_cover=1.0),
    "updates-floor-0.7": replace(SHIPPED, updates_floor=0.7),
    "value-floor-0.6": replace(SHIPPED, updates_value_floor=0.6),
    "asker-off": replace(SHIPPED, asker=False),
    "b-0.5": replace(SHIPPED, b=0.5),
    "k1-0.9": replace(SHIPPED, k1=0.9),
    "static": replace(SHIPPED, dense_engine="static"),
    "static-weight-0.3": replace(SHIPPED, dense_engine="static", dense_weight=0.3),
}
DENSE = {"static", "static-weight-0.3"}
"""Variants run with ``dense=True`` (their engine named in the options)."""


def rankings(name: str, data: str | None, limit: int | None, fresh: bool) -> dict[str, list[str]]:
    """Each answerable question's first ten ids by the variant (``bm25``: by bm25s), cached."""
    path = loader.locate(data, "s")
    out = CACHE / f"{name}-{path.stat().st_mtime_ns}-{limit or 'all'}.json"
    if out.exists() and not fresh:
        return json.loads(out.read_text())
    got = {}
    for q in loader.load(str(path), "s", limit):
        if q.abstention:
            continue
        records = q.records()
        if name == "bm25":
            got[q.id] = BM25([r["id"] for r in records], [r["text"] for r in records]).rank(q.question)[:10]
            continue
        mem = Memory(options=VARIANTS[name], dense=name in DENSE)
        mem.ingest(records)
        got[q.id] = mem.search(q.question, k=10, asked_on=q.date)
    CACHE.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(got))
    return got


def figures(ranked: dict[str, list[str]], wanted: dict[str, set[str]], ids: list[str]) -> np.ndarray:
    """Per question: recall_any@1 and recall_all@10 (0 or 1)."""
    return np.array([[float(bool(ranked[i][:1]) and ranked[i][0] in wanted[i]), float(wanted[i] <= set(ranked[i][:10]))]
                     for i in ids])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    a = ap.parse_args()
    names = a.variants.split(",")
    wanted = {q.id: evidence_turns(q, "all") for q in loader.load(a.data, "s", a.limit) if not q.abstention}
    ids = sorted(i for i in wanted if wanted[i])
    per = {n: figures(rankings(n, a.data, a.limit, a.fresh), wanted, ids) for n in ["bm25", *names]}
    print(f"{len(ids)} answerable questions with evidence turns (all turns); in-sample, for reading only:")
    for n, f in per.items():
        print(f"  {n:<20} any@1 {f[:, 0].mean():.3f}  all@10 {f[:, 1].mean():.3f}")
    oof, chosen = np.zeros((len(ids), 2)), []
    for train, test in KFold(a.folds, shuffle=True, random_state=a.seed).split(ids):
        base = per["shipped"][train, 1].mean() if "shipped" in per else 0.0
        fit = [n for n in names if per[n][train, 1].mean() >= base] or names
        best = max(fit, key=lambda n: (per[n][train, 0].mean(), n == "shipped"))
        chosen.append(best)
        oof[test] = per[best][test]
    bm = per["bm25"]
    print(f"out of fold ({a.folds} folds; chosen: {', '.join(chosen)}): any@1 {oof[:, 0].mean():.3f} "
          f"(bm25 {bm[:, 0].mean():.3f}, {oof[:, 0].mean() - bm[:, 0].mean():+.3f})  all@10 {oof[:, 1].mean():.3f} "
          f"(bm25 {bm[:, 1].mean():.3f})")


if __name__ == "__main__":
    main()

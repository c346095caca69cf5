"""The first result on LoCoMo: is the memory's top turn at least BM25's (issue 49)?

    python bench/first_turn_locomo.py [--data PATH] [--variants a,b,...] [--folds 5]

All 5,882 turns of the ten conversations go into one :class:`graphmem.memory.api.Memory` (the shipped
settings, as ``bench/memory_locomo.py`` builds it: no conversation filter), and into BM25 (bm25s with its
own tokenizer and defaults, as ``graphmem longmemeval`` runs it: ``graphmem.bench.longmemeval.baseline``),
once over each turn's text as written, once over ``"Speaker: text"`` (the speaker's name is what a
LoCoMo question names, and the memory's index reads it, so BM25 gets it too), and once per conversation
over ``"Speaker: text"`` (each question ranks only its own conversation: a hint the memory is not given). Every question with
evidence is searched once; printed per LoCoMo category: n, hit@1 (the first turn is evidence), hit@5 and
all@10 (every evidence turn in the first ten: the later ranks), then the memory's hit@1 against each
BM25's, per category, as questions won / lost with a two-sided exact sign test.

``--variants`` adds memories with other settings (``bench/first_turn.py``'s ``VARIANTS``); with more than
the shipped one, the variant to ship is chosen out of fold across conversations: in each of ``--folds``
folds of the ten conversations, the variant with the best hit@1 on the other conversations, among those
whose all@10 there is at least the shipped memory's, is scored on the held-out ones (the figure printed
under "out of fold"; the per-variant rows are in-sample, for reading only).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy.stats import binomtest
from sklearn.model_selection import KFold

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from first_turn import VARIANTS  # noqa: E402
from memory_locomo import DEFAULT_DATA, NAMES  # noqa: E402

from graphmem.bench.longmemeval.baseline import BM25  # noqa: E402
from graphmem.data import locomo  # noqa: E402
from graphmem.index.options import MemoryOptions  # noqa: E402
from graphmem.memory.api import Memory  # noqa: E402

Row = tuple[str, int, list[str], set[str]]
"""(conversation, category, first ten ids, evidence ids) per question."""


def _records(dataset: locomo.Dataset) -> list[dict[str, object]]:
    return [{"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date, "conversation": c.id}
            for c in dataset.conversations for t in c.turns]


def memory_rows(dataset: locomo.Dataset, options: MemoryOptions) -> list[Row]:
    """The memory's first ten per question with evidence (one memory of every turn)."""
    mem = Memory(options=options)
    mem.ingest(_records(dataset))
    return [(c.id, q.category, mem.search(q.text, 10), wanted) for c, q, wanted in dataset.with_evidence()]


def bm25_rows(dataset: locomo.Dataset, speaker: bool, apart: bool = False) -> list[Row]:
    """BM25's first ten per question with evidence, over the text (or ``"Speaker: text"``); ``apart``: one
    index per conversation, each question ranking its own conversation's turns only (which the memory is
    not told)."""
    records = _records(dataset)

    def index(rs: list[dict[str, object]]) -> BM25:
        return BM25([str(r["id"]) for r in rs], [f"{r['speaker']}: {r['text']}" if speaker else str(r["text"]) for r in rs])

    every = index(records)
    own = {c.id: index([r for r in records if r["conversation"] == c.id]) for c in dataset.conversations} if apart else {}
    return [(c.id, q.category, (own.get(c.id) or every).rank(q.text)[:10], wanted)
            for c, q, wanted in dataset.with_evidence()]


def figures(rows: list[Row]) -> np.ndarray:
    """Per question: hit@1, hit@5, all@10 (0 or 1)."""
    return np.array([[float(bool(got) and got[0] in want), float(bool(set(got[:5]) & want)),
                      float(want <= set(got))] for _, _, got, want in rows])


def _groups(rows: list[Row]) -> dict[str, np.ndarray]:
    cats = np.array([r[1] for r in rows])
    out = {NAMES[c]: cats == c for c in sorted(NAMES)}
    out["answerable"] = cats != locomo.ADVERSARIAL
    out["all"] = np.ones(len(rows), dtype=bool)
    return out


def table(label: str, rows: list[Row]) -> list[str]:
    f, lines = figures(rows), [label, f"  {'category':<13} {'n':>5}  hit@1  hit@5  all@10"]
    for name, keep in _groups(rows).items():
        if keep.any():
            m = f[keep].mean(axis=0)
            lines.append(f"  {name:<13} {int(keep.sum()):>5}  {m[0]:.3f}  {m[1]:.3f}  {m[2]:.3f}")
    return lines


def against(label: str, ours: list[Row], theirs: list[Row]) -> list[str]:
    """hit@1 of ``ours`` against ``theirs``, per category: questions won / lost, sign test."""
    a, b = figures(ours)[:, 0], figures(theirs)[:, 0]
    lines = [f"hit@1, memory against {label}: won / lost, sign test p"]
    for name, keep in _groups(ours).items():
        won, lost = int(((a == 1) & (b == 0))[keep].sum()), int(((a == 0) & (b == 1))[keep].sum())
        p = binomtest(won, won + lost).pvalue if won + lost else 1.0
        lines.append(f"  {name:<13} {won:>4} / {lost:<4} p = {p:.3f}   ({a[keep].mean():.3f} against {b[keep].mean():.3f})")
    return lines


def out_of_fold(per: dict[str, list[Row]], folds: int) -> list[str]:
    """The variant chosen on the other conversations, scored on the held-out ones."""
    convs = sorted({r[0] for r in per["shipped"]})
    of = np.array([convs.index(r[0]) for r in per["shipped"]])
    figs = {n: figures(rows) for n, rows in per.items()}
    oof, chosen = np.zeros((len(of), 3)), []
    for train_c, test_c in KFold(folds, shuffle=True, random_state=0).split(convs):
        train, test = np.isin(of, train_c), np.isin(of, test_c)
        fit = [n for n in figs if figs[n][train, 2].mean() >= figs["shipped"][train, 2].mean()]
        best = max(fit, key=lambda n: (figs[n][train, 0].mean(), n == "shipped"))
        chosen.append(best)
        oof[test] = figs[best][test]
    return [f"out of fold ({folds} folds of conversations; chosen: {', '.join(chosen)}): "
            f"hit@1 {oof[:, 0].mean():.3f}  hit@5 {oof[:, 1].mean():.3f}  all@10 {oof[:, 2].mean():.3f}"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--variants", default="shipped")
    ap.add_argument("--folds", type=int, default=5)
    a = ap.parse_args()
    dataset = locomo.load_dataset(a.data)
    per = {n: memory_rows(dataset, VARIANTS[n]) for n in dict.fromkeys(["shipped", *a.variants.split(",")])}
    plain, named, apart = bm25_rows(dataset, False), bm25_rows(dataset, True), bm25_rows(dataset, True, True)
    for n, rows in per.items():
        print("\n".join(table(f"memory, {n}" + (" (in-sample)" if len(per) > 1 else ""), rows)))
    print("\n".join(table("bm25 (bm25s) over the text", plain)))
    print("\n".join(table("bm25 (bm25s) over 'Speaker: text'", named)))
    print("\n".join(table("bm25 (bm25s) over 'Speaker: text', one index per conversation", apart)))
    print("\n".join(against("bm25 over the text", per["shipped"], plain)))
    print("\n".join(against("bm25 over 'Speaker: text'", per["shipped"], named)))
    print("\n".join(against("bm25 over 'Speaker: text' per conversation", per["shipped"], apart)))
    if len(per) > 1:
        print("\n".join(out_of_fold(per, a.folds)))


if __name__ == "__main__":
    main()

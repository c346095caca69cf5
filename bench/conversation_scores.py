"""How a memory should score a conversation for ``search_conversations``, measured on both
development sets: each conversation at its best turn, or its best turn plus a share of its others.

    python bench/conversation_scores.py [--longmemeval FILE] [--locomo FILE] [--limit N]

LongMemEval (each session a conversation, a fresh memory per question, as ``graphmem longmemeval``
builds it; both views): session recall_any@1/@5, recall_all@5/@10 and NDCG@5 over the
answerable questions. LoCoMo (each session of each conversation a conversation of its own, one
memory over all ten samples; a question's evidence turns name their sessions): the same figures
over the 1,981 questions with evidence. Per variant, the mean of those figures over LongMemEval's
two views ("mean") ranks them; a variant is ``turns`` x ``rest`` (a conversation's score: its
best turn's plus ``rest`` times the sum of its next ``turns - 1``,
:func:`graphmem.index.conversations.conversation_scores`); ``1 x 0`` is each at its best turn.

Each memory's turn scores are read once (``LiveIndex.scores``, as its search reads them) and every
variant is summed from them, the named person's conversations first as the memory puts them.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem import Memory  # noqa: E402
from graphmem.data import locomo  # noqa: E402
from graphmem.bench.longmemeval import load as loader  # noqa: E402
from graphmem.bench.longmemeval.run import ROLES, evidence_turns  # noqa: E402
from graphmem.index.conversations import best_conversations  # noqa: E402

VARIANTS = [(1, 0.0), (2, 1.0), (3, 1.0)] + [(m, lam) for lam in (0.05, 0.1, 0.2, 0.3, 0.5) for m in (2, 3, 5, 1000)]
"""(turns, rest): ``(2, 1.0)`` and ``(3, 1.0)`` sum the best two or three; ``1000`` counts every turn."""

FIGURES = ("any@1", "any@5", "all@5", "all@10", "ndcg@5")

Case = tuple[np.ndarray, np.ndarray, np.ndarray, list[str], set[str]]
"""One question: its matched turns' conversation numbers and scores, the named conversations'
numbers, the conversation names by number, and the evidence conversations."""


def figures(ranking: Sequence[str], evidence: set[str]) -> dict[str, float]:
    """Session recall and NDCG@5 of one ranking (binary gain, as graphmem.bench.longmemeval.metrics)."""
    out = {"any@1": float(bool(evidence & set(ranking[:1]))), "any@5": float(bool(evidence & set(ranking[:5]))),
           "all@5": float(evidence <= set(ranking[:5])), "all@10": float(evidence <= set(ranking[:10]))}
    dcg = sum(1 / math.log2(i + 2) for i, c in enumerate(ranking[:5]) if c in evidence)
    out["ndcg@5"] = dcg / sum(1 / math.log2(i + 2) for i in range(min(5, len(evidence))))
    return out


def _case(mem: Memory, question: str, evidence: set[str], asked_on=None) -> Case:
    index = mem.store.index  # the live index: its turn scores, as its search reads them
    docs, scores = index.scores(question, asked_on)
    named = np.array([index.conv_ids[c] for c in index.named(question)], dtype=np.int64)
    return index.conv_of.view()[docs], scores, named, list(index.conv_names), evidence


def longmemeval_cases(path: str | None, limit: int | None) -> dict[str, list[Case]]:
    """Per view, one case per answerable question (the official view: those with a user evidence turn)."""
    from graphmem.data.records import parse_date

    out: dict[str, list[Case]] = {"all": [], "official": []}
    for q in loader.load(path, "s", limit):
        if q.abstention:
            continue
        key_to_id = {s.key: s.id for s in q.sessions}
        for view in out:
            if view == "official" and not evidence_turns(q, view):
                continue
            mem = Memory()
            mem.ingest(q.records(ROLES[view]))
            convs, scores, named, names, _ = _case(mem, q.question, set(), parse_date(q.date, "question_date"))
            out[view].append((convs, scores, named, [key_to_id[n] for n in names], set(q.evidence_sessions)))
    return out


def locomo_cases(path: str) -> list[Case]:
    """One memory over LoCoMo with each session its own conversation; one case per question with evidence."""
    data = locomo.load_file(path)
    session = {}  # turn id -> its conversation here: sample/Dn
    records = []
    for c in data.conversations:
        for t in c.turns:
            conv = f"{c.id}/{t.id.split(':')[0]}"
            session[f"{c.id}/{t.id}"] = conv
            records.append({"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text,
                            "date": t.date, "conversation": conv})
    mem = Memory()
    mem.ingest(records)
    return [_case(mem, q.text, {session[e] for e in evidence if e in session})
            for _, q, evidence in data.with_evidence()]


def score(cases: Iterable[Case], turns: int, rest: float) -> dict[str, float]:
    """The mean figures of one variant over the cases."""
    total = dict.fromkeys(FIGURES, 0.0)
    n = 0
    for convs, scores, named, names, evidence in cases:
        ranking = [names[c] for c in best_conversations(convs, scores, 10, named, turns, rest)]
        for k, v in figures(list(dict.fromkeys(ranking)), evidence).items():
            total[k] += v
        n += 1
    return {k: v / max(n, 1) for k, v in total.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--longmemeval", default=None, help="the release's JSON (default: as graphmem longmemeval finds it)")
    ap.add_argument("--locomo", default=os.environ.get("GRAPHMEM_LOCOMO"))
    ap.add_argument("--limit", type=int, default=None, help="LongMemEval's first N questions")
    args = ap.parse_args(argv)
    lme = longmemeval_cases(args.longmemeval, args.limit)
    sets = {f"lme {v} ({len(c)})": c for v, c in lme.items()}
    if args.locomo:
        cases = locomo_cases(args.locomo)
        sets[f"locomo ({len(cases)})"] = cases
    rows = []
    for turns, rest in VARIANTS:
        got = {name: score(cases, turns, rest) for name, cases in sets.items()}
        mean = np.mean([got[name][f] for name in sets if name.startswith("lme") for f in FIGURES])
        rows.append((float(mean), turns, rest, got))
    print("session figures per variant (turns x rest), best mean over LongMemEval's two views first;"
          f" columns: {', '.join(FIGURES)}")
    for mean, turns, rest, got in sorted(rows, key=lambda r: -r[0]):
        cells = "   ".join(f"{name}: " + " ".join(f"{got[name][f]:.3f}" for f in FIGURES) for name in sets)
        print(f"  {turns:>4} x {rest:<4}  mean {mean:.4f}   {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

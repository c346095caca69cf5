"""Which confidence tells LongMemEval's answerable questions from its ``_abs`` ones?

    python bench/longmemeval_confidence.py [--data FILE] [--variant s|oracle] [--limit N]

Per question a fresh shipped memory over its haystack; the turns its search returns are read for
several confidences, and each one's ROC AUC (scikit-learn; answerable against ``_abs``) printed:

``top1``      the first turn's coverage of the question (what ``ask`` abstains by)
``max5``      the best coverage among the first five
``user1``     the first user turn's coverage, among the first ten (the assistant restates, the user tells)
``usermax``   the best coverage among the first five user turns of the first ten
``union5`` / ``union3``  the coverage of the first five (three) turns taken together
``session``   the coverage of the first turn's whole session

Coverage is :func:`graphmem.answer.sure.coverage` (idf-weighted share of the question's terms), as
the shipped ``ask`` reads it: its unseen terms counted, uncovered (``MemoryOptions.sure_unseen``;
``--known`` leaves them out, as the bench's Sure does), the question searched as of its date.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem.answer.sure import coverage as covered  # noqa: E402
from graphmem.longmemeval import load as loader  # noqa: E402
from graphmem.memory.api import Memory  # noqa: E402
from graphmem.memory.shape import is_assistant  # noqa: E402

NAMES = ("top1", "max5", "user1", "usermax", "union5", "union3", "session")


def confidences(mem: Memory, question: str, asked_on: datetime | None, unseen: bool) -> dict[str, float]:
    """Every candidate confidence for one question."""
    found = mem.records_for(question, k=10, asked_on=asked_on)
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=None)
    ap.add_argument("--variant", default="s", choices=["s", "oracle"])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--known", action="store_true", help="leave out the question's terms no turn holds")
    args = ap.parse_args()
    labels, rows = [], []
    for q in loader.load(args.data, args.variant, args.limit):
        mem = Memory()
        mem.ingest(q.records())
        rows.append(confidences(mem, q.question, q.date, not args.known))
        labels.append(0 if q.abstention else 1)
    print(f"{len(rows)} questions, {labels.count(0)} _abs: ROC AUC answerable vs _abs")
    for name in NAMES:
        print(f"  {name:<8} {roc_auc_score(labels, [r[name] for r in rows]):.3f}")


if __name__ == "__main__":
    main()

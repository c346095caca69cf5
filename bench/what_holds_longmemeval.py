"""What holds, on LongMemEval's knowledge updates: is the top turn the newest value, and does ``ask`` say it?

    python bench/what_holds_longmemeval.py [--data PATH] [--show]

For each knowledge-update question of the development half (abstentions left out), one memory of
all its turns, asked as of the question's date (``asked_on``), and BM25 (bm25s, the run's own
baseline) over the same turns. It prints, over the questions whose evidence spans an older and a
newer session (an update):

- **top turn from the newest session**: the first turn is evidence from the newest evidence
  session, for the memory's ``search``, for the first turn ``ask`` cites (a reply read off a fact
  that holds cites that fact's turn first: graphmem.memory.asked), and for BM25;

and over every knowledge-update question:

- **reply holds the gold answer**: the gold answer's words (SQuAD's normalisation) appear in order
  in ``ask``'s reply; beside it, in ``ask``'s first cited turn and in BM25's top turn (a turn is a
  whole message, so it holds the answer far more often than a short reply does);
- how many replies were read off a fact (measure ``fact``).

``--show`` prints each question's reply and gold. Development data: the figures are in-sample for
any rule tuned on it (docs/what_holds.md).
"""

from __future__ import annotations

import argparse

from graphmem import Memory
from graphmem.bench.longmemeval.baseline import BM25
from graphmem.bench.longmemeval.load import load, locate
from graphmem.bench.longmemeval.metrics import tokens


def holds(text: str, gold: str) -> bool:
    """Whether ``gold``'s normalised words appear, in order and together, in ``text``'s."""
    want, have = tokens(gold), tokens(text)
    return bool(want) and any(have[i:i + len(want)] == want for i in range(len(have) - len(want) + 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=None)
    ap.add_argument("--show", action="store_true")
    a = ap.parse_args()
    updates = {"search": 0, "ask": 0, "bm25": 0}
    n_updates = n = facts = 0
    gold = {"ask reply": 0, "ask top turn": 0, "bm25 top turn": 0}
    for q in load(locate(a.data, "s")):
        if q.type != "knowledge-update" or q.abstention:
            continue
        n += 1
        session_of = {t.id: s for s in q.sessions for t in s.turns}
        evidence = {t.id for s in q.sessions for t in s.turns if t.has_answer}
        records = q.records(None)
        text = {r["id"]: r["text"] for r in records}
        mem = Memory()
        mem.ingest(records)
        found = mem.search(q.question, k=10, asked_on=q.date)
        answer = mem.ask(q.question, asked_on=q.date)
        bm25 = BM25([r["id"] for r in records], [r["text"] for r in records]).rank(q.question)
        facts += answer.measure == "fact"
        gold["ask reply"] += holds(answer.reply, q.answer)
        gold["ask top turn"] += bool(answer.cited) and holds(text[answer.cited[0]], q.answer)
        gold["bm25 top turn"] += bool(bm25) and holds(text[bm25[0]], q.answer)
        if a.show:
            print(f"{answer.measure:<8} {answer.reply[:60]!r:<64} gold {q.answer[:40]!r}  {q.question[:70]}")
        if len({session_of[t].id for t in evidence}) < 2:
            continue
        n_updates += 1
        newest = max((session_of[t] for t in evidence), key=lambda s: (s.date, s.id)).id
        for name, first in (("search", found[:1]), ("ask", answer.cited[:1]), ("bm25", bm25[:1])):
            updates[name] += bool(first) and first[0] in evidence and session_of[first[0]].id == newest
    print(f"knowledge updates (evidence in an older and a newer session): {n_updates} questions")
    print("  top turn from the newest evidence session:  "
          + "  ".join(f"{name} {v / n_updates:.3f}" for name, v in updates.items()))
    print(f"knowledge-update questions: {n}; ask replied from a fact in {facts}")
    print("  holds the gold answer:  " + "  ".join(f"{name} {v / n:.3f}" for name, v in gold.items()))


if __name__ == "__main__":
    main()

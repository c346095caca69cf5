"""Why the memory still finds an older value first: LongMemEval's knowledge updates, one line each.

    python bench/updates_misses.py [--data PATH]

For each knowledge-update question of the development half whose evidence spans an older and a
newer session and whose first evidence turn found (top 10, as of the question's date) is not from
the newest session, it prints: whether the top turn is the stale value, where the store ranks the
newer evidence turn (``MemoryOptions(updates=False)``: what the update rules are given; they
reorder the first ``updates_window``), and how much of the question the newer and the older
evidence turns cover (:func:`graphmem.answer.sure.coverage`; the topic rule needs the newer one to
cover ``updates_floor`` and ``updates_cover`` times the older's). See docs/lifecycle.md.
"""

from __future__ import annotations

import argparse

from graphmem import Memory
from graphmem.answer.sure import coverage
from graphmem.index.options import MemoryOptions
from graphmem.index.query import Query
from graphmem.bench.longmemeval.load import load, locate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=None)
    a = ap.parse_args()
    n = 0
    for q in load(locate(a.data, "s")):
        if q.type != "knowledge-update" or q.abstention:
            continue
        session_of = {t.id: s for s in q.sessions for t in s.turns}
        evidence = {t.id for s in q.sessions for t in s.turns if t.has_answer}
        if len({session_of[t].id for t in evidence}) < 2:
            continue
        n += 1
        newest = max((session_of[t] for t in evidence), key=lambda s: (s.date, s.id)).id
        mem = Memory()
        mem.ingest(q.records(None))
        found = mem.search(q.question, k=10, asked_on=q.date)
        first = next((t for t in found if t in evidence), None)
        if first is not None and session_of[first].id == newest:
            continue
        plain = Memory(options=MemoryOptions(updates=False))
        plain.ingest(q.records(None))
        ranked = plain.search(q.question, k=50, asked_on=q.date)
        weights = mem.store.weights(Query.parse(q.question), [])
        text = {t.id: t.text for t in mem.turns()}
        newer = sorted(t for t in evidence if session_of[t].id == newest)
        older = sorted(t for t in evidence if session_of[t].id != newest)
        ranks = [ranked.index(t) + 1 if t in ranked else "-" for t in newer]
        cover = [f"{coverage(weights, q.question, text[t]):.2f}" for t in newer]
        was = [f"{coverage(weights, q.question, text[t]):.2f}" for t in older]
        stale = "stale top" if found and found[0] in evidence else "         "
        print(f"{stale}  newer ranked {ranks}  covers {cover} (older {was})  {q.question[:90]}")
    print(f"({n} questions whose evidence spans an older and a newer session)")


if __name__ == "__main__":
    main()

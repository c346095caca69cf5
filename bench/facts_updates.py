"""What the facts' kind rule catches and misses (graphmem.claims.facts), counted on dialogue.

    python bench/facts_updates.py [--longmemeval PATH] [--locomo PATH] [--show N]

LongMemEval's development half: its knowledge-update questions whose evidence spans an older and
a newer session are labelled updates (the older evidence turn says a value the newer one
replaces). For each, the memory's claims about the user are read (``Memory.facts``) and the
question is counted as

- ``caught``: a claim read from an older evidence turn ends (``valid_to``) on the day of a newer
  evidence turn;
- ``no kind``: no claim of the evidence turns has a kind (what changed is a count, a time, a
  thing's place...: outside the six kinds);
- ``missed``: a claim of a kind was read from both, but the rule did not end the older one.

LoCoMo: how many of each person's facts a later claim ended, per kind, with ``--show`` that many
examples (the earlier and the later sentence) to read.
"""

from __future__ import annotations

import argparse
from collections import Counter

from graphmem import Memory
from graphmem.claims.facts import kind_of
from graphmem.data import locomo
from graphmem.data.shared import find
from graphmem.domain import Claim
from graphmem.bench.longmemeval.load import load, locate


def longmemeval(path: str | None) -> None:
    counts: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for q in load(locate(path, "s")):
        if q.type != "knowledge-update" or q.abstention:
            continue
        evidence = {t.id: s for s in q.sessions for t in s.turns if t.has_answer}
        if len({s.id for s in evidence.values()}) < 2:
            continue
        newest = max(s.date for s in evidence.values())
        mem = Memory()
        mem.ingest(q.records(None))
        facts = [f for f in mem.facts("user") if f.turn_id in evidence]
        said = [kind_of(Claim(f.subject, f.predicate, f.object, f.negated, f.sentence, f.turn_id, f.said_on))
                for f in facts]
        kinds.update(k[0] for k in said if k)
        if any(f.valid_to is not None and f.valid_to == newest for f in facts):
            counts["caught"] += 1
        elif not any(said):
            counts["no kind"] += 1
        else:
            counts["missed"] += 1
    n = sum(counts.values())
    print(f"LongMemEval knowledge updates across sessions: {n} questions")
    for name in ("caught", "missed", "no kind"):
        print(f"  {name:<8} {counts[name]:>3}  {counts[name] / n:.3f}")
    print("  kinds of the evidence turns' claims: " + (", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "none"))


def locomo_facts(path: str | None, show: int) -> None:
    data = locomo.load_file(path or find("locomo10.json", "GRAPHMEM_LOCOMO"))
    ended: Counter[str] = Counter()
    held: Counter[str] = Counter()
    examples = []
    for conv in data.conversations:
        mem = Memory()
        mem.ingest([{"id": t.id, "speaker": t.speaker, "text": t.text, "date": t.date, "conversation": conv.id}
                    for t in conv.turns])
        for person in dict.fromkeys(t.speaker for t in conv.turns):
            facts = mem.facts(person)
            for f in facts:
                k = kind_of(Claim(f.subject, f.predicate, f.object, f.negated, f.sentence, f.turn_id, f.said_on))
                if k is None:
                    continue
                held[k[0]] += 1
                if f.valid_to is not None:
                    ended[k[0]] += 1
                    later = next(g for g in facts if g.valid_from == f.valid_to and g.turn_id != f.turn_id
                                 and (kind_of(Claim(g.subject, g.predicate, g.object, g.negated, g.sentence,
                                                    g.turn_id, g.said_on)) or ("",))[0] == k[0])
                    examples.append((conv.id, f.sentence, later.sentence))
    print("\nLoCoMo: facts of a kind, and how many a later claim ended")
    for kind in sorted(held):
        print(f"  {kind:<11} {held[kind]:>4} facts  {ended[kind]:>3} ended")
    for conv, before, after in examples[:show]:
        print(f"  {conv}: {before!r}  ->  {after!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--longmemeval", default=None)
    ap.add_argument("--locomo", default=None)
    ap.add_argument("--show", type=int, default=10)
    a = ap.parse_args()
    longmemeval(a.longmemeval)
    locomo_facts(a.locomo, a.show)


if __name__ == "__main__":
    main()

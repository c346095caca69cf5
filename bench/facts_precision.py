"""How many of the memory's facts about LoCoMo's people would a reader accept? (issue #46: at least 0.9)

    python bench/facts_precision.py [--data PATH] [--labels FILE] [--seed 0] [--n 200] [--unlabelled FILE] [--show N] [--all]

All LoCoMo turns go into one ``Memory`` (ids ``conversation/turn``, as bench/memory_locomo.py puts
them); every speaker's facts (``mem.facts(name)``, public API only) are collected, and a seeded sample
of ``--n`` is drawn (the facts sorted by turn, subject, predicate and object first, so one seed draws the
same sample from the same facts). Each is looked up in the labels file (``bench/data/facts_labels.jsonl``:
``{turn_id, subject, predicate, object, ok, why}``, labelled by hand reading the fact with its sentence:
would a reader accept it as a fact about the person? Greetings, fragments, objects carrying time words
or trailing clauses are not). Printed: precision over the sampled facts that are labelled, how many
are not, and ``--show`` of those. ``--unlabelled FILE`` writes the unlabelled ones as a template (with
their sentence, to read; ``ok`` null) so the labels can be extended when extraction changes; the
committed labels keep no LoCoMo sentence (CC BY-NC).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

LABELS = Path(__file__).resolve().parent / "data" / "facts_labels.jsonl"
Key = tuple[str, str, str, str]


def facts(path: str | None) -> list[dict[str, Any]]:
    """Every speaker's facts over all of LoCoMo, one row a fact, deduplicated, in a fixed order."""
    from graphmem import Memory
    from graphmem.data import locomo
    from graphmem.data.shared import find
    data = locomo.load_file(path or find("locomo10.json", "GRAPHMEM_LOCOMO"))
    mem = Memory()
    mem.ingest([{"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date, "conversation": c.id}
                for c in data.conversations for t in c.turns])
    names = dict.fromkeys(t.speaker for c in data.conversations for t in c.turns)
    rows: dict[Key, dict[str, Any]] = {}
    for name in names:
        for f in mem.facts(name):
            row = {"turn_id": f.turn_id, "subject": f.subject, "predicate": f.predicate, "object": f.object,
                   "negated": f.negated, "sentence": f.sentence}
            rows.setdefault(key(row), row)
    return [rows[k] for k in sorted(rows)]


def key(row: dict[str, Any]) -> Key:
    return (row["turn_id"], row["subject"].lower(), row["predicate"], row["object"])


def labels(path: Path) -> dict[Key, dict[str, Any]]:
    """The labels by fact; a wrong line raises ``ValueError`` naming the file and line."""
    out: dict[Key, dict[str, Any]] = {}
    if not path.exists():
        return out
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if not isinstance(row["ok"], bool) or not all(isinstance(row[k], str) for k in
                                                          ("turn_id", "subject", "predicate", "object")):
                raise TypeError
        except (json.JSONDecodeError, KeyError, TypeError):
            raise ValueError(f"{path}:{n}: a label needs turn_id, subject, predicate, object (strings) "
                             f"and ok (true or false)") from None
        out[key(row)] = row
    return out


def sample(rows: list[dict[str, Any]], n: int, seed: int) -> list[dict[str, Any]]:
    return random.Random(seed).sample(rows, min(n, len(rows)))


def show(row: dict[str, Any]) -> str:
    neg = "not " if row.get("negated") else ""
    return f"{row['turn_id']}  {row['subject']} {neg}{row['predicate']} {row['object']}  <- {row.get('sentence', '')!r}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=None, help="locomo10.json (default: where the tests look)")
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--unlabelled", type=Path, default=None, help="write the unlabelled sampled facts here")
    ap.add_argument("--show", type=int, default=10, help="unlabelled (and refused) facts to print")
    ap.add_argument("--all", action="store_true", help="also the precision over every labelled fact present")
    a = ap.parse_args(argv)
    try:
        known = labels(a.labels)
        everything = facts(a.data)
    except (ValueError, OSError) as e:
        sys.exit(f"facts_precision: {e}")
    drawn = sample(everything, a.n, a.seed)
    judged = [(r, known[key(r)]) for r in drawn if key(r) in known]
    missing = [r for r in drawn if key(r) not in known]
    ok = sum(lab["ok"] for _, lab in judged)
    print(f"LoCoMo facts: {len(everything)}; sample of {len(drawn)} (seed {a.seed}); labelled {len(judged)}, "
          f"unlabelled {len(missing)}")
    if judged:
        print(f"precision (a reader accepts the fact): {ok}/{len(judged)} = {ok / len(judged):.3f}")
    if a.all:  # beyond the sample: every fact present that a label covers (labels written for earlier samples too)
        every = [known[key(r)]["ok"] for r in everything if key(r) in known]
        print(f"every labelled fact present: {sum(every)}/{len(every)} = {sum(every) / max(len(every), 1):.3f} "
              f"({len(everything) - len(every)} of {len(everything)} not labelled)")
    refused = [(r, lab) for r, lab in judged if not lab["ok"]]
    why = Counter(lab.get("why", "") for _, lab in refused)
    for reason, count in why.most_common():
        print(f"  {count:>4}  refused: {reason}")
    for r, lab in refused[:a.show]:
        print(f"  refused: {show(r)}  ({lab.get('why', '')})")
    for r in missing[:a.show]:
        print(f"  unlabelled: {show(r)}")
    if a.unlabelled is not None:
        a.unlabelled.write_text("".join(json.dumps(dict(r, ok=None, why="")) + "\n" for r in missing),
                                encoding="utf-8")
        print(f"{len(missing)} unlabelled facts written to {a.unlabelled}: set ok and why, drop sentence and "
              f"negated, and add them to {a.labels}")


if __name__ == "__main__":
    main()

"""What holds now (issue #46): is the memory right about the present, about a past date, and about the
earlier value, when a person's facts change, said as people say it?

    python bench/what_holds.py [--split dev|test|both|dev_ask] [--store ram|file|neo4j] [--show N] [--show-facts N] [--json] [--data DIR]

Each scenario of ``bench/data/what_holds/{dev,test}*.jsonl`` (a split is every file whose name starts with
it: ``dev`` is ``dev.jsonl``, ``dev_ask.jsonl``, ``dev_facts.jsonl``; ``--split dev_ask`` scores that file
alone; with more than one file, each file's figures are printed too; one to three speakers, notes,
user/assistant chats: docs/what_holds.md) goes into a fresh ``Memory`` (RAM; one SQLite file in a temporary folder; or
the Neo4j of ``NEO4J_URI``, each scenario under its own ``user``, forgotten afterwards). Each question is
asked with ``ask(question, asked_on=...)`` and judged by :mod:`holds_score`'s matcher:

- ``now`` / ``as-of`` / ``earlier``: the share right of the questions asking what holds at the last
  turn, as of a date between the changes, or for the earlier value ("before", "used to"...). Right: the
  reply holds an acceptable value and no stale one;
- ``stale``: the reply holds a stale value (one of another time) and no right one; ``abst``: the
  memory abstained (over all questions);
- ``facts``: the share of facts checks right (``mem.facts(person, as_of=...)`` holds every ``holds``
  value and no ``ended`` one).

``leaks`` counts as-of questions answered from a turn said after their ``asked_on``. Printed per
attribute, per shape and overall, for each split; ``--show N`` prints N missed questions per split.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from holds_score import ATTRIBUTES, SHAPES, Result, load, load_split, score  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "what_holds"
COLUMNS = ("n", "q", "now", "as_of", "earlier", "stale", "abst", "facts")


def maker(store: str, folder: str) -> Callable[[], Any]:
    """A function returning a fresh memory of the chosen store (imported late: ``--help`` stays fast)."""
    from graphmem import Memory
    count = [0]

    def make() -> Any:
        count[0] += 1
        if store == "file":
            return Memory(path=os.path.join(folder, f"s{count[0]}.db"))
        if store == "neo4j":
            return Memory(backend="neo4j")
        return Memory()
    return make


def tally(rows: list[tuple[Any, list[Result], list[bool]]]) -> dict[str, Any]:
    """The figures of a group of scenarios: counts and rates, as the table prints them."""
    out: dict[str, Any] = {"n": len(rows), "q": sum(len(r) for _, r, _ in rows)}
    results = [x for _, r, _ in rows for x in r]
    for expect in ("now", "as_of", "earlier"):
        got = [x for x in results if x.question["expect"] == expect]
        out[f"{expect}_n"], out[f"{expect}_right"] = len(got), sum(x.right for x in got)
        out[expect] = out[f"{expect}_right"] / len(got) if got else None
    out["stale_n"], out["abst_n"] = sum(x.stale for x in results), sum(x.abstained for x in results)
    out["stale"] = out["stale_n"] / len(results) if results else None
    out["abst"] = out["abst_n"] / len(results) if results else None
    facts = [ok for _, _, f in rows for ok in f]
    out["facts_n"], out["facts_right"] = len(facts), sum(facts)
    out["facts"] = sum(facts) / len(facts) if facts else None
    out["leaks"] = sum(x.leak for x in results if x.question["expect"] == "as_of")
    return out


def cell(value: Any) -> str:
    if value is None:
        return "    -"
    return f"{value:>5}" if isinstance(value, int) else f"{value:5.2f}"


def table(split: str, groups: dict[str, dict[str, dict[str, Any]]], total: dict[str, Any]) -> None:
    print(f"\n{split}: {total['n']} scenarios, {total['q']} questions")
    print(f"{'':<14}" + "".join(f"{c:>8}" for c in COLUMNS))
    for title, group in groups.items():
        for name, row in group.items():
            print(f"{name:<14}" + "".join(f"{cell(row[c]):>8}" for c in COLUMNS))
        print(f"{'-' * 14}" + "-" * 8 * len(COLUMNS))
    print(f"{'overall':<14}" + "".join(f"{cell(total[c]):>8}" for c in COLUMNS))
    print(f"right now {total['now_right']}/{total['now_n']}, as of a date {total['as_of_right']}/{total['as_of_n']}, "
          f"earlier {total['earlier_right']}/{total['earlier_n']}; stale {total['stale_n']}, abstained "
          f"{total['abst_n']} of {total['q']}; facts right {total['facts_right']}/{total['facts_n']}; "
          f"leaks: {total['leaks']} of {total['as_of_n']} as-of questions answered from a later turn")


def misses(rows: list[tuple[Any, list[Result], list[bool]]], n: int) -> None:
    shown = [x for _, r, _ in rows for x in r if not x.right][:n]
    for x in shown:
        q = x.question
        print(f"  {x.scenario.id} [{q['expect']} {q['asked_on']}] {q['question']}\n"
              f"      reply {x.reply!r} from {'-' if x.abstained else x.source or '-'}; "
              f"want {q['answers']}, stale {q['stale']}")


def missed_facts(rows: list[tuple[Any, list[Result], list[bool]]], n: int, make: Callable[[], Any]) -> None:
    """Up to ``n`` facts checks missed, each with the person's facts as of its day (read again, RAM)."""
    shown = [(s, f) for s, _, ok in rows for f, good in zip(s.facts, ok) if not good][:n]
    for s, f in shown:
        mem = make()
        mem.ingest(s.turns)
        got = [f"{x.attribute}={x.value!r} ({x.predicate} {x.object})" for x in mem.facts(f["person"], as_of=f["as_of"])]
        print(f"  {s.id} [{f['person']} {f['as_of']}] holds {f['holds']} ended {f['ended']}\n      facts: {got}")


def run(split: str, store: str, show: int, as_json: bool, folder: str, data: Path = DATA,
        show_facts: int = 0) -> dict[str, Any]:
    """Score one split and print its table (unless ``as_json``); returns its figures."""
    files = sorted(data.glob(f"{split}*.jsonl"))
    if not files:
        raise ValueError(f"{data}: no {split}*.jsonl")
    load_split(data, split)  # every file checked whole, and an id repeated across files refused
    scenarios = [(f.stem, s) for f in files for s in load(f)]
    make = maker(store, folder)
    rows, stem = [], {}
    for name, s in scenarios:
        user = f"what-holds-{split}-{s.id}" if store == "neo4j" else None
        rows.append((s, *score(make, s, user)))
        stem[id(s)] = name
    groups: dict[str, dict[str, dict[str, Any]]] = {"attribute": {}, "shape": {}}
    for key, names in (("attribute", ATTRIBUTES), ("shape", SHAPES)):
        for name in names:
            members = [r for r in rows if getattr(r[0], key) == name]
            if members:
                groups[key][name] = tally(members)
    if len(files) > 1:  # each file's own figures too: a set written later, on wordings no rule was tuned on
        groups["file"] = {f.stem: tally([r for r in rows if stem[id(r[0])] == f.stem]) for f in files}
    total = tally(rows)
    if not as_json:
        table(split, groups, total)
        misses(rows, show)
        if show_facts:
            missed_facts(rows, show_facts, make)
    return {"split": split, "store": store, "overall": total, **groups}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", default="both", help="dev, test, both, or a file name's start (dev_ask)")
    ap.add_argument("--store", choices=("ram", "file", "neo4j"), default="ram")
    ap.add_argument("--show", type=int, default=0, help="missed questions to print per split")
    ap.add_argument("--show-facts", type=int, default=0, help="missed facts checks to print per split")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--data", type=Path, default=DATA, help="the folder of dev*.jsonl and test*.jsonl")
    a = ap.parse_args(argv)
    splits = ("dev", "test") if a.split == "both" else (a.split,)
    from graphmem.errors import GraphmemError
    try:
        with tempfile.TemporaryDirectory() as folder:
            out = [run(s, a.store, a.show, a.json, folder, a.data, a.show_facts) for s in splits]
    except (ValueError, OSError, GraphmemError) as e:
        sys.exit(f"what_holds: {e}")
    if a.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

"""Who of LoCoMo's named parties is a person: run ``python bench/people.py [--data PATH]``.

For each conversation it prints its speakers and the third parties its speakers introduce by
name, split by the person rule (:func:`graphmem.claims.naming.persons`: a third party introduced
as a human and never as an animal or a thing), then the totals. ``graphmem load`` counts the same
split per conversation ("N people (M other named)"); this prints the names, so what the rule gets
wrong can be read off (docs/neo4j.md, "People").
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem.claims.build import extract_claims  # noqa: E402
from graphmem.claims.naming import persons  # noqa: E402
from graphmem.data import locomo  # noqa: E402
from graphmem.errors import GraphmemError  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared/data/locomo10.json"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.environ.get("GRAPHMEM_LOCOMO", str(DEFAULT_DATA)))
    args = ap.parse_args(argv)
    try:
        ds = locomo.load_dataset(args.data)
    except GraphmemError as exc:
        print(f"people: {exc}", file=sys.stderr)
        return 2
    speakers = people = others = 0
    for conv in ds.conversations:
        reading = extract_claims(conv)
        named, humans = reading.people, persons(reading.people, reading.claims)
        yes = [named.display(k) for k in named.third_parties if k in humans]
        no = [named.display(k) for k in named.third_parties if k not in humans]
        speakers, people, others = speakers + len(named.speakers), people + len(yes), others + len(no)
        print(f"{conv.id:<9} speakers {', '.join(map(named.display, named.speakers))}; "
              f"people introduced: {', '.join(yes) or '-'}; not people: {', '.join(no) or '-'}")
    print(f"{len(ds.conversations)} conversations: {speakers + people + others} named parties, "
          f"{speakers + people} people ({speakers} speakers, {people} introduced), {others} not people")
    return 0


if __name__ == "__main__":
    sys.exit(main())

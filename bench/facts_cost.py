"""What reading attributes costs: the rule pass over every claim of LoCoMo, per turn and per claim.

    python bench/facts_cost.py [--data PATH] [--repeat 3]

Why: #46 asks for no model call per write and for the cost per turn of whatever reads the facts.
The attribute rules (:mod:`graphmem.claims.attributes`) run on a conversation's claims when a
person's facts are first asked for (the claims themselves are read as before); this prints the
CPU time of that pass over all of LoCoMo's claims (the best of ``--repeat``), per turn and per
claim, and of the timeline (:func:`graphmem.claims.facts.facts_of`) for every speaker.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem.claims.build import extract_claims  # noqa: E402
from graphmem.claims.facts import Told, facts_of  # noqa: E402
from graphmem.claims.people import fold  # noqa: E402
from graphmem.data import locomo  # noqa: E402
from graphmem.data.shared import find  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=None)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    data = locomo.load_file(a.data or find("locomo10.json", "GRAPHMEM_LOCOMO"))
    readings = [extract_claims(c) for c in data.conversations]
    claims = [c for r in readings for c in r.claims]
    turns = sum(len(c.turns) for c in data.conversations)
    best_read = best_line = float("inf")
    for _ in range(a.repeat):
        start = time.process_time()
        told = [Told.of(r.claims) for r in readings]
        best_read = min(best_read, time.process_time() - start)
        start = time.process_time()
        n = sum(len(facts_of(t, fold(s), history=True)) for t, c in zip(told, data.conversations) for s in c.speakers)
        best_line = min(best_line, time.process_time() - start)
    print(f"LoCoMo: {turns} turns, {len(claims)} claims, {n} facts (every speaker, history)")
    print(f"attribute rules: {best_read:.3f} s CPU, {best_read / turns * 1e6:.0f} us a turn, "
          f"{best_read / len(claims) * 1e6:.0f} us a claim (best of {a.repeat})")
    print(f"timeline of every speaker: {best_line * 1e3:.1f} ms CPU")


if __name__ == "__main__":
    main()

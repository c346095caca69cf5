"""What the reading can reach: run ``python bench/reach.py [--data PATH]``.

For all ten LoCoMo conversations it prints

1. how many questions name one of the two speakers, how many ``People.resolve`` resolves
   to anyone it knows, and how many fall back to searching everything;
2. piece reach per category: for each question, the share of its evidence turns that hold
   a piece about the person it names (all pieces when it names nobody known), averaged
   over the questions of each category;
3. reach by hops in the graph: one hop from the question's Person node is every turn
   behind an assertion about or mentioning that person; two hops adds the turns behind
   the assertions of every other person those assertions link to;
4. the census of what was built per conversation, and the CPU time of read + build.

``--captions`` and ``--you-mentions`` switch on the two reading options claims/extract.py leaves off,
so their effect can be measured; ``--compare`` prints all four combinations side by side.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem.claims import graph  # noqa: E402
from graphmem.data import locomo  # noqa: E402
from graphmem.claims.extract import extract  # noqa: E402
from graphmem.claims.records import pieces  # noqa: E402
from graphmem.errors import GraphmemError  # noqa: E402
from graphmem.data.locomo import CATEGORIES  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared/data/locomo10.json"

# what the earlier implementation measured, for the comparison column
SPEC_PIECE = {4: 0.787, 1: 0.688, 2: 0.785, 3: 0.584, 5: 0.269}


def measure(ds, captions: bool = False, you_mentions: bool = False, verbose: bool = True) -> dict:
    named_speaker_exact = named_speaker = resolved = fallback = 0
    piece = defaultdict(list)
    hop1 = defaultdict(list)
    hop2 = defaultdict(list)
    census = []
    cpu = 0.0
    for conv in ds.conversations:
        t0 = time.process_time()
        reading = extract(conv, captions=captions, you_mentions=you_mentions)
        g = graph.build(reading)
        cpu += time.process_time() - t0
        derived = graph.reason(g)
        people = reading.people
        have = {(p.dia_id, p.person) for p in pieces(reading)}
        any_piece = {d for d, _ in have}
        all_turns = set(reading.turns)
        cache: dict[tuple[str, int], set[str]] = {}
        for q in conv.questions:
            if any(_word_in(s, q.text) for s in conv.speakers):
                named_speaker_exact += 1
            if any(people.key(w) in people.speakers for w in _capitals(q.text)):
                named_speaker += 1
            who = people.resolve(q.text)
            if who is None:
                fallback += 1
            else:
                resolved += 1
            if not q.evidence:
                continue
            ev = q.evidence
            if who is None:
                piece[q.category].append(sum(e in any_piece for e in ev) / len(ev))
                hop1[q.category].append(sum(e in all_turns for e in ev) / len(ev))
                hop2[q.category].append(sum(e in all_turns for e in ev) / len(ev))
                continue
            piece[q.category].append(sum((e, who) in have for e in ev) / len(ev))
            for hops, acc in ((1, hop1), (2, hop2)):
                if (who, hops) not in cache:
                    cache[(who, hops)] = graph.turns_within(g, who, hops)
                t = cache[(who, hops)]
                acc[q.category].append(sum(e in t for e in ev) / len(ev))
        c = graph.census(conv, reading, g)
        c["derived"] = derived
        census.append((conv.id, c))
    return {
        "questions": ds.questions,
        "named_exact": named_speaker_exact,
        "named": named_speaker,
        "resolved": resolved,
        "fallback": fallback,
        "piece": {k: _mean(v) for k, v in piece.items()},
        "n": {k: len(v) for k, v in piece.items()},
        "hop1": {k: _mean(v) for k, v in hop1.items()},
        "hop2": {k: _mean(v) for k, v in hop2.items()},
        "census": census,
        "cpu": cpu,
    }


def _mean(v):
    return sum(v) / len(v) if v else 0.0


def _word_in(name: str, text: str) -> bool:
    import re

    return re.search(rf"\b{re.escape(name)}\b", text) is not None


def _capitals(text: str) -> list[str]:
    import re

    return re.findall(r"\b[A-Z][a-z]+(?:'s)?\b", text.replace("’", "'"))


def answerable(d: dict, key: str) -> float:
    """The question-weighted mean over the four answerable categories."""
    tot = sum(d[key][c] * d["n"][c] for c in (1, 2, 3, 4))
    return tot / sum(d["n"][c] for c in (1, 2, 3, 4))


def report(d: dict) -> None:
    q = d["questions"]
    print(f"questions                      {q}")
    print(f"  name a speaker (as written)  {d['named_exact']}")
    print(f"  name a speaker (any spelling){d['named']:>5}")
    print(f"  resolved to someone known    {d['resolved']}  ({d['resolved'] / q:.2%})")
    print(f"  fall back to every piece     {d['fallback']}")
    print()
    print("reach (questions with evidence)   pieces   earlier    1 hop   2 hops")
    for c, name in CATEGORIES.items():
        print(
            f"  {name:<13} {d['n'][c]:>5}             {d['piece'][c]:.3f}     {SPEC_PIECE[c]:.3f}"
            f"    {d['hop1'][c]:.3f}    {d['hop2'][c]:.3f}"
        )
    print(
        f"  {'answerable':<13} {sum(d['n'][c] for c in (1, 2, 3, 4)):>5}             "
        f"{answerable(d, 'piece'):.3f}             {answerable(d, 'hop1'):.3f}    {answerable(d, 'hop2'):.3f}"
    )
    print()
    print("what was built, per conversation")
    tot = defaultdict(int)
    for sid, c in d["census"]:
        print(
            f"  {sid:<8} {c['turns']:>5} turns {c['claims']:>6} claims {c['nodes']:>6} nodes "
            f"{c['edges']:>6} edges {c['derived']:>4} derived"
        )
        for k, v in c.items():
            tot[k] += v
    print(
        f"  {'all':<8} {tot['turns']:>5} turns {tot['claims']:>6} claims {tot['nodes']:>6} nodes "
        f"{tot['edges']:>6} edges {tot['derived']:>4} derived"
    )
    print()
    print(f"read + build, all ten: {d['cpu']:.3f} s CPU")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.environ.get("GRAPHMEM_LOCOMO", str(DEFAULT_DATA)))
    ap.add_argument("--captions", action="store_true", help="read image captions as the speaker's")
    ap.add_argument("--you-mentions", action="store_true", help="count you/your as a mention")
    ap.add_argument("--compare", action="store_true", help="all four option combinations, side by side")
    args = ap.parse_args(argv)
    try:
        ds = locomo.load_dataset(args.data)
    except GraphmemError as exc:
        print(f"reach: {exc}", file=sys.stderr)
        return 2
    if args.compare:
        print("captions  you-mentions   " + "  ".join(f"{CATEGORIES[c][:9]:>9}" for c in CATEGORIES) + "  answerable   (piece reach | 1-hop reach)")
        for cap in (False, True):
            for ym in (False, True):
                d = measure(ds, cap, ym)
                for key in ("piece", "hop1"):
                    cells = "  ".join(f"{d[key][c]:>9.3f}" for c in CATEGORIES)
                    print(f"{str(cap):<9} {str(ym):<13}  {cells}  {answerable(d, key):>10.3f}   {key}")
        return 0
    report(measure(ds, args.captions, args.you_mentions))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

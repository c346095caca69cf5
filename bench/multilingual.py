"""Text that is not English: does the memory find the turn a question in another language asks about?

    python bench/multilingual.py [--data tests/unit/text/multilingual.json] [--k 5] [--show]

The turns of the hand-written set (German, French, Spanish, Russian, Greek and Hebrew, with an
English friend's "I got rich" beside a German "Zürich") go into one
:class:`graphmem.memory.api.Memory` with its default settings; each question is asked once with
``search(question, k)`` and is a hit at rank r when the r-th id returned is the turn that answers
it. Some questions are written without the accents their turn has (or with accents it lacks), in
capitals, or without the turn's Hebrew vowel points: the index keys words by their folded form
(:func:`graphmem.text.scripts.unicode_words`). Printed per language: n, hit@1, hit@k. ``--show`` prints
each question whose turn is not first, with the ids that came back.

The set is small and written to be answerable by words the question shares with its turn; it checks
that words in other scripts are indexed and found, not how well the memory reads those languages
(no stemming is done outside ASCII Latin, so "работает" does not find "работаю"; a Hebrew word's prefix
letters alone are not part of its term).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem.memory.api import Memory  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[1] / "tests/unit/text/multilingual.json"


def load(path: str | Path) -> dict[str, Any]:
    """The set: ``turns`` (records for ``Memory.ingest``, with a ``lang``) and ``questions``."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def ranks(data: dict[str, Any], k: int = 5) -> list[tuple[str, str, int, list[str]]]:
    """(language, question, rank of its turn or 0 when not in the top k, the ids found) per question."""
    mem = Memory()
    mem.ingest({key: t[key] for key in ("id", "conversation", "speaker", "text")} for t in data["turns"])
    out = []
    for q in data["questions"]:
        found = mem.search(q["question"], k)
        rank = found.index(q["answer"]) + 1 if q["answer"] in found else 0
        out.append((q["lang"], q["question"], rank, found))
    return out


def table(rows: list[tuple[str, str, int, list[str]]], k: int) -> list[str]:
    """Per language and over all: n, hit@1, hit@k."""
    by: dict[str, list[int]] = defaultdict(list)
    for lang, _, rank, _ in rows:
        by[lang].append(rank)
    by["all"] = [rank for _, _, rank, _ in rows]
    lines = [f"  {'language':<9} {'n':>3}  hit@1  hit@{k}"]
    for lang, got in by.items():
        hit1 = sum(r == 1 for r in got) / len(got)
        hitk = sum(r > 0 for r in got) / len(got)
        lines.append(f"  {lang:<9} {len(got):>3}  {hit1:.3f}  {hitk:.3f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--show", action="store_true", help="each question whose turn is not first, and what came back")
    args = ap.parse_args(argv)
    data = load(args.data)
    rows = ranks(data, args.k)
    print(f"{len(data['turns'])} turns, {len(rows)} questions")
    print("\n".join(table(rows, args.k)))
    if args.show:
        for lang, question, rank, found in rows:
            if rank != 1:
                print(f"{lang}  rank {rank or '-'}  {question}  ->  {', '.join(found)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

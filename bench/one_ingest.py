"""The CPU of ingesting one turn, and of one search, in a memory of LoCoMo x R, in some checkout.

    python bench/one_ingest.py [--tree ../base] [--store file|ram] [--r 16] [--profile OUT]

Why apart from ``bench/memory_scale.py``: there one figure holds an ingest and a search together,
each drawn once; here the ingests are timed alone, 5 runs of 100, so a cost that grows with the
memory on every ingest shows apart from the search's. ``--tree`` imports that checkout's graphmem
and its ``bench/memory_scale.py`` (the base's too: both have ``copy_batches`` and ``_new_turn``).
``--profile`` writes 300 more ingests' profile, timed by CPU (the default wall-clock profiler charges
the commit's fsync to SQLite), for ``pstats``.
"""

from __future__ import annotations

import argparse
import cProfile
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", type=Path, default=HERE)
    ap.add_argument("--store", choices=("file", "ram"), default="file")
    ap.add_argument("--r", type=int, default=16)
    ap.add_argument("--data", default=str(HERE.parent / "shared" / "data" / "locomo10.json"))
    ap.add_argument("--profile", help="write a CPU-timed profile of 300 more ingests here")
    args = ap.parse_args(argv)
    sys.path[:0] = [str(args.tree), str(args.tree / "bench")]
    from memory_scale import _new_turn, copy_batches  # the tree's own

    from graphmem import Memory

    batches = copy_batches(args.data, args.r)
    questions = next(batches)
    records = [rec for batch in batches for rec in batch]
    where = {"path": str(Path(tempfile.mkdtemp()) / "memory.db")} if args.store == "file" else {}
    mem = _opened(Memory, where)
    mem.ingest(records)
    mem.search(questions[0], k=5)
    rng = random.Random(0)

    def ingest(start: int, n: int) -> None:
        for i in range(start, start + n):
            mem.ingest([_new_turn(i, records[rng.randrange(len(records))])])

    ingest(0, 20)
    runs = [_cpu(lambda run=run: ingest(100 + 100 * run, 100)) / 100 for run in range(5)]
    search = _cpu(lambda: [mem.search(q, k=5) for q in questions[:100]]) / len(questions[:100])
    print(f"{args.tree} {args.store} r={args.r}: one-turn ingest CPU median {statistics.median(runs) * 1000:.3f} ms"
          f" (runs {', '.join(f'{x * 1000:.3f}' for x in sorted(runs))}), search CPU {search * 1000:.3f} ms")
    if args.profile:
        profile = cProfile.Profile(time.process_time)
        profile.runcall(ingest, 1000, 300)
        profile.dump_stats(args.profile)


def _opened(memory: Callable[..., Any], where: dict[str, str]) -> Any:
    """The memory without the knowledge updates' rules where the tree has them (the base has none)."""
    try:
        from graphmem.index.options import MemoryOptions

        return memory(options=MemoryOptions(updates=False), **where)
    except (ImportError, AttributeError, TypeError):  # the base's options are another class
        return memory(**where)


def _cpu(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


if __name__ == "__main__":
    main()

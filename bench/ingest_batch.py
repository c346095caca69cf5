"""Where the live index's column-by-column ingest starts to pay: one turn at a time against
column by column, for ingests of each size.

    python bench/ingest_batch.py [--data PATH] [--sizes 16,64,128,256,1024] [--turns 5800] [--repeats 3]

A memory holding LoCoMo once ingests the first ``--turns`` turns of a second copy (its own ids
and speaker names, as ``bench/memory_scale.py`` makes them) in ingests of each size, once with
every ingest indexed one record at a time and once column by column (``LiveIndex(batch=...)``
set to 1 or past every size). Printed: CPU microseconds per turn, the best of ``--repeats``
runs (the machine may be shared). ``graphmem.index.options.IndexSettings.batch`` is chosen from this.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from memory_scale import DEFAULT_DATA, copies  # noqa: E402


def per_turn(first: list[dict], more: list[dict], size: int, batch: int, repeats: int) -> float:
    """CPU microseconds per turn of ingesting ``more`` in ingests of ``size`` after ``first``."""
    from graphmem import Memory
    from graphmem.index.options import MemoryOptions

    best = float("inf")
    for _ in range(repeats):
        mem = Memory(options=replace(MemoryOptions(), batch=batch))
        mem.ingest(first)
        cpu = time.process_time()
        for start in range(0, len(more), size):
            mem.ingest(more[start:start + size])
        best = min(best, time.process_time() - cpu)
    return 1e6 * best / len(more)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--sizes", default="16,64,128,256,1024")
    ap.add_argument("--turns", type=int, default=5800)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    once, _ = copies(a.data, 1)
    twice, _ = copies(a.data, 2)
    more = twice[len(once):][: a.turns]
    for size in (int(s) for s in a.sizes.split(",")):
        one = per_turn(once, more, size, 10**9, a.repeats)
        columns = per_turn(once, more, size, 1, a.repeats)
        print(f"ingests of {size:>5}: one record at a time {one:6.1f} us/turn, column by column {columns:6.1f} us/turn",
              flush=True)


if __name__ == "__main__":
    main()

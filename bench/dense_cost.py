"""What the dense path's ingest and search cost per LongMemEval turn, and what the engine's knobs do.

    python bench/dense_cost.py [--data FILE] [--turns 120] [--queries 20]

``Memory(dense=True)`` embeds every sentence of a turn as ``"speaker: sentence"``
(:func:`graphmem.search.dense.passages`) with multilingual-e5-small run by graphmem's int8 graph
(:class:`graphmem.search.e5.Engine`), and each search embeds the question. This reads the first
``--turns`` turns of the first development question's haystack (user and assistant turns as they
come) and the first ``--queries`` questions, and prints the CPU time (``time.process_time``: every
thread's) per turn ingested and per query for each engine setting: the shipped one (one thread,
batches of 16, int8), batches of 1 and 64, two threads, the float graph, and the sentence cut to
its first 128 or 64 pieces (a cut the engine does not make today: measured here by a subclass).
The issue's bar is 10 ms a turn and 5 ms a search.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from graphmem.bench.longmemeval import load as loader  # noqa: E402
from graphmem.search import e5  # noqa: E402
from graphmem.search.dense import passages  # noqa: E402


class Cut(e5.Engine):
    """The engine with every text cut to its first ``limit`` pieces (``<s>`` and ``</s>`` kept)."""

    def __init__(self, limit: int, **kw: object):
        super().__init__(**kw)  # type: ignore[arg-type]
        self.limit = limit

    def _tokens(self, text: str, is_query: bool) -> list[int]:
        ids = super()._tokens(text, is_query)
        return ids if len(ids) <= self.limit else ids[: self.limit - 1] + ids[-1:]


SETTINGS = {
    "shipped (int8, 1 thread, batch 16)": lambda: e5.Engine(),
    "batch 1": lambda: e5.Engine(batch=1),
    "batch 64": lambda: e5.Engine(batch=64),
    "2 threads": lambda: e5.Engine(threads=2),
    "float32": lambda: e5.Engine(int8=False),
    "cut at 128 pieces": lambda: Cut(128),
    "cut at 64 pieces": lambda: Cut(64),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=None)
    ap.add_argument("--turns", type=int, default=120)
    ap.add_argument("--queries", type=int, default=20)
    a = ap.parse_args()
    questions = list(loader.load(a.data, "s", a.queries))
    records = questions[0].records()[: a.turns]
    _, pieces = passages([(r["speaker"], r["text"]) for r in records])
    asked = [q.question for q in questions]
    print(f"{len(records)} turns, {len(pieces)} sentences; {len(asked)} questions")
    for name, make in SETTINGS.items():
        engine = make()
        tokens = sum(engine.token_count(p) for p in pieces)
        t = time.process_time()
        engine.encode(pieces)
        ingest = (time.process_time() - t) / len(records)
        t = time.process_time()
        for q in asked:
            engine.encode([q], is_query=True)
        search = (time.process_time() - t) / len(asked)
        print(f"  {name:<36} {1000 * ingest:7.1f} ms CPU a turn ({tokens / len(records):.0f} pieces)  "
              f"{1000 * search:6.1f} ms a query")


if __name__ == "__main__":
    main()
